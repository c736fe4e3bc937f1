// earlier_runs.hpp: compare --history: each compared cell's earlier runs in the results history,
// on the machine its file was made on, so that a test with one run a side knows how much runs of
// that cell differ there.
#pragma once

#include "analyze/compare_cells.hpp"
#include "results/results_reader.hpp"

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace plugbench {

class HistoryDatabase;

// The earlier runs of one side's machine: those kept, whatever cells they hold, and those left out
// because they measured something else than the compared file did.
struct EarlierRunsFound {
  std::size_t kept = 0;
  std::size_t other_settings = 0;  // runs left out whole: a setting that changes times
  std::set<std::string> settings;  // differed ("cache", "order", ...)
  std::size_t other_threads = 0;   // runs of which some plugins' cells were left out:
  std::set<std::string> plugins;   // these host plugins ran on other CPUs or threads
};

struct EarlierRunCounts {
  EarlierRunsFound base;
  EarlierRunsFound current;
};

// What was left out, for the heading ("; left out: 1 run made with other settings (cache)"), or
// "" where nothing was.
std::string left_out_text(const EarlierRunsFound& found);

// The earlier runs of each cell of both files: the history's runs of the same machine (host, CPU
// and GPUs), each cell that ended ok; a run made on the machine of either compared file at the same
// time is that file, added to the history, and is left out. So is a run made with another setting
// that changes what a time is (cache, host memory, order, isolation, device, warm-up, MPI sync),
// and a host plugin's cells of a run where it had other CPUs or threads: their times would pass
// for the spread of runs. Throws HistoryError.
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
