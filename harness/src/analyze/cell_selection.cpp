// cell_selection.cpp: filters over the cells of results files, for compare.
#include "analyze/cell_selection.hpp"

#include "base/text_list.hpp"
#include "base/usage_error.hpp"
#include "plan/sizes.hpp"

#include <algorithm>
#include <sstream>
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

void keep_matched_in_all(std::vector<std::vector<CellResult>*> files) {
  if (files.empty()) return;
  std::set<CellIdentity> common;
  for (const CellResult& cell : *files.front()) common.insert(identity_of(cell));
  for (std::size_t i = 1; i < files.size(); ++i) {
    std::set<CellIdentity> here;
    for (const CellResult& cell : *files[i]) {
      if (common.count(identity_of(cell))) here.insert(identity_of(cell));
    }
    common.swap(here);
  }
  for (std::vector<CellResult>* cells : files) keep_if_in(*cells, common);
}

std::string selection_text(const CellSelection& selection) {
  std::vector<std::string> parts;
  const auto listed = [](const auto& names) {
    std::string text;
    for (const auto& name : names) {
      std::ostringstream item;
      item << name;
      text += (text.empty() ? "" : ", ") + item.str();
    }
    return text;
  };
  if (!selection.plugins.empty()) parts.push_back("plugins " + listed(selection.plugins));
  if (!selection.workloads.empty()) parts.push_back("workloads " + listed(selection.workloads));
  if (!selection.sizes.empty()) parts.push_back("sizes " + listed(selection.sizes));
  if (selection.matched_only) parts.push_back("only cells every file holds");
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace plugbench
