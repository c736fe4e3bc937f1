// show_command.cpp: the show subcommand: reads results files back and prints their tables.
#include "analyze/show_command.hpp"

#include "analyze/crossover.hpp"
#include "analyze/rank_spread.hpp"
#include "cli/subcommand_options.hpp"
#include "cli/usage_error.hpp"
#include "record/machine_facts.hpp"
#include "record/rank_table.hpp"
#include "record/report_table.hpp"
#include "record/results_json.hpp"
#include "record/results_reader.hpp"
#include "record/text_table.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct ShowOptions {
  std::vector<std::string> files;
  OutputFormat format = OutputFormat::console;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  bool help = false;
};

po::options_description describe_show_options(ShowOptions& o) {
  po::options_description options("options");
  options.add_options()(
      "format",
      po::value<std::string>()->default_value("console")->notifier(
          [&o](const std::string& format) { o.format = parse_output_format(format); }),
      "console, md (markdown) or csv (a line per cell, with the file as the first column; the "
      "rest goes to stderr)")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")("help,h", "this help");
  return options;
}

std::string show_usage() {
  ShowOptions unused;
  std::ostringstream text;
  text << "usage: harness show FILE.json [MORE.json ...]\n\n"
          "Prints results files the way their runs printed them: which machine, build and "
          "command made the file, a table per problem (time, GB/s, % of peak, speedup, "
          "verified), the summary line and the crossover. Nothing is run or measured.\n\n"
       << describe_show_options(unused)
       << "\nexit codes: 0 shown, 2 usage error or a file that is not a readable results file (not "
          "a regular file, larger than --max-file-mib, not JSON, or not a results file)\n";
  return text.str();
}

ShowOptions parse_show_options(int argc, const char* const* argv) {
  ShowOptions o;
  po::options_description visible = describe_show_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "show");
  o.help = values.count("help") > 0;
  if (!o.help && o.files.empty()) throw UsageError("show needs a results file (or more)");
  if (o.max_file_mib < 1 || o.max_file_mib > kMaxFileMibLimit) {
    throw UsageError("--max-file-mib must be from 1 to " + std::to_string(kMaxFileMibLimit));
  }
  return o;
}

// The cells of one problem, in the order the run measured them.
struct StoredProblem {
  std::string workload;
  std::string distribution;
  Shape shape;
  std::vector<CellResult> cells;
};

// Cells grouped by problem, problems in the order of their first cell.
std::vector<StoredProblem> problems_of(const ResultsFile& file) {
  std::vector<StoredProblem> problems;
  for (CellResult& cell : cells_of(file)) {
    auto same_problem = [&cell](const StoredProblem& p) {
      return p.workload == cell.workload && p.distribution == cell.distribution &&
             p.shape == cell.shape;
    };
    auto it = std::find_if(problems.begin(), problems.end(), same_problem);
    if (it == problems.end()) {
      problems.push_back({cell.workload, cell.distribution, cell.shape, {}});
      it = problems.end() - 1;
    }
    it->cells.push_back(std::move(cell));
  }
  return problems;
}

TextTable run_table(const ResultsFile& file) {
  TextTable table;
  table.title = "results file: " + file.path;
  table.columns = {{"", "fact", true}, {"", "value", true}};
  for (const auto& [fact, value] : machine_facts(file.document)) {
    if (!value.empty()) table.rows.push_back({{fact, value}, ""});
  }
  std::string command = text_at(file.document, "/context/command_line");
  if (!command.empty()) table.rows.push_back({{"command", command}, ""});
  if (file.document.value("complete", true) == false) {
    std::string why = "no: stopped before the end";
    if (std::optional<double> signal = number_at(file.document, "/interrupted_by_signal")) {
      why += " (signal " + number_text(*signal, "%.0f") + ")";
    }
    table.rows.push_back({{"complete", why + "; the cells it finished are shown"}, ""});
  }
  return table;
}

void show_file(const ResultsFile& file, const std::vector<StoredProblem>& problems,
               OutputFormat format, TableWriter& tables) {
  bool csv = format == OutputFormat::csv;
  // As in a run: with CSV, stdout holds the cells alone.
  std::ostream& text = csv ? std::cerr : std::cout;
  OutputFormat text_format = csv ? OutputFormat::console : format;
  if (!csv) {
    TableWriter(text, text_format).write(run_table(file));
    text << "\n";
  }
  std::string baseline = text_at(file.document, "/context/settings/baseline");
  // A run of several ranks: each problem as the spread over its ranks, and the slow ranks.
  const bool several_ranks = file.document.contains("/context/mpi"_json_pointer);
  const double threshold =
      number_at(file.document, "/context/settings/outlier_threshold").value_or(0.10);
  std::map<int, std::string> hosts;
  if (several_ranks) {
    for (const nlohmann::json& rank : file.document["context"]["mpi"]["ranks"]) {
      hosts[rank.value("rank", 0)] = rank.value("host", "");
    }
  }
  std::vector<CellResult> all_cells;
  std::vector<RankSpread> all_spreads;
  for (const StoredProblem& problem : problems) {
    TextTable table;
    if (several_ranks) {
      std::vector<RankSpread> spreads = spread_over_ranks(problem.cells, threshold);
      table =
          rank_spread_table(problem.workload, problem.distribution, problem.shape, spreads, hosts);
      all_spreads.insert(all_spreads.end(), spreads.begin(), spreads.end());
    } else {
      table = problem_table(problem.workload, problem.distribution, problem.shape, problem.cells,
                            baseline.empty() ? "the baseline" : baseline);
    }
    table.context.insert(table.context.begin(), {"file", file.path});
    tables.write(table);
    all_cells.insert(all_cells.end(), problem.cells.begin(), problem.cells.end());
  }
  text << "\n" << cell_summary(all_cells) << "\n";
  if (several_ranks) report_slow_ranks(all_spreads, hosts, text);
  report_crossover(several_ranks ? collapse_ranks(all_cells) : all_cells, text, text_format);
}

}  // namespace

int run_show(int argc, const char* const* argv) {
  ShowOptions options;
  try {
    options = parse_show_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness show: " << e.what() << "\n";
    return kShowInputError;
  }
  if (options.help) {
    std::cout << show_usage();
    return kShowDone;
  }
  // Every file is read before anything is printed: a bad one is reported alone, not after pages.
  std::vector<ResultsFile> files;
  std::vector<std::vector<StoredProblem>> problems;
  try {
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
      problems.push_back(problems_of(files.back()));
    }
  } catch (const ResultsFileError& e) {
    std::cerr << "harness show: " << e.what() << "\n";
    return kShowInputError;
  }
  TableWriter tables(std::cout, options.format);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i > 0 && options.format != OutputFormat::csv) std::cout << "\n";
    show_file(files[i], problems[i], options.format, tables);
  }
  return kShowDone;
}

}  // namespace plugbench
