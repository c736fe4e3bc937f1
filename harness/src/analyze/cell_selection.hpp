// cell_selection.hpp: the cells of results files that compare looks at: some plugins, workloads or
// sizes (-p, -w, -s as a run takes them), and with --matched-only only cells both files hold, so
// that two machines' files with different plugin sets compare on what they share.
#pragma once

#include "measure/cell_result.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace plugbench {

struct CellSelection {
  std::set<std::string> plugins;    // empty: every plugin
  std::set<std::string> workloads;  // empty: every workload
  std::set<std::uint64_t> sizes;    // element counts; empty: every size
  bool matched_only = false;
  bool any() const { return !plugins.empty() || !workloads.empty() || !sizes.empty(); }
};

// Reads -p, -w and -s values (comma lists; sizes as a run's -s takes them). Throws UsageError.
CellSelection cell_selection(const std::string& plugins, const std::string& workloads,
                             const std::string& sizes, bool matched_only);

// The cells of `cells` that the selection's plugins, workloads and sizes keep.
std::vector<CellResult> selected_cells(std::vector<CellResult> cells,
                                       const CellSelection& selection);

// With --matched-only: `base` and `current` each keep only the cells (workload, distribution,
// size, plugin, variant) that the other holds too.
void keep_matched(std::vector<CellResult>& base, std::vector<CellResult>& current);
// The same over several files (report --matched-only): each keeps the cells every one holds.
void keep_matched_in_all(std::vector<std::vector<CellResult>*> files);

// What the selection keeps, in words ("plugins openmp; sizes 1048576; only cells every file
// holds"), or "" where it keeps every cell.
std::string selection_text(const CellSelection& selection);

}  // namespace plugbench
