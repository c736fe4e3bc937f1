// sort_buckets.cpp (openmp): uint32 keys ascending by a parallel MSD split into buckets that fit a
// core's share of the cache, each then sorted by one thread with LSD passes that stay in cache.
// The LSD sorts of sort.cpp cross the memory once per digit (four or three times); this one
// crosses it about twice for keys spread over their range (a read to count, a read and a write to
// split); keys that fill part of it cost a second count, and buckets too large for one thread a
// split by the team again.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "../cpu_common/radix_digits.hpp"
#include "combining_scatter.hpp"
#include "scatter_offsets.hpp"
#include "sort_kernels.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace {

namespace cpu = plugbench::cpu;
namespace omp_host = plugbench::openmp;

constexpr int kSplitBits = 8;
constexpr int kSplitBuckets = 1 << kSplitBits;
using SplitScatter = omp_host::CombiningScatter<kSplitBuckets, 64>;

// An MSD digit: (key - base) >> shift, below 256 for every key in [base, base + (256 << shift)).
struct KeySplit {
  std::uint32_t base = 0;
  int shift = 0;
  unsigned operator()(std::uint32_t key) const { return (key - base) >> shift; }
};

// Keys in [lo, lo + 2^width) (width 32: every uint32), at [begin, end) of one of the buffers.
enum class Where { input, scratch, sorted };
struct Bucket {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  Where where = Where::input;
  std::uint32_t lo = 0;
  int width = 32;

  std::uint64_t size() const { return end - begin; }
  // The split by the top 8 of the bits that may differ.
  KeySplit split() const { return {lo, std::max(0, width - kSplitBits)}; }
};

// The bucket of one digit of `split`: `keys` keys from `begin` on in `where`.
Bucket digit_bucket(KeySplit split, int digit, std::uint64_t begin, std::uint64_t keys,
                    Where where) {
  return {begin, begin + keys, where,
          split.base + (static_cast<std::uint32_t>(digit) << split.shift), split.shift};
}

// The split by the top 8 bits in which keys in [min, max] differ: narrower than Bucket::split
// when the keys fill only part of the bucket's range.
KeySplit split_over(std::uint32_t min, std::uint32_t max) {
  return {min, std::max(0, static_cast<int>(std::bit_width(max - min)) - kSplitBits)};
}

// One thread's count of its block's digits under a split, with the block's smallest and largest
// key (for a narrower split, or a bucket whose keys are all equal).
struct alignas(64) BlockCounts {
  std::array<std::uint64_t, kSplitBuckets> digits{};
  std::uint32_t min = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t max = 0;

  void count(const std::uint32_t* keys, omp_host::ThreadRange block, KeySplit split) {
    digits.fill(0);
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t high = 0;
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      const std::uint32_t key = keys[i];
      ++digits[split(key)];
      low = std::min(low, key);
      high = std::max(high, key);
    }
    min = low;
    max = high;
  }
};

// The widest digit of the LSD passes in cache: 2048 counters, 8 KiB.
constexpr int kMaxBits = 11;

void sort_in_cache(const Bucket& bucket, const std::uint32_t* data, std::uint32_t* sorted,
                   std::uint32_t* scratch, std::uint64_t l2_keys);

// One thread splits a bucket larger than l2_keys by its top 8 varying bits into the other buffer,
// then sorts each part, now small enough for the core's L2.
void split_in_thread(const Bucket& bucket, const std::uint32_t* data, std::uint32_t* sorted,
                     std::uint32_t* scratch, std::uint64_t l2_keys) {
  const KeySplit split = bucket.split();
  const std::uint32_t* from = data + bucket.begin;
  std::uint32_t* other = data == sorted ? scratch : sorted;
  std::uint64_t offsets[kSplitBuckets] = {};
  for (std::uint64_t i = 0; i < bucket.size(); ++i) ++offsets[split(from[i])];
  std::uint64_t begin = bucket.begin;
  std::vector<Bucket> parts;
  for (int digit = 0; digit < kSplitBuckets; ++digit) {
    const std::uint64_t keys = offsets[digit];
    offsets[digit] = begin;
    if (keys > 0) {
      parts.push_back(digit_bucket(split, digit, begin, keys,
                                   other == sorted ? Where::sorted : Where::scratch));
    }
    begin += keys;
  }
  for (std::uint64_t i = 0; i < bucket.size(); ++i) {
    const std::uint32_t key = from[i];
    other[offsets[split(key)]++] = key;
  }
  for (const Bucket& part : parts) sort_in_cache(part, other, sorted, scratch, l2_keys);
}

