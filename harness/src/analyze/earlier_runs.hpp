// earlier_runs.hpp: compare --history: each compared cell's earlier runs in the results history,
// on the machine its file was made on, so that a test with one run a side knows how much runs of
// that cell differ there.
#pragma once

#include "analyze/compare_cells.hpp"
#include "results/results_reader.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace plugbench {

class HistoryDatabase;

// Earlier runs found on each side's machine, whatever cells they hold.
struct EarlierRunCounts {
  std::size_t base = 0;
  std::size_t current = 0;
};

// The earlier runs of each cell of both files: the history's runs of the same machine (host, CPU
// and GPUs), each cell that ended ok; a run made on the machine of either compared file at the same
// time is that file, added to the history, and is left out. Throws HistoryError.
HistorySpread earlier_runs(HistoryDatabase& history, const ResultsFile& base,
                           const std::vector<CellResult>& base_cells, const ResultsFile& current,
                           const std::vector<CellResult>& current_cells, EarlierRunCounts& counts);

}  // namespace plugbench
