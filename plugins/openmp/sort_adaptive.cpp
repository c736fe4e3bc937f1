// sort_adaptive.cpp (openmp): one sort for every key distribution, picking from a sample of the
// keys between lsd_radix_combining (fastest where every digit spreads over many values: uniform
// 162.7 ms at 2^28 on the H100 host, sorted and reverse 1.15x of that) and msd_buckets (where a
// digit takes few values, which LSD's combining passes handle badly: few 348 ms against 112,
// top_bit 230 against 203).
#include <plugbench/plugin_sdk.hpp>

#include <array>
#include <cstdint>

#include "../cpu_common/radix_digits.hpp"
#include "sort_kernels.hpp"

namespace {

namespace cpu = plugbench::cpu;

constexpr std::uint64_t kSample = 4096;
// A byte of the key with more than one value in the sample but fewer than this (uniform bytes
// show about 255 of 256 in 4096 keys): LSD would spend a whole pass on a skewed digit.
constexpr unsigned kFewDigitValues = 64;

bool digits_spread(const std::uint32_t* keys, std::uint64_t n) {
  std::array<std::array<bool, 256>, 4> seen{};
  const std::uint64_t samples = n < kSample ? n : kSample;
  for (std::uint64_t s = 0; s < samples; ++s) {
    const std::uint32_t key = keys[s * n / samples];  // evenly spaced: sorted input too
    for (int byte = 0; byte < 4; ++byte) seen[byte][(key >> (8 * byte)) & 0xFF] = true;
  }
  for (const auto& values : seen) {
    unsigned distinct = 0;
    for (bool value : values) distinct += value ? 1 : 0;
    if (distinct > 1 && distinct < kFewDigitValues) return false;
  }
  return true;
}

void adaptive_sort(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                   std::uint64_t n) {
  if (digits_spread(keys, n)) {
    plugbench::openmp::lsd_combining_sort(keys, sorted, scratch, n);
  } else {
    plugbench::openmp::msd_buckets_sort(keys, sorted, scratch, n);
  }
}

void sort_adaptive(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, adaptive_sort);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "adaptive",
                  .description = "lsd_radix_combining, or msd_buckets where a sample of the keys "
                                 "shows a digit with few values",
                  .run = sort_adaptive,
                  .workspace = cpu::radix_workspace});
