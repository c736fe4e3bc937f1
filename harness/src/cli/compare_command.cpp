// compare_command.cpp: the compare subcommand: its options, the machines side by side, a table of
// cells per workload and distribution, and the exit code.
#include "cli/compare_command.hpp"

#include "analyze/cell_selection.hpp"
#include "analyze/compare_cells.hpp"
#include "analyze/earlier_runs.hpp"
#include "analyze/file_comparison.hpp"
#include "analyze/rank_spread.hpp"
#include "base/output_check.hpp"
#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "base/text_list.hpp"
#include "base/usage_error.hpp"
#include "cli/subcommand_options.hpp"
#include "history/history_database.hpp"
#include "history/memory_level.hpp"
#include "render/figure_text.hpp"
#include "render/text_table.hpp"
#include "results/machine_facts.hpp"
#include "results/results_reader.hpp"
#include "results/run_context.hpp"

#include <boost/program_options.hpp>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct CompareOptions {
  std::vector<std::string> files;
  std::vector<std::string> base_runs, new_runs;  // --base, --new: several runs a side
  CompareSettings settings;
  OutputFormat format = OutputFormat::console;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  bool allow_empty = false;
  bool allow_incomplete = false;
  bool help = false;
  std::string plugins, workloads, sizes;  // -p, -w, -s: the cells to compare
  bool matched_only = false;
  bool wide = false;    // every column on the console too
  std::string history;  // --history DB: how much runs differ, for one run a side
  CellSelection selection;
  // --history: each compared run's host memory against its machine's other runs (one pair's).
  std::vector<std::string> memory_lines;
};

po::options_description describe_compare_options(CompareOptions& o) {
  po::options_description options("options");
  options.add_options()(
      "threshold",
      po::value<double>(&o.settings.threshold)
          ->default_value(CompareSettings{}.threshold,
                          number_text(CompareSettings{}.threshold, "%g")),
      "an estimated new/base within this fraction of 1 is the same; a cell slower beyond it "
      "(significantly) is a regression, and the exit code is 1")(
      "alpha",
      po::value<double>(&o.settings.alpha)
          ->default_value(CompareSettings{}.alpha, number_text(CompareSettings{}.alpha, "%g")),
      "level of the test (U over the samples, Welch's t over the runs, or t over --history's runs) "
      "for the whole family "
      "of compared cells: the p-values are Holm-adjusted")(
      "format",
      po::value<std::string>()
          ->default_value(to_string(o.format))
          ->notifier([&o](const std::string& format) { o.format = parse_output_format(format); }),
      "console, md (markdown) or csv (a line per cell, nothing else)")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")(
      "allow-empty", po::bool_switch(&o.allow_empty),
      "exit 0 even when no cell was compared (no cell in both files); default: exit 3")(
      "allow-incomplete", po::bool_switch(&o.allow_incomplete),
      "exit 0 even when a newer file is incomplete (an interrupted run); it is still warned "
      "about; default: exit 3")("plugins,p", po::value<std::string>(&o.plugins),
                                "only these plugins' cells (comma list)")(
      "workload,w", po::value<std::string>(&o.workloads),
      "only these workloads' cells (comma list)")(
      "sizes,s", po::value<std::string>(&o.sizes),
      "only cells of these sizes, written as a run's -s takes them (2^20,1M,7680x4320)")(
      "base", po::value<std::vector<std::string>>(&o.base_runs)->composing(),
      "a run of the base side (repeatable): several runs a side make the runs the unit of "
      "replication, as a shared machine needs (with --new; no files by position then)")(
      "new", po::value<std::vector<std::string>>(&o.new_runs)->composing(),
      "a run of the new side (repeatable), with --base")(
      "matched-only", po::bool_switch(&o.matched_only),
      "only cells that both files hold: no 'only in base' or 'only in new' rows")(
      "wide", po::bool_switch(&o.wide),
      "every column on the console (GB/s, the p-values, each verdict's reason); by default the "
      "tables fit 120 columns")(
      "history", po::value<std::string>(&o.history),
      "with one run a side: judge each cell against how much its earlier runs on the same "
      "machine differ, read from this results history (harness history add); cells with fewer "
      "than 3 earlier runs are judged over their samples; each side's host memory is set against "
      "its machine's other runs there too")(
      "regressions-across-machines", po::bool_switch(&o.settings.regressions_across_machines),
      "call a slower cell a regression (exit 1) even where the CPUs or GPUs differ; by default "
      "other hardware is compared, not judged")("help,h", "this help");
  return options;
}

