// report_command.cpp: the report subcommand: its options, the files read, the page written.
#include "cli/report_command.hpp"

#include "analyze/cell_selection.hpp"
#include "analyze/earlier_runs.hpp"
#include "analyze/report_page.hpp"
#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "base/text_list.hpp"
#include "base/usage_error.hpp"
#include "cli/subcommand_options.hpp"
#include "history/cell_filter.hpp"
#include "history/history_database.hpp"
#include "history/history_location.hpp"
#include "render/figure_text.hpp"
#include "results/results_json.hpp"
#include "results/results_reader.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string out;
  CompareSettings settings;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  std::string history;                    // --history DB
  bool compare_over_history = false;      // --history named, with files to compare
  std::vector<std::string> trends;        // --trend FILTER, each a chart of the history section
  std::string plugins, workloads, sizes;  // -p, -w, -s: the cells the page shows
  bool matched_only = false;
  CellSelection selection;
  bool help = false;
};

po::options_description describe_report_options(ReportOptions& o) {
  po::options_description options("options");
  options.add_options()("out", po::value<std::string>(&o.out),
                        "the folder to write index.html into (made where missing)")(
      "threshold",
      po::value<double>(&o.settings.threshold)
          ->default_value(CompareSettings{}.threshold,
                          number_text(CompareSettings{}.threshold, "%g")),
      "as in harness compare: medians within this fraction of each other are the same")(
      "alpha",
      po::value<double>(&o.settings.alpha)
          ->default_value(CompareSettings{}.alpha, number_text(CompareSettings{}.alpha, "%g")),
      "as in harness compare: significance level of the Mann-Whitney U test")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")(
      "trend", po::value<std::vector<std::string>>(&o.trends)->composing(),
      "add a history section: a chart and tables of the cells this FILTER matches in the "
      "results history, as harness history trend shows them (repeat for more charts)")(
      "history", po::value<std::string>(&o.history),
      "the history database: --trend reads it (default as harness history's, "
      "$XDG_DATA_HOME/plugbench/history.sqlite, else ~/.local/share/plugbench/history.sqlite); "
      "named, it also judges each comparison over its cells' earlier runs, as harness compare "
      "--history does with one run a side")(
      "plugins,p", po::value<std::string>(&o.plugins),
      "only these plugins' cells, in the tables, the charts and the comparison (comma list)")(
      "workload,w", po::value<std::string>(&o.workloads),
      "only these workloads' cells (comma list)")(
      "sizes,s", po::value<std::string>(&o.sizes),
      "only cells of these sizes, written as a run's -s takes them (2^20,1M,7680x4320)")(
      "matched-only", po::bool_switch(&o.matched_only),
      "only cells that every file holds (two machines' files with different plugin sets)")(
      "help,h", "this help");
  return options;
}

std::string report_usage() {
  ReportOptions unused;
  std::ostringstream text;
  text << "usage: harness report FILE.json [MORE.json ...] --out DIR [--history DB] "
          "[--trend FILTER ...]\n\n"
          "Writes DIR/index.html: one page, readable offline (no script, nothing fetched), with "
          "each file's machine and build, its tables as harness show prints them, charts of "
          "GB/s and speedup against size per workload, and the CPU/GPU crossover; with more "
          "than one file, each later file compared with the first as harness compare does. A "
          "cell that did not run and verify is marked, never drawn as a figure. With --trend, a "
          "history section at the end: for each FILTER a chart of the matching cells' median "
          "over the runs of the results history, a line per cell and machine, and the table of "
          "the points (docs/history.md). See docs/exports.md.\n\n"
          "FILTER: KEY=VALUE[,KEY=VALUE...], keys workload, distribution, size (2^20 or "
          "1048576), plugin, variant, machine (host name); e.g. "
          "workload=reduce,plugin=openmp,size=2^20\n\n"
          "With --history DB and more than one file, each comparison is judged as harness "
          "compare FILE1 FILE --history DB judges it: each cell against the spread of its earlier "
          "runs on the same machine (docs/comparing-results.md).\n\n"
       << describe_report_options(unused)
       << "\nexit codes: 0 written, 2 usage error (an --out that cannot be a folder, refused "
          "before the page is made) or a file that is not a readable results file, "
          "or a --trend FILTER that matches no cell of the history, or -p/-w/-s/--matched-only "
          "that keep no cell of the files, or --history with a file of "
          "several MPI ranks, 4 the page could not be "
          "written, or the --history database cannot be used (absent, corrupt, newer schema, "
          "another program's: as harness history's exit 4)\n";
  return text.str();
}

