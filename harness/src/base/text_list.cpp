// text_list.cpp: splitting an option's comma list.
#include "base/text_list.hpp"

#include "base/usage_error.hpp"

#include <boost/algorithm/string.hpp>

namespace plugbench {

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> items;
  boost::split(items, text, boost::is_any_of(","));
  for (std::string& item : items) {
    boost::trim(item);
    if (item.empty()) throw UsageError("--" + option + " '" + text + "' has an empty entry");
  }
  return items;
}

}  // namespace plugbench
