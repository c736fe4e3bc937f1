// checked_number.hpp: the one parser for numbers a user gives (options, environment variables):
// the whole text a finite number within the rule's range, or a message saying what is wrong.
#pragma once

#include <optional>
#include <string>

namespace plugbench {

struct NumberRule {
  double min = 0;
  double max = 0;
  bool min_excluded = false;  // (min, max] rather than [min, max]
  bool max_excluded = false;
  const char* unit = "";  // "s", or "" for a plain number or fraction
};

// The number `text` spells, or nullopt with `why` ("is not a finite number", "must be at least
// 0.5 s") when it is not a plain decimal number (nan, inf, 0x1p3, trailing words, a number beyond
// a double) or is outside the rule's range.
std::optional<double> checked_number(const std::string& text, const NumberRule& rule,
                                     std::string& why);

// The same rule for a number already read (by boost, say): why it breaks the rule, or "".
std::string number_problem(double value, const NumberRule& rule);

}  // namespace plugbench
