// earlier_runs.hpp: compare --history: each compared cell's earlier runs in the results history,
// on the machine its file was made on, so that a test with one run a side knows how much runs of
// that cell differ there.
#pragma once

#include "analyze/compare_cells.hpp"
#include "results/results_reader.hpp"

#include <cstddef>
#include <memory>
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

// Why `path` cannot be a history to judge over, as the end of a message ("--history PATH" + it), or
// "" where it is a file (whether it is a plugbench history, opening it says).
std::string history_path_problem(const std::string& path);

// Whether a file holds several MPI ranks: the history keeps rank 0's cells, so such a file is
// compared over its ranks' spread, never over the history.
bool holds_several_ranks(const ResultsFile& file);

// earlier_runs with the words a comparison's heading gives them ("4 earlier runs of this machine
// in PATH"), for compare --history and report --history alike. Throws HistoryError.
std::shared_ptr<const HistorySpread> described_spread(HistoryDatabase& history,
                                                      const std::string& path,
                                                      const ResultsFile& base,
                                                      const std::vector<CellResult>& base_cells,
                                                      const ResultsFile& current,
                                                      const std::vector<CellResult>& current_cells);

}  // namespace plugbench
