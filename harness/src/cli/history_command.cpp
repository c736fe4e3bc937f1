// history_command.cpp: the history subcommands: options, then the database, then the tables.
#include "cli/history_command.hpp"

#include "analyze/compare_cells.hpp"
#include "base/atomic_file.hpp"
#include "base/output_check.hpp"
#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "base/usage_error.hpp"
#include "cli/subcommand_options.hpp"
#include "history/cell_filter.hpp"
#include "history/history_database.hpp"
#include "history/history_location.hpp"
#include "history/history_tables.hpp"
#include "history/memory_level.hpp"
#include "history/trend_chart.hpp"
#include "render/figure_text.hpp"
#include "render/text_table.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct HistoryOptions {
  std::string command;  // add, list, trend, machines, changes
  std::string database;
  std::vector<std::string> arguments;  // files for add, the filter for the others
  OutputFormat format = OutputFormat::console;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  ChangeSettings changes;
  std::string svg_path;  // trend --svg FILE
  bool help = false;
};

po::options_description describe_history_options(HistoryOptions& o) {
  po::options_description options("options");
  options.add_options()(
      "history", po::value<std::string>(&o.database),
      "the history database; default $XDG_DATA_HOME/plugbench/history.sqlite, else "
      "~/.local/share/plugbench/history.sqlite (add creates it, with its folders)")(
      "format",
      po::value<std::string>()
          ->default_value(to_string(o.format))
          ->notifier([&o](const std::string& format) { o.format = parse_output_format(format); }),
      "console, md (markdown) or csv")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "add: largest results file read, in MiB")(
      "threshold",
      po::value<double>(&o.changes.threshold)
          ->default_value(ChangeSettings{}.threshold,
                          number_text(ChangeSettings{}.threshold, "%g")),
      "changes: smallest step reported, as a fraction of the median before it")(
      "alpha",
      po::value<double>(&o.changes.detection.alpha)
          ->default_value(ChangePointSettings{}.alpha,
                          number_text(ChangePointSettings{}.alpha, "%g")),
      "changes: significance level of each change's permutation test")(
      "svg", po::value<std::string>(&o.svg_path),
      "trend: also write the trend as an SVG chart to this file")("help,h", "this help");
  return options;
}

std::string history_usage() {
  HistoryOptions unused;
  std::ostringstream text;
  text << "usage: harness history add FILE.json [MORE.json ...]\n"
          "       harness history list\n"
          "       harness history trend FILTER [--svg FILE]\n"
          "       harness history machines [FILTER]\n"
          "       harness history changes [FILTER]\n\n"
          "A results history in an SQLite database (tables in docs/history.md). add stores runs "
          "(each once: a run already there is refused); list shows them, with each run's host read "
          "peak over the median of its machine's other runs (SLOWER: over "
       << number_text(100 * kSlowerMemoryFraction, "%.0f")
       << " % below, its memory likely shared with neighbours); trend shows a cell's "
          "median over the runs, per machine; machines shows each machine's latest run of a cell "
          "against the fastest; changes finds steps in each cell's series per machine (E-divisive "
          "means, Matteson & James 2014) with the commit range, step, confidence and the first "
          "run after the step.\n\nFILTER: KEY=VALUE[,KEY=VALUE...], keys workload, distribution, "
          "size (2^20 or 1048576), plugin, variant, machine (host name); e.g. "
          "workload=reduce,plugin=openmp\n\n"
       << describe_history_options(unused)
       << "\nexit codes: 0 done, 1 changes found a slowdown, 2 usage error or an unreadable "
          "results file, 3 add: a run already in the history (the others are added), 4 the "
          "database cannot be used (corrupt, newer schema, another program's, locked too long, or "
          "no history at the path of a query), or stdout could not be written\n";
  return text.str();
}

HistoryOptions parse_history_options(int argc, const char* const* argv) {
  HistoryOptions o;
  if (argc < 2) throw UsageError("history needs a command: add, list, trend, machines or changes");
  o.command = argv[1];
  if (o.command == "--help" || o.command == "-h") {
    o.help = true;
    return o;
  }
  static const std::vector<std::string> commands = {"add", "list", "trend", "machines", "changes"};
  if (std::find(commands.begin(), commands.end(), o.command) == commands.end()) {
    throw UsageError("unknown history command '" + o.command +
                     "' (add, list, trend, machines or changes)");
  }
  po::options_description visible = describe_history_options(o);
  po::variables_map values =
      parse_subcommand(argc - 1, argv + 1, visible, o.arguments, "history " + o.command);
  o.help = values.count("help") > 0;
  if (o.help) return o;
  if (o.database.empty()) o.database = default_history_path();
  check_max_file_mib(o.max_file_mib);
  CompareSettings changes_settings;
  changes_settings.threshold = o.changes.threshold;
  changes_settings.alpha = o.changes.detection.alpha;
  if (std::string warning = check_compare_settings(changes_settings); !warning.empty()) {
    std::cerr << "harness history: " << warning << "\n";
  }
  if (o.command == "add" && o.arguments.empty()) {
    throw UsageError("history add needs a results file (or more)");
  }
  if (o.command == "trend" && o.arguments.size() != 1) {
    throw UsageError("history trend needs one FILTER, e.g. workload=reduce,plugin=openmp");
  }
  if (o.command == "list" && !o.arguments.empty()) {
    throw UsageError("history list takes no arguments, got '" + o.arguments.front() + "'");
  }
  if ((o.command == "machines" || o.command == "changes") && o.arguments.size() > 1) {
    throw UsageError("history " + o.command + " takes one FILTER at most");
  }
  return o;
}

