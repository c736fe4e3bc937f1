// text_list.hpp: lists of names: joined for messages and tables, split from an option's text.
#pragma once

#include <string>
#include <vector>

namespace plugbench {

// "a, b, c" (or with another separator).
inline std::string join(const std::vector<std::string>& names,
                        const std::string& separator = ", ") {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

// Splits "a,b , c" into {"a","b","c"}; throws UsageError on an empty entry, naming --option.
std::vector<std::string> split_list(const std::string& text, const std::string& option);

}  // namespace plugbench
