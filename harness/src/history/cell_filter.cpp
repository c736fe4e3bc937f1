// cell_filter.cpp: parsing a history command's cell filter.
#include "history/cell_filter.hpp"

#include "base/usage_error.hpp"

#include <set>

namespace plugbench {

CellFilter parse_cell_filter(const std::string& text) {
  static const std::set<std::string> keys = {"workload", "distribution", "size",
                                             "plugin",   "variant",      "machine"};
  CellFilter filter;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    const std::string term = text.substr(begin, end - begin);
    const std::size_t equals = term.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == term.size()) {
      throw UsageError("filter term '" + term +
                       "' is not KEY=VALUE (e.g. workload=reduce,plugin=openmp,size=2^20)");
    }
    const std::string key = term.substr(0, equals);
    if (key == "n") {
      filter.fields["size"] = term.substr(equals + 1);
    } else if (!keys.count(key)) {
      throw UsageError("unknown filter key '" + key +
                       "' (keys: workload, distribution, size, plugin, variant, machine)");
    } else {
      filter.fields[key] = term.substr(equals + 1);
    }
    begin = end + 1;
  }
  return filter;
}

}  // namespace plugbench