int answer(const HistoryOptions& o) {
  // Only add makes a history: a mistyped --history for a query must not answer from a new, empty
  // database.
  if (o.command != "add" && !std::filesystem::exists(o.database)) {
    std::cerr << "harness history: " << printable_text(o.database)
              << ": no history there (harness history add FILE... makes one; --history names "
                 "another)\n";
    return kHistoryDatabaseError;
  }
  HistoryDatabase history(o.database);
  TableWriter tables(std::cout, o.format);
  if (o.command == "add") {
    int worst = kHistoryDone;
    std::vector<std::pair<std::string, RunContext>> added;
    try {
      for (const std::string& path : o.arguments) {
        RunContext run;
        int code = add_results_file(history, path, o.max_file_mib << 20, "harness history add",
                                    std::cout, std::cerr, &run);
        if (code == kHistoryDone) added.emplace_back(path, std::move(run));
        // An unreadable file outranks a duplicate: it needs attention, a duplicate does not.
        if (code == kHistoryInputError || (code == kHistoryDuplicate && worst == kHistoryDone)) {
          worst = code;
        }
      }
    } catch (const HistoryError&) {
      // The runs stored before the database failed are there: say their memory too.
      say_memory_levels(history, added, std::cout, std::cerr);
      throw;
    }
    say_memory_levels(history, added, std::cout, std::cerr);
    return worst;
  }
  if (o.command == "list") {
    tables.write(runs_table(history.runs(), MemoryLevels(history)));
    return kHistoryDone;
  }
  const CellFilter filter = parse_cell_filter(o.arguments.empty() ? "" : o.arguments.front());
  const std::vector<CellPoint> points = history.cells(filter);
  if (points.empty()) {
    std::cerr << "harness history " << o.command << ": no cells in " << printable_text(o.database)
              << (filter.fields.empty() ? ""
                                        : " match '" + printable_text(o.arguments.front()) + "'")
              << " (harness history list shows the runs)\n";
    return kHistoryDone;
  }
  if (o.command == "trend") {
    for (const TextTable& table : trend_tables(points)) tables.write(table);
    if (!o.svg_path.empty()) {
      // Written beside and renamed into place, as every output; never over the database read.
      std::string problem = same_file(o.svg_path, o.database)
                                ? "--svg '" + o.svg_path + "' is the history database"
                                : prepare_output_file(o.svg_path, "--svg");
      if (problem.empty()) {
        try {
          write_text_atomically(trend_svg(points), o.svg_path);
        } catch (const std::exception& e) {
          problem = e.what();
        }
      }
      if (!problem.empty()) {
        std::cerr << "harness history trend: cannot write the chart: " << printable_text(problem)
                  << "\n";
        return kHistoryInputError;
      }
    }
    return kHistoryDone;
  }
  if (o.command == "machines") {
    for (const TextTable& table : machines_tables(points)) tables.write(table);
    return kHistoryDone;
  }
  ChangeReport report = changes_table(points, o.changes);
  tables.write(report.table);
  return report.slowdowns > 0 ? kHistorySlowdown : kHistoryDone;
}

// The answer's exit code, unless what it printed did not reach stdout (a full disk, a reader gone):
// a report that `changes --format md > changes.md` lost must not pass for one written.
int run_command(const HistoryOptions& o) {
  const int code = answer(o);
  return output_written(std::cout, "harness history " + o.command) ? code : kHistoryOutputError;
}

}  // namespace

int run_history(int argc, const char* const* argv) {
  HistoryOptions options;
  try {
    options = parse_history_options(argc, argv);
    if (options.help) {
      std::cout << history_usage();
      return kHistoryDone;
    }
    return run_command(options);
  } catch (const UsageError& e) {
    std::cerr << "harness history: " << printable_text(e.what()) << "\n";
    return kHistoryInputError;
  } catch (const HistoryError& e) {
    std::cerr << "harness history: " << printable_text(e.what()) << "\n";
    return kHistoryDatabaseError;
  }
}

}  // namespace plugbench
