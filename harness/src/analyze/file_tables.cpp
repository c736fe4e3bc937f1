// file_tables.cpp: the tables of one stored results file.
#include "analyze/file_tables.hpp"

#include "analyze/distributed_table.hpp"
#include "analyze/rank_spread.hpp"
#include "analyze/rank_table.hpp"
#include "analyze/report_table.hpp"
#include "ranks/rank_settings.hpp"
#include "render/figure_text.hpp"
#include "results/machine_facts.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace plugbench {
namespace {

TextTable run_table(const ResultsFile& file) {
  TextTable table;
  table.title = "results file: " + file.path;
  table.columns = {{"", "fact", true}, {"", "value", true}};
  for (const auto& [fact, value] : machine_facts(file.context)) {
    if (!value.empty()) table.rows.push_back({{fact, value}, ""});
  }
  const std::string& command = file.context.command_line;
  if (!command.empty()) table.rows.push_back({{"command", command}, ""});
  if (!file.context.complete) {
    std::string why = "no: stopped before the end";
    if (const std::optional<double>& signal = file.context.interrupted_by_signal) {
      why += " (signal " + number_text(*signal, "%.0f") + ")";
    }
    table.rows.push_back({{"complete", why + "; the cells it finished are shown"}, "", true});
  }
  return table;
}

}  // namespace

std::vector<StoredProblem> problems_of(std::vector<CellResult> cells) {
  std::vector<StoredProblem> problems;
  // An index, not a search per cell: a file of 200k problems takes a moment, not minutes.
  using Key = std::tuple<std::string, std::string, std::uint64_t, std::uint64_t, std::uint64_t>;
  std::map<Key, std::size_t> index;
  for (CellResult& cell : cells) {
    const Key key{cell.workload, cell.distribution, cell.shape.n, cell.shape.width,
                  cell.shape.height};
    auto [found, added] = index.try_emplace(key, problems.size());
    if (added) problems.push_back({cell.workload, cell.distribution, cell.shape, {}});
    problems[found->second].cells.push_back(std::move(cell));
  }
  return problems;
}

bool has_several_ranks(const ResultsFile& file) {
  return file.context.mpi.has_value();
}

FileTables file_tables(const ResultsFile& file, const std::vector<StoredProblem>& problems) {
  FileTables tables;
  tables.run = run_table(file);
  const std::string& baseline = file.context.settings.baseline;
  const bool several_ranks = has_several_ranks(file);
  const double threshold =
      file.context.settings.outlier_threshold.value_or(RankSettings{}.outlier_threshold);
  std::map<int, std::string> hosts;
  if (file.context.mpi) {
    for (const RankFacts& rank : file.context.mpi->ranks) {
      if (rank.rank) hosts[*rank.rank] = rank.host;
    }
  }
  std::vector<CellResult> all_cells;
  std::vector<RankSpread> all_spreads;
  for (const StoredProblem& problem : problems) {
    const bool distributed =
        !problem.cells.empty() && problem.cells.front().distributed.has_value();
    if (distributed) {
      // As the run printed it: the job's time split and scaling, no slow ranks.
      tables.problems.push_back(
          distributed_table(problem.workload, problem.distribution, problem.shape, problem.cells));
    } else if (several_ranks) {
      std::vector<RankSpread> spreads = spread_over_ranks(problem.cells, threshold);
      tables.problems.push_back(
          rank_spread_table(problem.workload, problem.distribution, problem.shape, spreads, hosts));
      all_spreads.insert(all_spreads.end(), spreads.begin(), spreads.end());
    } else {
      tables.problems.push_back(problem_table(problem.workload, problem.distribution, problem.shape,
                                              problem.cells,
                                              baseline.empty() ? "the baseline" : baseline));
    }
    all_cells.insert(all_cells.end(), problem.cells.begin(), problem.cells.end());
  }
  // A cut run's file says how many cells it set out to measure: "3 of 12 cells", as it printed.
  tables.summary = cell_summary(all_cells, file.context.planned_cells.value_or(0));
  if (std::string busy = busy_summary(all_cells); !busy.empty()) {
    tables.summary += "\n" + busy.substr(0, busy.size() - 1);
  }
  if (several_ranks) {
    std::ostringstream slow;
    report_slow_ranks(all_spreads, hosts, slow);
    tables.slow_ranks = slow.str();
  }
  tables.crossovers = find_crossovers(several_ranks ? collapse_ranks(all_cells) : all_cells);
  return tables;
}

}  // namespace plugbench