ReportOptions parse_report_options(int argc, const char* const* argv) {
  ReportOptions o;
  po::options_description visible = describe_report_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "report");
  o.help = values.count("help") > 0;
  if (o.help) return o;
  if (o.files.empty()) throw UsageError("report needs a results file (or more)");
  if (o.out.empty()) throw UsageError("report needs --out DIR, the folder for index.html");
  check_max_file_mib(o.max_file_mib);
  if (std::string warning = check_compare_settings(o.settings); !warning.empty()) {
    std::cerr << "harness report: " << warning << "\n";
  }
  o.selection = cell_selection(o.plugins, o.workloads, o.sizes, o.matched_only);
  o.compare_over_history = !o.history.empty() && o.files.size() > 1;
  if (!o.history.empty() && o.trends.empty() && !o.compare_over_history) {
    throw UsageError(
        "--history needs --trend FILTER, the cells to chart from it, or a second file, "
        "compared with the first over the history's earlier runs");
  }
  for (const std::string& filter : o.trends) parse_cell_filter(filter);  // a bad one: now
  if (!o.trends.empty() && o.history.empty()) o.history = default_history_path();
  return o;
}

// Opens into `database`, read only, the history the comparisons are judged over (report --history
// with more than one file); returns the exit code that says why it cannot be: a file of several
// MPI ranks (the history keeps rank 0's cells) is exit 2, a history absent or unusable exit 4.
int open_comparison_history(const ReportOptions& o, const std::vector<ResultsFile>& files,
                            std::optional<HistoryDatabase>& database) {
  if (!o.compare_over_history) return kReportDone;
  for (const ResultsFile& file : files) {
    if (holds_several_ranks(file)) {
      std::cerr << "harness report: --history judges runs of one process; "
                << printable_text(file.path) << " holds several MPI ranks\n";
      return kReportInputError;
    }
  }
  if (const std::string problem = history_path_problem(o.history); !problem.empty()) {
    std::cerr << "harness report: --history " << printable_text(o.history) << problem << "\n";
    return kReportOutputError;
  }
  try {
    database.emplace(o.history, HistoryDatabase::ReadOnly{});
  } catch (const HistoryError& e) {
    std::cerr << "harness report: --history: " << printable_text(e.what()) << "\n";
    return kReportOutputError;
  }
  return kReportDone;
}

// Outcome of reading the --trend cells from the history.
struct TrendsRead {
  std::vector<HistoryTrend> trends;
  int exit_code = kReportDone;
};

// The cells of each --trend from --history. A history that is absent (never made here: a query must
// not make one) or cannot be used is exit 4, as harness history says it; a filter that matches no
// cell is exit 2, for a page without the chart asked for would pass for a good one.
TrendsRead read_trends(const ReportOptions& o) {
  TrendsRead read;
  if (o.trends.empty()) return read;
  std::error_code error;
  if (!std::filesystem::exists(o.history, error)) {
    std::cerr << "harness report: --history " << printable_text(o.history)
              << ": no history there (harness history add FILE... makes one; --history names "
                 "another)\n";
    read.exit_code = kReportOutputError;
    return read;
  }
  try {
    HistoryDatabase history(o.history);
    for (const std::string& filter : o.trends) {
      HistoryTrend trend{o.history, filter, history.cells(parse_cell_filter(filter))};
      if (trend.points.empty()) {
        std::cerr << "harness report: --trend '" << printable_text(filter)
                  << "' matches no cell in " << printable_text(o.history)
                  << " (harness history list shows the runs; no page written)\n";
        read.exit_code = kReportInputError;
        return read;
      }
      read.trends.push_back(std::move(trend));
    }
  } catch (const HistoryError& e) {
    std::cerr << "harness report: --history: " << printable_text(e.what()) << "\n";
    read.exit_code = kReportOutputError;
  }
  return read;
}

}  // namespace

