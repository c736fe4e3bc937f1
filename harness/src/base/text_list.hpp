// text_list.hpp: lists of names joined for messages and tables.
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

}  // namespace plugbench
