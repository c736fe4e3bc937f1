// figure_text.hpp: numbers as the tables, pages and charts print them.
#pragma once

#include <optional>
#include <string>

namespace plugbench {

// `value` with `decimals` decimals, whatever it is ("nan", "inf" included).
std::string fixed_text(double value, int decimals);
// "1.234" with about four significant digits; "" (no value) for none.
std::string format_ms(const std::optional<double>& ms);
// `value` with `decimals` decimals; "" for none or a number that is not finite.
std::string format_number(const std::optional<double>& value, int decimals);
// A rate (GB/s, G iterations/s): two decimals below 10, one above.
std::string format_rate(const std::optional<double>& rate);
// `value` through printf's `format` ("%.0f", "%g").
std::string number_text(double value, const char* format);

}  // namespace plugbench