std::string compare_usage() {
  CompareOptions unused;
  std::ostringstream text;
  text << "usage: harness compare BASE.json NEW.json [MORE.json ...]\n"
          "       harness compare --base A1.json --base A2.json ... --new B1.json --new B2.json "
          "...\n\n"
          "Matches the cells of results files by workload, distribution, size, plugin and "
          "variant, and compares each file to the first (the base), or the runs of one side to "
          "the other's: median kernel times, new/base with its 95% interval, GB/s and % of peak "
          "on both sides, and a verdict:\n"
          "  same       the estimated new/base (its 95% interval beside it) is within --threshold "
          "of 1\n"
          "  faster, slower   beyond it, and the test says the times differ: p < --alpha after "
          "Holm's adjustment over every compared cell (the Mann-Whitney U test over the "
          "repetition times with one run a side, Welch's t over the runs' log medians with "
          "several)\n"
          "  too noisy  beyond it, but the adjusted p >= alpha, too few repetitions to reach it, "
          "or a busy machine on either side\n"
          "The time decides. Host cells measured in rounds on both sides also show their time "
          "over the median pass of the reference loop in the same rounds (norm new/base): a cell "
          "called on its time is slower or faster only where that ratio moved the same way beyond "
          "--threshold too (a machine that lost bandwidth between the runs slows the loop as "
          "much). With several runs a side, a cell measured in rounds beside its baseline also "
          "shows its time over the baseline's in the same rounds (paired new/base); where the two "
          "are of a kind (memory space, threads), the baseline did not surely move (its interval "
          "wholly beyond --threshold) and it is one library on both sides (its recorded "
          "checksum), or its own time held within --threshold (or its runs spread across it and "
          "the cell's own time already differs), the test is on that ratio, and the time must "
          "agree (both within --threshold, or both beyond it the same way). With one "
          "run a side, --history DB gives the test what one "
          "file cannot: how much each cell's runs differ on that machine, from its earlier runs "
          "in the results history (Student's t over their spread), and the paired rule with it.\n"
          "  FAILED     a wrong answer on either side: shown, never compared\n"
          "Cells in one file only are listed (--matched-only leaves them out); -p, -w and -s "
          "compare some plugins, workloads or sizes only. See docs/comparing-results.md.\n\n"
       << describe_compare_options(unused)
       << "\nexit codes: 0 no regression, 1 a regression (a cell slower beyond --threshold with "
          "p < alpha on the same CPU and GPU, or verified in the base and failing or in error in "
          "a newer file), 2 usage "
          "error, a file that is not a readable results file, or a --history that cannot be read, "
          "3 no regression but nothing to "
          "vouch for it: no cell compared (--allow-empty), or a newer file incomplete "
          "(--allow-incomplete), 4 stdout could not be written\n";
  return text.str();
}

