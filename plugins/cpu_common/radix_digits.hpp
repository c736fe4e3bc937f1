// radix_digits.hpp: the digit layout of the host LSD radix sorts (four 8-bit digits of a uint32)
// and the choice of which passes to run.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace plugbench::cpu {

constexpr int kRadixBits = 8;
constexpr int kRadixBuckets = 1 << kRadixBits;
constexpr int kRadixPasses = 32 / kRadixBits;

// Key counts per digit value, one row per pass (pass p sorts by bits [8p, 8p + 8)).
using DigitCounts = std::array<std::array<std::uint64_t, kRadixBuckets>, kRadixPasses>;

// Scratch space for the ping-pong between passes: n keys.
inline std::uint64_t radix_workspace(void*, const pb_problem& problem) {
  return problem.n * sizeof(std::uint32_t);
}

// The workspace as n scratch keys; refuses a workspace smaller than radix_workspace asked for.
inline std::uint32_t* radix_scratch(const plugbench::sdk::Call& call) {
  if (call.workspace_bytes() < call.n() * sizeof(std::uint32_t)) {
    throw plugbench::sdk::Failure(PB_ERROR, "sort: workspace of " +
                                                std::to_string(call.workspace_bytes()) +
                                                " bytes is smaller than n keys");
  }
  return call.workspace<std::uint32_t>();
}

// Runs sort(keys, sorted, scratch, n) on the call's n keys, its output and its scratch space;
// n <= 1 keys are only copied to the output.
template <class Sort>
void run_radix_sort(const plugbench::sdk::Call& call, Sort&& sort) {
  const auto* keys = call.input<std::uint32_t>(0);
  auto* sorted = call.output<std::uint32_t>(0);
  const std::uint64_t n = call.n();
  if (n <= 1) {
    std::copy(keys, keys + n, sorted);
    return;
  }
  sort(keys, sorted, radix_scratch(call), n);
}

inline unsigned radix_digit(std::uint32_t key, int pass) {
  return (key >> (pass * kRadixBits)) & (kRadixBuckets - 1);
}

// Adds the digits of keys[0, count) for every pass to `counts`.
inline void count_digits(const std::uint32_t* keys, std::uint64_t count, DigitCounts& counts) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint32_t key = keys[i];
    for (int pass = 0; pass < kRadixPasses; ++pass) ++counts[pass][radix_digit(key, pass)];
  }
}

// The passes worth running: a pass whose digit is the same for all n keys would copy them in the
// same order, so it is left out (all-equal keys, small values, few distinct values). Digit counts
// do not change under permutation, so the counts of the input decide for every pass.
struct RadixPlan {
  std::array<int, kRadixPasses> passes{};
  int count = 0;
};

inline RadixPlan plan_radix_passes(const DigitCounts& totals, std::uint64_t n) {
  RadixPlan plan;
  for (int pass = 0; pass < kRadixPasses; ++pass) {
    bool one_digit = false;
    for (std::uint64_t keys : totals[pass]) one_digit = one_digit || keys == n;
    if (!one_digit) plan.passes[plan.count++] = pass;
  }
  return plan;
}

}  // namespace plugbench::cpu
