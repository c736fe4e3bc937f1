// sort.cpp (cpu_serial): uint32 keys ascending: LSD radix sort (8-bit digits) and std::sort.
#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "../cpu_common/radix_digits.hpp"

namespace {

namespace cpu = plugbench::cpu;

void lsd_radix(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
               std::uint64_t n) {
  cpu::DigitCounts counts{};
  cpu::count_digits(keys, n, counts);
  const cpu::RadixPlan plan = cpu::plan_radix_passes(counts, n);
  if (plan.count == 0) {
    std::copy(keys, keys + n, sorted);
    return;
  }
  // Ping-pong between `sorted` and the scratch space, starting so that the last pass ends in
  // `sorted`; the first pass reads the input itself.
  const std::uint32_t* source = keys;
  std::uint32_t* target = plan.count % 2 == 1 ? sorted : scratch;
  for (int step = 0; step < plan.count; ++step) {
    const int pass = plan.passes[step];
    std::uint64_t offsets[cpu::kRadixBuckets];
    std::uint64_t running = 0;
    for (int digit = 0; digit < cpu::kRadixBuckets; ++digit) {
      offsets[digit] = running;
      running += counts[pass][digit];
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint32_t key = source[i];
      target[offsets[cpu::radix_digit(key, pass)]++] = key;
    }
    source = target;
    target = target == sorted ? scratch : sorted;
  }
}

void sort_lsd_radix(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, lsd_radix);
}

void sort_std_sort(plugbench::sdk::Call& call) {
  const auto* keys = call.input<std::uint32_t>(0);
  auto* sorted = call.output<std::uint32_t>(0);
  const std::uint64_t n = call.n();
  std::copy(keys, keys + n, sorted);
  std::sort(sorted, sorted + n);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix",
                  .description = "LSD radix, 8-bit digits, passes with one digit value skipped",
                  .run = sort_lsd_radix,
                  .workspace = cpu::radix_workspace});
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "std_sort",
                  .description = "copy, then std::sort",
                  .run = sort_std_sort});
