// histogram.cpp (openmp): 256-bin histogram of bytes: one local histogram per thread, merged.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "thread_range.hpp"

namespace {

void require_256_bins(const plugbench::sdk::Call& call) {
  if (call.problem().bins != 256) {
    throw plugbench::sdk::unsupported("histogram: 256 bins only, not " +
                                      std::to_string(call.problem().bins));
  }
}

void histogram_local_histograms(plugbench::sdk::Call& call) {
  require_256_bins(call);
  const auto* pixels = call.input<std::uint8_t>(0);
  auto* counts = call.output<std::uint32_t>(0);
  const auto n = static_cast<std::int64_t>(call.n());
  std::fill(counts, counts + 256, 0u);
#pragma omp parallel
  {
    std::uint32_t local[256] = {};
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < n; ++i) ++local[pixels[i]];
    for (int bin = 0; bin < 256; ++bin) {
#pragma omp atomic
      counts[bin] += local[bin];
    }
  }
}

// Eight sub-histograms per thread, one per byte of an 8-byte word: consecutive equal pixels (a
// flat image, a sky) then increment eight different counters instead of waiting, pixel after
// pixel, for the store of the one counter they share. Rows 1088 bytes apart, not 1024: counters
// 4 KiB apart look alike to the core's check of a load against earlier stores, and the flat
// image's increments of sub[0] and sub[4] would then wait for each other.
using SubHistograms = std::uint32_t[8][256 + 16];

void count_in_sub_histograms(const std::uint8_t* bytes, std::uint64_t count, SubHistograms& sub) {
  std::uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, sizeof word);
    ++sub[0][word & 0xff];
    ++sub[1][(word >> 8) & 0xff];
    ++sub[2][(word >> 16) & 0xff];
    ++sub[3][(word >> 24) & 0xff];
    ++sub[4][(word >> 32) & 0xff];
    ++sub[5][(word >> 40) & 0xff];
    ++sub[6][(word >> 48) & 0xff];
    ++sub[7][word >> 56];
  }
  for (; i < count; ++i) ++sub[0][bytes[i]];
}

// The pixels a thread counts: its own contiguous part (static), or chunks of kChunkPixels handed
// out as threads come for more (dynamic), so that a thread the host slows down (a shared virtual
// CPU) leaves its remaining chunks to the others instead of holding every thread at the end. 64 Ki
// pixels: 500 chunks for an 8K image, a claim per 30-60 us of counting.
enum class Schedule { static_parts, dynamic_chunks };
constexpr std::uint64_t kChunkPixels = std::uint64_t{1} << 16;

// Each thread counts its pixels in its sub-histograms; the bins are then added up across threads,
// a slice of bins per thread.
template <Schedule schedule>
void histogram_sub_histograms(plugbench::sdk::Call& call) {
  require_256_bins(call);
  const auto* pixels = call.input<std::uint8_t>(0);
  auto* counts = call.output<std::uint32_t>(0);
  const std::uint64_t n = call.n();
  const int max_threads = omp_get_max_threads();
  std::vector<std::array<std::uint32_t, 256>> thread_counts(static_cast<std::size_t>(max_threads));
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    alignas(64) SubHistograms sub = {};
    if constexpr (schedule == Schedule::static_parts) {
      const auto part = plugbench::openmp::thread_range(n, thread, threads);
      count_in_sub_histograms(pixels + part.begin, part.size(), sub);
    } else {
      const auto chunks = static_cast<std::int64_t>((n + kChunkPixels - 1) / kChunkPixels);
#pragma omp for schedule(dynamic, 1) nowait
      for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
        const std::uint64_t begin = static_cast<std::uint64_t>(chunk) * kChunkPixels;
        count_in_sub_histograms(pixels + begin, std::min(kChunkPixels, n - begin), sub);
      }
    }
    auto& mine = thread_counts[static_cast<std::size_t>(thread)];
    for (int bin = 0; bin < 256; ++bin) {
      std::uint32_t total = 0;
      for (const auto& one : sub) total += one[bin];
      mine[static_cast<std::size_t>(bin)] = total;
    }
#pragma omp barrier
    const auto bins = plugbench::openmp::thread_range(256, thread, threads);
    for (std::uint64_t bin = bins.begin; bin < bins.end; ++bin) {
      std::uint32_t total = 0;
      for (int t = 0; t < threads; ++t) total += thread_counts[static_cast<std::size_t>(t)][bin];
      counts[bin] = total;
    }
  }
}

}  // namespace

// max_n: a uint32 count cannot overflow below 2^32 pixels.
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "local_histograms",
                  .description = "a private histogram per thread, added up at the end",
                  .run = histogram_local_histograms,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "sub_histograms",
                  .description = "eight sub-histograms per thread, one per byte of a word",
                  .run = histogram_sub_histograms<Schedule::static_parts>,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});

// On the H200's host (16 virtual CPUs) 1.351 / 1.456 ms against 1.677 / 1.657 for one part a
// thread (8K photo / flat); on a 2-core machine shared with other work, no faster.
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "sub_histograms_dynamic",
                  .description = "sub_histograms with 64 Ki-pixel chunks handed out as threads "
                                 "come for them",
                  .run = histogram_sub_histograms<Schedule::dynamic_chunks>,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});
