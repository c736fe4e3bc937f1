// verify_util.hpp: pieces several verifiers share: the output layout check, exact comparisons.
// Header-only on purpose: every .cpp in this folder is a workload.
#pragma once

#include "workload.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plugbench {

// A floating-point value for a detail sentence, with enough digits to show a difference that a
// tolerance of a few parts per million cares about.
inline std::string format_real(double value, int significant_digits = 10) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", significant_digits, value);
  return text;
}

// |a - b| for any two int64 values (their difference may not fit in an int64).
inline std::uint64_t absolute_difference(std::int64_t a, std::int64_t b) {
  return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
               : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
}

// A failed Verification when `outputs` are not the arrays the problem declares (another number of
// arrays, an element type or count that differs); nothing when they are, so that the caller may
// read them as the declared types.
inline std::optional<Verification> check_output_layout(const ProblemData& problem,
                                                       const std::vector<HostArray>& outputs,
                                                       const std::string& compared) {
  Verification failed;
  failed.compared = compared;
  failed.error_measure = "output arrays with a wrong layout";
  failed.tolerance = 0;
  if (outputs.size() != problem.outputs.size()) {
    failed.error = 1;
    failed.detail = "expected " + std::to_string(problem.outputs.size()) + " output arrays, got " +
                    std::to_string(outputs.size());
    return failed;
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputSpec& spec = problem.outputs[i];
    const HostArray& got = outputs[i];
    if (got.type() == spec.type && got.count() == spec.count) continue;
    if (failed.error == 0) {
      failed.detail = "output '" + spec.name + "' holds " + std::to_string(got.count()) + " " +
                      element_name(got.type()) + ", expected " + std::to_string(spec.count) + " " +
                      element_name(spec.type);
    }
    ++failed.error;
  }
  if (failed.error == 0) return std::nullopt;
  return failed;
}

// How many positions hold different values in two arrays of the same length, and the first one.
struct Mismatches {
  std::uint64_t count = 0;
  std::uint64_t first = 0;  // meaningful when count > 0
};

template <class T>
Mismatches find_mismatches(std::span<const T> expected, std::span<const T> got) {
  Mismatches found;
  const std::size_t length = std::min(expected.size(), got.size());
  for (std::size_t i = 0; i < length; ++i) {
    if (expected[i] == got[i]) continue;
    if (found.count == 0) found.first = i;
    ++found.count;
  }
  return found;
}

// Exact comparison of two integer arrays of the same length. `item` / `items` name an element in
// the detail sentence ("bin" / "bins"); error counts the differing ones.
template <class T>
Verification compare_exactly(std::string compared, const std::string& item,
                             const std::string& items, std::span<const T> expected,
                             std::span<const T> got) {
  const Mismatches mismatches = find_mismatches(expected, got);
  Verification result;
  result.compared = std::move(compared);
  result.error_measure = "mismatched " + items;
  result.error = static_cast<double>(mismatches.count);
  result.tolerance = 0;
  result.passed = mismatches.count == 0;
  const std::string total = std::to_string(expected.size());
  if (result.passed) {
    result.detail = "all " + total + " " + items + " match";
  } else {
    const std::uint64_t i = mismatches.first;
    result.detail = std::to_string(mismatches.count) + " of " + total + " " + items +
                    " differ; first: " + item + " " + std::to_string(i) + " expected " +
                    std::to_string(expected[i]) + ", got " + std::to_string(got[i]);
  }
  return result;
}

}  // namespace plugbench
