// sort_adaptive.cpp (openmp): one sort for every key distribution, picking from a sample of the
// keys between lsd_radix_combining (fastest where every digit spreads over many values: uniform
// 189 ms at 2^28 on the H100 host, sorted and reverse 1.12x and 1.13x of that) and msd_buckets
// (where a digit takes few values, which LSD's combining passes handle badly: few 430 ms against
// 137).
// Keys that span fewer values than the uint32 range (top_bit: 2^17 values across 2^31) are sorted
// by key - min, with only the digits that span needs. Keys already in order, ascending or
// descending (sorted, reverse, equal), are copied, or copied reversed, once one read has checked
// every key, as IPS4o does; a sample in order is the cue, so other keys never pay that read.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>

#include <omp.h>

#include "../cpu_common/radix_digits.hpp"
#include "sort_kernels.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace {

namespace cpu = plugbench::cpu;
namespace omp_host = plugbench::openmp;

constexpr std::uint64_t kSample = 4096;
// A digit with more than one value in the sample but fewer than this (uniform bytes show about
// 255 of 256 in 4096 keys): LSD would spend a whole pass on a skewed digit.
constexpr unsigned kFewDigitValues = 64;

std::uint64_t samples_of(std::uint64_t n) {
  return n < kSample ? n : kSample;
}
// Evenly spaced, so that a sorted input shows its whole range too.
std::uint32_t sample(const std::uint32_t* keys, std::uint64_t n, std::uint64_t s) {
  return keys[s * n / samples_of(n)];
}

int lsd_passes(int span_bits) {
  const int bits = omp_host::lsd_digit_bits(span_bits);
  return (span_bits + bits - 1) / bits;
}

// Whether every LSD digit of key - span.base in the sample spreads over its values. A digit
// counts as few-valued where the keys take fewer than half the values the span leaves it (the top
// digit of a narrow span has fewer than 2^bits).
bool digits_spread(const std::uint32_t* keys, std::uint64_t n, omp_host::KeySpan span) {
  constexpr int kMaxBits = 9;
  const int bits = omp_host::lsd_digit_bits(span.bits);
  const int passes = lsd_passes(span.bits);
  std::array<std::array<bool, 1u << kMaxBits>, 4> seen{};
  const std::uint32_t mask = (std::uint32_t{1} << bits) - 1;
  for (std::uint64_t s = 0; s < samples_of(n); ++s) {
    const std::uint32_t value = sample(keys, n, s) - span.base;
    for (int pass = 0; pass < passes; ++pass) seen[pass][(value >> (pass * bits)) & mask] = true;
  }
  for (int pass = 0; pass < passes; ++pass) {
    const unsigned possible = 1u << std::min(bits, span.bits - pass * bits);
    const auto distinct =
        static_cast<unsigned>(std::count(seen[pass].begin(), seen[pass].end(), true));
    if (distinct > 1 && distinct < kFewDigitValues && 2 * distinct < possible) return false;
  }
  return true;
}

// The keys' exact span: one parallel read.
omp_host::KeySpan span_of(const std::uint32_t* keys, std::uint64_t n) {
  std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t high = 0;
#pragma omp parallel for simd schedule(static) reduction(min : low) reduction(max : high)
  for (std::uint64_t i = 0; i < n; ++i) {
    low = std::min(low, keys[i]);
    high = std::max(high, keys[i]);
  }
  return {low, static_cast<int>(std::bit_width(high - low))};
}

enum class Order { none, ascending, descending };

// The order the sample is in: ascending where no sampled key is below the one before (equal keys
// too), descending where none is above.
Order sample_order(const std::uint32_t* keys, std::uint64_t n) {
  bool ascending = true, descending = true;
  for (std::uint64_t s = 1; s < samples_of(n) && (ascending || descending); ++s) {
    const std::uint32_t before = sample(keys, n, s - 1), key = sample(keys, n, s);
    ascending = ascending && before <= key;
    descending = descending && before >= key;
  }
  return ascending ? Order::ascending : descending ? Order::descending : Order::none;
}

// Whether every key is in `order`: one parallel read, without branches, so that it runs at the
// memory's rate.
bool keys_in_order(const std::uint32_t* keys, std::uint64_t n, Order order) {
  unsigned out_of_order = 0;
  if (order == Order::ascending) {
#pragma omp parallel for simd schedule(static) reduction(| : out_of_order)
    for (std::uint64_t i = 1; i < n; ++i) out_of_order |= keys[i - 1] > keys[i] ? 1u : 0u;
  } else {
#pragma omp parallel for simd schedule(static) reduction(| : out_of_order)
    for (std::uint64_t i = 1; i < n; ++i) out_of_order |= keys[i - 1] < keys[i] ? 1u : 0u;
  }
  return out_of_order == 0;
}

// Keys in order, copied (reversed where descending) into `sorted`.
void copy_in_order(const std::uint32_t* keys, std::uint32_t* sorted, std::uint64_t n, Order order) {
  if (order == Order::descending) {
#pragma omp parallel for simd schedule(static)
    for (std::uint64_t i = 0; i < n; ++i) sorted[i] = keys[n - 1 - i];
    return;
  }
  const bool stream = omp_host::worth_streaming(n * sizeof(std::uint32_t));
#pragma omp parallel
  {
    const omp_host::ThreadRange range =
        omp_host::thread_range(n, omp_get_thread_num(), omp_get_num_threads());
    omp_host::store_values(sorted + range.begin, keys + range.begin, range.size(), stream);
    omp_host::fence_streaming_stores();
  }
}

// Keys whose span needs fewer LSD passes than the full range get the read that finds the span;
// the sample's span is part of the keys' span, so keys it shows spread over the whole range (the
// uniform, sorted and reverse keys) are spared that read.
void adaptive_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                   std::uint64_t n) {
  const Order order = sample_order(keys, n);
  if (order != Order::none && keys_in_order(keys, n, order)) {
    copy_in_order(keys, sorted, n, order);
    return;
  }
  const int full_passes = lsd_passes(32);
  omp_host::KeySpan span;
  std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t high = 0;
  for (std::uint64_t s = 0; s < samples_of(n); ++s) {
    low = std::min(low, sample(keys, n, s));
    high = std::max(high, sample(keys, n, s));
  }
  if (lsd_passes(static_cast<int>(std::bit_width(high - low))) < full_passes) {
    const omp_host::KeySpan found = span_of(keys, n);
    if (lsd_passes(found.bits) < full_passes) span = found;
  }
  if (digits_spread(keys, n, span)) {
    omp_host::lsd_combining_sort(keys, sorted, scratch, n, span);
  } else {
    omp_host::msd_buckets_sort(keys, sorted, scratch, n);
  }
}

void sort_adaptive(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, adaptive_sort);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "adaptive",
                  .description = "keys in order copied; else lsd_radix_combining over key - min "
                                 "with the passes the keys' span needs, or msd_buckets where a "
                                 "sample of the keys shows a digit with few values",
                  .run = sort_adaptive,
                  .workspace = cpu::radix_workspace});
