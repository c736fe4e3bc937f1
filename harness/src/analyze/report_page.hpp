// report_page.hpp: the page `harness report` writes for results files: per file, its machine and
// build, per workload the tables `harness show` prints and charts of the rate and the speedup
// against size, the crossover; then each later file compared to the first, as `harness compare`
// compares them; then, when asked, trends from the results history, as `harness history trend`
// shows them.
#pragma once

#include "analyze/compare_cells.hpp"
#include "history/history_database.hpp"
#include "results/results_reader.hpp"

#include <string>
#include <vector>

namespace plugbench {

// One trend of the page's history section: the cells of `database` that `filter` (as written on
// the command line) matched, as HistoryDatabase::cells returns them.
struct HistoryTrend {
  std::string database;
  std::string filter;
  std::vector<CellPoint> points;
};

// report --history with a second file: each comparison judged over its cells' earlier runs in
// `database` (opened by the caller, read only), as compare --history judges one run a side. No
// database: over the files' samples, as compare without --history.
struct ComparisonHistory {
  HistoryDatabase* database = nullptr;
  std::string path;
};

// The page as one self-contained HTML document; with `trends`, a history section at its end (a
// chart and the tables of each). Throws ResultsFileError for a cell that cannot be read.
// `selection`: what -p/-w/-s/--matched-only kept, in words ("" for every cell), said at the top.
std::string report_page(const std::vector<ResultsFile>& files, const CompareSettings& settings,
                        const std::vector<HistoryTrend>& trends = {},
                        const std::string& selection = "", const ComparisonHistory& history = {});

}  // namespace plugbench