// Sorts keys[begin, end) of a bucket in cache, one thread: LSD passes of up to 11-bit digits of
// key - lo (the bits that may differ), the digits all counted in one read, passes whose digit is
// the same for every key left out; the passes alternate between the bucket's range in the two
// buffers, and the result is copied to `sorted` where it ends in the scratch space. Given
// l2_keys, a bucket larger than that with more than one pass to run is split first.
void sort_in_cache(const Bucket& bucket, const std::uint32_t* data, std::uint32_t* sorted,
                   std::uint32_t* scratch, std::uint64_t l2_keys) {
  constexpr int kMaxPasses = (32 + kMaxBits - 1) / kMaxBits;
  const std::uint64_t size = bucket.size();
  std::uint32_t* result = sorted + bucket.begin;
  const std::uint32_t* from = data + bucket.begin;
  if (bucket.width == 0) {  // every key is lo
    if (from != result) std::fill(result, result + size, bucket.lo);
    return;
  }
  if (l2_keys > 0 && size > l2_keys && bucket.width > kMaxBits) {
    split_in_thread(bucket, data, sorted, scratch, l2_keys);
    return;
  }
  const int passes = (bucket.width + kMaxBits - 1) / kMaxBits;
  const int bits = (bucket.width + passes - 1) / passes;
  const std::uint32_t mask = (std::uint32_t{1} << bits) - 1;
  const std::uint32_t lo = bucket.lo;

  std::array<std::array<std::uint32_t, 1u << kMaxBits>, kMaxPasses> counts;
  for (int pass = 0; pass < passes; ++pass) std::fill_n(counts[pass].begin(), mask + 1, 0u);
  for (std::uint64_t i = 0; i < size; ++i) {
    const std::uint32_t value = from[i] - lo;
    for (int pass = 0; pass < passes; ++pass) ++counts[pass][(value >> (pass * bits)) & mask];
  }

  std::uint32_t* const spare = scratch + bucket.begin;
  const std::uint32_t* source = from;
  std::uint32_t* target = from == result ? spare : result;
  for (int pass = 0; pass < passes; ++pass) {
    std::uint32_t* offsets = counts[pass].data();
    if (std::find(offsets, offsets + mask + 1, size) != offsets + mask + 1) continue;
    std::uint32_t running = 0;
    for (std::uint32_t digit = 0; digit <= mask; ++digit) {
      const std::uint32_t keys = offsets[digit];
      offsets[digit] = running;
      running += keys;
    }
    const int shift = pass * bits;
    for (std::uint64_t i = 0; i < size; ++i) {
      const std::uint32_t key = source[i];
      target[offsets[((key - lo) >> shift) & mask]++] = key;
    }
    source = target;
    target = target == result ? spare : result;
  }
  if (source != result) std::copy(source, source + size, result);
}

