// checked_number.cpp: decimal numbers only, finite and in range, so that nan, inf or 1e-300
// never reach a deadline, a budget or the JSON of a worker's request.
#include "base/checked_number.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace plugbench {
namespace {

std::string bound_text(double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", value);
  return std::string(text) + (*unit ? std::string(" ") + unit : std::string());
}

// strtod also reads nan, inf, hexadecimal and leading blanks: a plain number is digits, one dot,
// an exponent and a sign.
bool plain_decimal(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<double> checked_number(const std::string& text, const NumberRule& rule,
                                     std::string& why) {
  // An overflow reads as infinity; an underflow as 0 or a tiny number, which the range decides.
  char* end = nullptr;
  const double value = plain_decimal(text) ? std::strtod(text.c_str(), &end) : NAN;
  if (!end || *end != '\0' || !std::isfinite(value)) {
    why = "is not a finite decimal number";
    return std::nullopt;
  }
  why = number_problem(value, rule);
  if (!why.empty()) return std::nullopt;
  return value;
}

std::string number_problem(double value, const NumberRule& rule) {
  if (!std::isfinite(value)) return "is not a finite number";
  if (rule.min_excluded ? value <= rule.min : value < rule.min) {
    return std::string("must be ") + (rule.min_excluded ? "above " : "at least ") +
           bound_text(rule.min, rule.unit);
  }
  if (rule.max_excluded ? value >= rule.max : value > rule.max) {
    return std::string("must be ") + (rule.max_excluded ? "below " : "at most ") +
           bound_text(rule.max, rule.unit);
  }
  return "";
}

}  // namespace plugbench