CompareOptions parse_compare_options(int argc, const char* const* argv) {
  CompareOptions o;
  po::options_description visible = describe_compare_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "compare");
  o.help = values.count("help") > 0;
  if (o.help) return o;
  if (!o.base_runs.empty() || !o.new_runs.empty()) {
    if (o.base_runs.empty() || o.new_runs.empty()) {
      throw UsageError("--base and --new go together: the runs of each side");
    }
    if (!o.files.empty()) {
      throw UsageError("with --base and --new, name every file with one of them ('" + o.files[0] +
                       "' has neither)");
    }
  } else if (o.files.size() < 2) {
    throw UsageError("compare needs two results files or more");
  }
  check_max_file_mib(o.max_file_mib);
  if (std::string warning = check_compare_settings(o.settings); !warning.empty()) {
    std::cerr << "harness compare: " << warning << "\n";
  }
  if (!o.history.empty() && o.base_runs.size() + o.new_runs.size() > 2) {
    throw UsageError(
        "--history is for one run a side: several runs a side measure how runs differ "
        "themselves");
  }
  o.selection = cell_selection(o.plugins, o.workloads, o.sizes, o.matched_only);
  return o;
}

// Console and markdown: a line of text (markdown: a paragraph).
// `wrap`: explanations; a record a script may grep for (the summary, a REGRESSION) stays one line.
void say(std::ostream& out, OutputFormat format, const std::string& text, bool wrap = true) {
  // Names in it come from the files: their control characters are shown escaped.
  if (format == OutputFormat::md) {
    out << printable_text(text) << "\n\n";
    return;
  }
  // On a terminal, within 120 columns: broken at a space (a word longer than that stays whole).
  constexpr std::size_t kColumns = 120;
  std::string rest = printable_text(text);
  while (wrap && rest.size() > kColumns) {
    std::size_t cut = rest.rfind(' ', kColumns);
    if (cut == std::string::npos || cut == 0) cut = rest.find(' ', kColumns);
    if (cut == std::string::npos) break;
    out << rest.substr(0, cut) << "\n";
    rest.erase(0, cut + 1);
  }
  out << rest << "\n";
}

// CSV and markdown hold every column; the console with --wide.
ComparisonColumns columns_of(const CompareOptions& o) {
  if (o.format == OutputFormat::csv) return ComparisonColumns::every_in_fixed_order;
  return o.wide || o.format == OutputFormat::md ? ComparisonColumns::every
                                                : ComparisonColumns::terminal;
}

// --wide: tables as wide as their values; else within a terminal's width.
std::size_t console_columns(const CompareOptions& o) {
  return o.wide ? 0 : TableWriter::kTerminalColumns;
}

// Prints a comparison: the machines, how to read it, the tables, the summary, the regressions.
void print_comparison(const FileComparison& comparison, const CompareOptions& o,
                      TableWriter& tables) {
  bool csv = o.format == OutputFormat::csv;
  // CSV holds the cells alone; what people read goes to stderr.
  std::ostream& text = csv ? std::cerr : std::cout;
  OutputFormat text_format = csv ? OutputFormat::console : o.format;
  if (!csv) {
    say(text, text_format, comparison.heading);
    if (!comparison.machines_differ.empty()) say(text, text_format, comparison.machines_differ);
    TableWriter(text, text_format, console_columns(o)).write(comparison.machines);
    for (const std::string& line : o.memory_lines) say(text, text_format, line);
    text << "\n";
    for (const std::string& remark : comparison.remarks) say(text, text_format, remark);
  }
  for (const TextTable& table : comparison.tables) tables.write(table);
  if (!csv) text << "\n";
  say(text, text_format, comparison.summary, false);
  for (const std::string& line : comparison.regressions) say(text, text_format, line, false);
}

// Compares one file to the base and prints it.
FileComparison compare_pair(const ResultsFile& base, std::vector<CellResult> base_cells,
                            const ResultsFile& current, std::vector<CellResult> current_cells,
                            const CompareOptions& o, TableWriter& tables) {
  FileComparison comparison = compare_files(base, std::move(base_cells), current,
                                            std::move(current_cells), o.settings, columns_of(o));
  print_comparison(comparison, o, tables);
  return comparison;
}

// Compares the runs of one side to the other's and prints it.
FileComparison compare_runs(const ComparedSide& base, const ComparedSide& current,
                            const CompareOptions& o, TableWriter& tables) {
  FileComparison comparison = compare_sides(base, current, o.settings, columns_of(o));
  print_comparison(comparison, o, tables);
  return comparison;
}

