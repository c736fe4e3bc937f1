// cell_filter.hpp: which cells a history command looks at, from text such as
// "workload=reduce,plugin=openmp,n=2^20": each key named at most once, values matched exactly.
#pragma once

#include <map>
#include <string>

namespace plugbench {

struct CellFilter {
  // workload, distribution, size (n as a number or the size as written, "2^20"), plugin,
  // variant, machine (the host name).
  std::map<std::string, std::string> fields;
};

// "" is every cell. Throws UsageError naming an unknown key or a term without '='.
CellFilter parse_cell_filter(const std::string& text);

}  // namespace plugbench