class BucketSort {
 public:
  // fit_l2: buckets larger than a core's L2 holds (with their other half) are split again by
  // their thread before its LSD passes.
  BucketSort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
             std::uint64_t n, bool fit_l2)
      : keys_(keys),
        sorted_(sorted),
        scratch_(scratch),
        threads_(omp_get_max_threads()),
        counts_(static_cast<std::size_t>(threads_)) {
    // A bucket is one thread's when it and its other half in the scratch space fit the thread's
    // share of the last-level cache, and it is no more than a thread's share of the keys.
    static const long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
    const std::uint64_t cache = last_level > 0 ? static_cast<std::uint64_t>(last_level) : 32u << 20;
    const auto team = static_cast<std::uint64_t>(threads_);
    const std::uint64_t cache_keys = cache / team / (2 * sizeof(std::uint32_t));
    small_limit_ = std::max<std::uint64_t>(std::uint64_t{1} << 12,
                                           std::min((n + team - 1) / team, cache_keys));
    large_.push_back({0, n, Where::input, 0, 32});
    if (fit_l2) {
      static const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
      l2_keys_ = (l2 > 0 ? static_cast<std::uint64_t>(l2) : 1u << 20) / (2 * sizeof(std::uint32_t));
    }
  }

  void run() {
#pragma omp parallel num_threads(threads_)
    {
      auto scatter = std::make_unique<SplitScatter>(false);
      while (!large_.empty()) {
        for (const Bucket& bucket : large_) split_with_team(bucket, *scatter);
#pragma omp barrier
#pragma omp single
        {
          large_.swap(next_large_);
          next_large_.clear();
        }
      }
#pragma omp single
      std::sort(small_.begin(), small_.end(),
                [](const Bucket& a, const Bucket& b) { return a.size() > b.size(); });
#pragma omp for schedule(dynamic, 1)
      for (std::size_t i = 0; i < small_.size(); ++i) {
        sort_in_cache(small_[i], data(small_[i].where), sorted_, scratch_, l2_keys_);
      }
    }
  }

 private:
  const std::uint32_t* data(Where where) const {
    return where == Where::input ? keys_ : where == Where::scratch ? scratch_ : sorted_;
  }

  // The whole team splits a bucket too large for one thread into the other buffer: each thread
  // counts its block's digits, then scatters its block to its offsets. Buckets whose keys fill
  // only part of their range get the narrower split (a second count); a bucket of equal keys is
  // only written to `sorted` (nothing to read).
  void split_with_team(const Bucket& bucket, SplitScatter& scatter) {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const std::uint32_t* source = data(bucket.where);
    std::uint32_t* target = bucket.where == Where::scratch ? sorted_ : scratch_;
    omp_host::ThreadRange block = omp_host::thread_range(bucket.size(), thread, threads);
    block.begin += bucket.begin;
    block.end += bucket.begin;
    BlockCounts& mine = counts_[static_cast<std::size_t>(thread)];

    mine.count(source, block, bucket.split());
#pragma omp barrier
#pragma omp single
    decide(bucket, threads);
    if (min_ == max_) {
      if (bucket.where != Where::sorted)
        std::fill(sorted_ + block.begin, sorted_ + block.end, min_);
#pragma omp barrier
      return;
    }
    if (split_.shift != bucket.split().shift) {
      mine.count(source, block, split_);
#pragma omp barrier
    }
    std::uint64_t offsets[kSplitBuckets];
    omp_host::thread_offsets(
        kSplitBuckets, threads, thread, bucket.begin,
        [&](int t, int digit) { return counts_[static_cast<std::size_t>(t)].digits[digit]; },
        offsets);
    scatter.set_streaming(omp_host::worth_streaming(bucket.size() * sizeof(std::uint32_t)));
    scatter(source, block, split_, offsets, target, omp_host::IgnoreLeavingKeys{});
    omp_host::fence_streaming_stores();
#pragma omp barrier
#pragma omp single
    add_buckets(bucket.begin, target == sorted_ ? Where::sorted : Where::scratch);
  }

  // Run by one thread: the bucket's key range, and the split it gets.
  void decide(const Bucket& bucket, int threads) {
    min_ = std::numeric_limits<std::uint32_t>::max();
    max_ = 0;
    std::uint64_t largest = 0;
    for (int digit = 0; digit < kSplitBuckets; ++digit) {
      std::uint64_t keys = 0;
      for (int t = 0; t < threads; ++t) keys += counts_[static_cast<std::size_t>(t)].digits[digit];
      largest = std::max(largest, keys);
    }
    for (int t = 0; t < threads; ++t) {
      min_ = std::min(min_, counts_[static_cast<std::size_t>(t)].min);
      max_ = std::max(max_, counts_[static_cast<std::size_t>(t)].max);
    }
    split_ = bucket.split();
    const KeySplit narrower = split_over(min_, max_);
    if (largest > small_limit_ && narrower.shift < split_.shift) split_ = narrower;
  }

  // Run by one thread after a split into `where` from `begin` on: its digits' buckets.
  void add_buckets(std::uint64_t begin, Where where) {
    const auto threads = counts_.size();
    for (int digit = 0; digit < kSplitBuckets; ++digit) {
      std::uint64_t keys = 0;
      for (std::size_t t = 0; t < threads; ++t) keys += counts_[t].digits[digit];
      if (keys == 0) continue;
      const Bucket bucket = digit_bucket(split_, digit, begin, keys, where);
      (bucket.size() > small_limit_ && bucket.width > 0 ? next_large_ : small_).push_back(bucket);
      begin += keys;
    }
  }

  const std::uint32_t* keys_;
  std::uint32_t* sorted_;
  std::uint32_t* scratch_;
  int threads_;
  std::uint64_t small_limit_ = 0;
  std::uint64_t l2_keys_ = 0;  // 0: no split inside a thread
  std::vector<BlockCounts> counts_;
  std::vector<Bucket> large_, next_large_, small_;
  // The bucket the team splits now: its key range and split (written by one thread).
  std::uint32_t min_ = 0;
  std::uint32_t max_ = 0;
  KeySplit split_;
};

template <bool fit_l2>
void msd_buckets(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                 std::uint64_t n) {
  BucketSort(keys, sorted, scratch, n, fit_l2).run();
}

template <bool fit_l2>
void sort_msd_buckets(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, msd_buckets<fit_l2>);
}

}  // namespace

void plugbench::openmp::msd_buckets_sort(const std::uint32_t* keys, std::uint32_t* sorted,
                                         std::uint32_t* scratch, std::uint64_t n) {
  msd_buckets<false>(keys, sorted, scratch, n);
}

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "msd_buckets",
                  .description = "parallel MSD split into cache-sized buckets, each sorted by one "
                                 "thread with LSD passes in cache",
                  .run = sort_msd_buckets<false>,
                  .flags = PB_KERNEL_OPT_IN,
                  .workspace = cpu::radix_workspace});

// The in-cache passes of msd_buckets' 1 Mi-key buckets (8 MiB with their other half, in the L3)
// cost the H200's host as much as passes over the memory; a split inside the thread first puts
// the passes in the L2. On a 2-core Xeon one thread sorted skewed 2^24 keys in 378 ms with
// buckets fitted to the L2 against 502-545 ms: for the host to decide.
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "msd_buckets_l2",
                  .description = "msd_buckets with buckets larger than a core's L2 split again "
                                 "by their thread",
                  .run = sort_msd_buckets<true>,
                  .flags = PB_KERNEL_OPT_IN,
                  .workspace = cpu::radix_workspace});