// --matched-only over runs: the cells some run of each side has.
void keep_matched_runs(std::vector<std::vector<CellResult>>& base,
                       std::vector<std::vector<CellResult>>& current) {
  std::vector<CellResult> all_base, all_current;
  for (const auto& run : base) all_base.insert(all_base.end(), run.begin(), run.end());
  for (const auto& run : current) all_current.insert(all_current.end(), run.begin(), run.end());
  for (auto& run : base) {
    std::vector<CellResult> others = all_current;
    keep_matched(run, others);
  }
  for (auto& run : current) {
    std::vector<CellResult> others = all_base;
    keep_matched(others, run);
  }
}

std::string incomplete_warning(const ResultsFile& file) {
  std::string why = "its run was stopped before the end";
  if (const std::optional<double>& signal = file.context.interrupted_by_signal) {
    why += " (signal " + number_text(*signal, "%.0f") + ")";
  }
  return "harness compare: warning: " + file.path + " is incomplete: " + why +
         "; it holds only the cells it finished";
}

}  // namespace

int run_compare(int argc, const char* const* argv) {
  CompareOptions options;
  try {
    options = parse_compare_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness compare: " << e.what() << "\n";
    return kCompareInputError;
  }
  if (options.help) {
    std::cout << compare_usage();
    return kCompareNoRegression;
  }
  const bool by_runs = !options.base_runs.empty();
  if (by_runs) {
    options.files = options.base_runs;
    options.files.insert(options.files.end(), options.new_runs.begin(), options.new_runs.end());
  }
  std::vector<ResultsFile> files;
  std::vector<std::vector<CellResult>> cells;
  try {
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
      // A run of several ranks is compared on each cell's spread over its ranks.
      // The file's own cells are moved, not copied: a large file is held once.
      cells.push_back(
          selected_cells(collapse_ranks(std::move(files.back().cells)), options.selection));
    }
  } catch (const ResultsFileError& e) {
    std::cerr << "harness compare: " << e.what() << "\n";
    return kCompareInputError;
  }
  // One run given twice: on one side it would count as two replications; across the sides it
  // compares a run with itself, which says nothing of the machine or the code.
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = i + 1; j < files.size(); ++j) {
      // Files made before runs had ids are one run only as one file (two runs of a second differ).
      const bool one_run = files[i].context.run_id.empty()
                               ? same_file(files[i].path, files[j].path)
                               : run_identity(files[i].context) == run_identity(files[j].context);
      if (!one_run) continue;
      const bool same_side =
          by_runs && (i < options.base_runs.size()) == (j < options.base_runs.size());
      const std::string pair = printable_text(files[i].path) + " and " +
                               printable_text(files[j].path) + " are one run" +
                               (files[i].context.run_id.empty()
                                    ? std::string(" (one file)")
                                    : " (run id " + printable_text(files[i].context.run_id) + ")");
      if (same_side) {
        std::cerr << "harness compare: " << pair
                  << ", given twice on one side: a run counts once; give each run once\n";
        return kCompareInputError;
      }
      std::cerr << "harness compare: warning: " << pair
                << (by_runs || i == 0 ? ", compared with itself: its cells are the same by "
                                        "construction\n"
                                      : ", given twice\n");
    }
  }
  bool newer_incomplete = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].context.complete) continue;
    std::cerr << incomplete_warning(files[i]) << "\n";
    newer_incomplete = newer_incomplete || (by_runs ? i >= options.base_runs.size() : i > 0);
  }
  std::optional<HistoryDatabase> history;
  std::optional<MemoryLevels> levels;
  if (!options.history.empty()) {
    if (const std::string problem = history_path_problem(options.history); !problem.empty()) {
      std::cerr << "harness compare: --history " << printable_text(options.history) << problem
                << "\n";
      return kCompareInputError;
    }
    for (const ResultsFile& file : files) {
      if (holds_several_ranks(file)) {
        std::cerr << "harness compare: --history is for runs of one process; " << file.path
                  << " holds several MPI ranks\n";
        return kCompareInputError;
      }
    }
    try {
      history.emplace(options.history, HistoryDatabase::ReadOnly{});
      levels.emplace(*history);
    } catch (const HistoryError& e) {
      std::cerr << "harness compare: " << e.what() << "\n";
      return kCompareInputError;
    }
  }
  // The spread of the earlier runs of the base's cells and `current`'s; none without --history.
  const auto with_history = [&](const std::vector<CellResult>& base_cells, std::size_t current,
                                const std::vector<CellResult>& current_cells) {
    CompareOptions pair = options;
    if (history) {
      pair.settings.history = described_spread(*history, options.history, files[0], base_cells,
                                               files[current], current_cells);
      pair.memory_lines = compared_memory_lines(*levels, files[0].context, files[current].context);
    }
    return pair;
  };
  TableWriter tables(std::cout, options.format, console_columns(options));
  bool regression = false;
  std::vector<std::string> compared_nothing;
  // A history that fails while it is read (corrupt past its header, locked too long) ends the
  // compare as one that cannot be read at all.
  try {
    if (by_runs) {
      ComparedSide base, current;
      for (std::size_t i = 0; i < files.size(); ++i) {
        ComparedSide& side = i < options.base_runs.size() ? base : current;
        side.files.push_back(&files[i]);
        side.cells.push_back(std::move(cells[i]));
      }
      if (options.selection.matched_only) keep_matched_runs(base.cells, current.cells);
      FileComparison outcome =
          compare_runs(base, current, with_history(base.cells[0], 1, current.cells[0]), tables);
      regression = !outcome.regressions.empty();
      if (outcome.compared == 0) compared_nothing.push_back("the new runs");
    }
    for (std::size_t i = 1; i < files.size() && !by_runs; ++i) {
      if (i > 1 && options.format != OutputFormat::csv) std::cout << "\n";
      // The base's cells are copied for every new file but the last, which takes them.
      std::vector<CellResult> base_cells;
      if (i + 1 < files.size()) {
        base_cells = cells[0];
      } else {
        base_cells = std::move(cells[0]);
      }
      std::vector<CellResult> current_cells = std::move(cells[i]);
      if (options.selection.matched_only) keep_matched(base_cells, current_cells);
      const CompareOptions pair = with_history(base_cells, i, current_cells);
      FileComparison outcome = compare_pair(files[0], std::move(base_cells), files[i],
                                            std::move(current_cells), pair, tables);
      regression = regression || !outcome.regressions.empty();
      if (outcome.compared == 0) compared_nothing.push_back(files[i].path);
    }
  } catch (const HistoryError& e) {
    std::cerr << "harness compare: " << e.what() << "\n";
    return kCompareInputError;
  }
  // Tables that did not reach their reader vouch for nothing, a regression included.
  if (!output_written(std::cout, "harness compare")) return kCompareOutputError;
  if (regression) return kCompareRegression;
  bool inconclusive = false;
  if (!compared_nothing.empty() && !options.allow_empty) {
    std::cerr << "harness compare: no cell of " << join(compared_nothing) << " was compared with "
              << files[0].path
              << " (no cell with a time in both: other workloads, sizes or plugins, or an empty "
                 "run); exit code 3 (--allow-empty accepts this)\n";
    inconclusive = true;
  }
  if (newer_incomplete && !options.allow_incomplete) {
    std::cerr << "harness compare: a newer file is incomplete, so a regression in the cells it "
                 "lacks would go unseen; exit code 3 (--allow-incomplete accepts this)\n";
    inconclusive = true;
  }
  return inconclusive ? kCompareInconclusive : kCompareNoRegression;
}

}  // namespace plugbench
