// cell_selection.cpp: filters over the cells of results files, for compare.
#include "analyze/cell_selection.hpp"

#include "cli/options.hpp"
#include "cli/usage_error.hpp"
#include "plan/sizes.hpp"

#include <algorithm>
#include <tuple>

namespace plugbench {
namespace {

using CellIdentity = std::tuple<std::string, std::string, std::uint64_t, std::string, std::string>;

CellIdentity identity_of(const CellResult& cell) {
  return {cell.workload, cell.distribution, cell.shape.n, cell.plugin, cell.variant};
}

std::set<std::string> names_in(const std::string& list, const std::string& option) {
  if (list.empty()) return {};
  std::vector<std::string> names = split_list(list, option);
  return {names.begin(), names.end()};
}

void keep_if_in(std::vector<CellResult>& cells, const std::set<CellIdentity>& wanted) {
  cells.erase(
      std::remove_if(cells.begin(), cells.end(),
                     [&](const CellResult& cell) { return wanted.count(identity_of(cell)) == 0; }),
      cells.end());
}

}  // namespace

CellSelection cell_selection(const std::string& plugins, const std::string& workloads,
                             const std::string& sizes, bool matched_only) {
  CellSelection selection;
  selection.plugins = names_in(plugins, "plugins");
  selection.workloads = names_in(workloads, "workload");
  if (!sizes.empty()) {
    try {
      for (const SizeRequest& size : parse_sizes(sizes)) selection.sizes.insert(size.n);
    } catch (const SizeError& e) {
      throw UsageError(std::string("-s: ") + e.what());
    }
  }
  selection.matched_only = matched_only;
  return selection;
}

std::vector<CellResult> selected_cells(std::vector<CellResult> cells,
                                       const CellSelection& selection) {
  cells.erase(
      std::remove_if(
          cells.begin(), cells.end(),
          [&](const CellResult& cell) {
            return (!selection.plugins.empty() && !selection.plugins.count(cell.plugin)) ||
                   (!selection.workloads.empty() && !selection.workloads.count(cell.workload)) ||
                   (!selection.sizes.empty() && !selection.sizes.count(cell.shape.n));
          }),
      cells.end());
  return cells;
}

void keep_matched(std::vector<CellResult>& base, std::vector<CellResult>& current) {
  std::set<CellIdentity> in_base, in_current;
  for (const CellResult& cell : base) in_base.insert(identity_of(cell));
  for (const CellResult& cell : current) in_current.insert(identity_of(cell));
  keep_if_in(base, in_current);
  keep_if_in(current, in_base);
}

}  // namespace plugbench
