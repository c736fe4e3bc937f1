// figure_text.cpp: numbers as the tables, pages and charts print them.
#include "render/figure_text.hpp"

#include <cmath>
#include <cstdio>

namespace plugbench {

std::string fixed_text(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_number(const std::optional<double>& value, int decimals) {
  return value && std::isfinite(*value) ? fixed_text(*value, decimals) : "";
}

std::string format_rate(const std::optional<double>& rate) {
  return format_number(rate, rate && *rate < 10 ? 2 : 1);
}

std::string format_ms(const std::optional<double>& ms) {
  if (!ms || !std::isfinite(*ms)) return "";
  double magnitude = std::fabs(*ms);
  int decimals = magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4;
  return fixed_text(*ms, decimals);
}

std::string number_text(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace plugbench