int run_report(int argc, const char* const* argv) {
  ReportOptions options;
  try {
    options = parse_report_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness report: " << e.what() << "\n";
    return kReportInputError;
  }
  if (options.help) {
    std::cout << report_usage();
    return kReportDone;
  }
  std::string page;
  try {
    std::vector<ResultsFile> files;
    std::set<std::string> plugins_held, workloads_held;  // before the selection, to name them
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
      for (const CellResult& cell : files.back().cells) {
        plugins_held.insert(cell.plugin);
        workloads_held.insert(cell.workload);
      }
      files.back().cells = selected_cells(std::move(files.back().cells), options.selection);
    }
    const bool selected_some = std::any_of(
        files.begin(), files.end(), [](const ResultsFile& file) { return !file.cells.empty(); });
    if (options.selection.matched_only) {
      std::vector<std::vector<CellResult>*> cells;
      for (ResultsFile& file : files) cells.push_back(&file.cells);
      keep_matched_in_all(cells);
    }
    // A selection that keeps nothing of files that hold cells would make an empty page that
    // passes for a good one (a misspelt plugin): refused, naming what the files hold.
    const bool kept_none = std::all_of(files.begin(), files.end(),
                                       [](const ResultsFile& file) { return file.cells.empty(); });
    if (kept_none && selected_some) {
      std::cerr << "harness report: no cell is in every file (--matched-only): the files share no "
                   "cell"
                << (options.selection.any() ? " of those the selection keeps" : "")
                << "; no page written\n";
      return kReportInputError;
    }
    if (kept_none && !plugins_held.empty()) {
      std::cerr << "harness report: the selection ("
                << printable_text(selection_text(options.selection))
                << ") keeps no cell of the files, which hold plugins "
                << printable_text(join({plugins_held.begin(), plugins_held.end()}))
                << " and workloads "
                << printable_text(join({workloads_held.begin(), workloads_held.end()}))
                << "; no page written\n";
      return kReportInputError;
    }
    TrendsRead trends = read_trends(options);
    if (trends.exit_code != kReportDone) return trends.exit_code;
    std::optional<HistoryDatabase> history;
    if (const int code = open_comparison_history(options, files, history); code != kReportDone) {
      return code;
    }
    // The folder is made (or refused) before the page, as every output path is before the work;
    // after the files and the history were read, so that bad input leaves nothing behind.
    if (std::string problem = prepare_output_folder(options.out, "--out"); !problem.empty()) {
      std::cerr << "harness report: " << problem << "\n";
      return kReportInputError;
    }
    ComparisonHistory judged_over;
    if (history) judged_over = {&*history, options.history};
    page = report_page(files, options.settings, trends.trends, selection_text(options.selection),
                       judged_over);
  } catch (const ResultsFileError& e) {
    std::cerr << "harness report: " << printable_text(e.what()) << "\n";
    return kReportInputError;
  } catch (const HistoryError& e) {
    // A history that fails while it is read (corrupt past its header, locked too long).
    std::cerr << "harness report: --history: " << printable_text(e.what()) << "\n";
    return kReportOutputError;
  }
  const std::string path = (std::filesystem::path(options.out) / "index.html").string();
  try {
    write_text_atomically(page, path);
  } catch (const std::exception& e) {
    std::cerr << "harness report: " << printable_text(e.what()) << "\n";
    return kReportOutputError;
  }
  std::cerr << "harness report: wrote " << printable_text(path) << " (" << page.size()
            << " bytes)\n";
  return kReportDone;
}

}  // namespace plugbench
