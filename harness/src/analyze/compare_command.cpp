// compare_command.cpp: the compare subcommand: its options, the machines side by side, a table of
// cells per workload and distribution, and the exit code.
#include "analyze/compare_command.hpp"

#include "analyze/compare_cells.hpp"
#include "analyze/rank_spread.hpp"
#include "cli/subcommand_options.hpp"
#include "cli/usage_error.hpp"
#include "record/machine_facts.hpp"
#include "record/report_table.hpp"
#include "record/results_reader.hpp"
#include "record/safe_text.hpp"
#include "record/text_list.hpp"
#include "record/text_table.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {
namespace po = boost::program_options;
namespace {

struct CompareOptions {
  std::vector<std::string> files;
  CompareSettings settings;
  OutputFormat format = OutputFormat::console;
  std::uint64_t max_file_mib = kDefaultMaxResultsBytes >> 20;
  bool allow_empty = false;
  bool allow_incomplete = false;
  bool help = false;
};

po::options_description describe_compare_options(CompareOptions& o) {
  po::options_description options("options");
  options.add_options()(
      "threshold", po::value<double>(&o.settings.threshold)->default_value(0.05, "0.05"),
      "medians within this fraction of each other are the same; a cell slower beyond it "
      "(significantly) is a regression, and the exit code is 1")(
      "alpha", po::value<double>(&o.settings.alpha)->default_value(0.05, "0.05"),
      "significance level of the Mann-Whitney U test over the repetition times")(
      "format",
      po::value<std::string>()->default_value("console")->notifier(
          [&o](const std::string& format) { o.format = parse_output_format(format); }),
      "console, md (markdown) or csv (a line per cell, nothing else)")(
      "max-file-mib", po::value<std::uint64_t>(&o.max_file_mib)->default_value(o.max_file_mib),
      "largest results file read, in MiB; a larger one is refused")(
      "allow-empty", po::bool_switch(&o.allow_empty),
      "exit 0 even when no cell was compared (no cell in both files); default: exit 3")(
      "allow-incomplete", po::bool_switch(&o.allow_incomplete),
      "exit 0 even when a newer file is incomplete (an interrupted run); it is still warned "
      "about; default: exit 3")("help,h", "this help");
  return options;
}

std::string compare_usage() {
  CompareOptions unused;
  std::ostringstream text;
  text << "usage: harness compare BASE.json NEW.json [MORE.json ...]\n\n"
          "Matches the cells of results files by workload, distribution, size, plugin and "
          "variant, and compares each file to the first (the base): median kernel times, their "
          "ratio, GB/s and % of peak on both sides, and a verdict:\n"
          "  same       the medians are within --threshold of each other\n"
          "  faster, slower   beyond it, and the Mann-Whitney U test over the repetition times "
          "says the times differ (p < --alpha)\n"
          "  too noisy  beyond it, but p >= alpha, or too few repetitions to reach it\n"
          "  FAILED     a wrong answer on either side: shown, never compared\n"
          "Cells in one file only are listed. See docs/comparing-results.md.\n\n"
       << describe_compare_options(unused)
       << "\nexit codes: 0 no regression, 1 a regression (a cell slower beyond --threshold with "
          "p < alpha, or verified in the base and failing or in error in a newer file), 2 usage "
          "error or a file that is not a readable results file, 3 no regression but nothing to "
          "vouch for it: no cell compared (--allow-empty), or a newer file incomplete "
          "(--allow-incomplete)\n";
  return text.str();
}

CompareOptions parse_compare_options(int argc, const char* const* argv) {
  CompareOptions o;
  po::options_description visible = describe_compare_options(o);
  po::variables_map values = parse_subcommand(argc, argv, visible, o.files, "compare");
  o.help = values.count("help") > 0;
  if (o.help) return o;
  if (o.files.size() < 2) throw UsageError("compare needs two results files or more");
  if (o.max_file_mib < 1 || o.max_file_mib > kMaxFileMibLimit) {
    throw UsageError("--max-file-mib must be from 1 to " + std::to_string(kMaxFileMibLimit));
  }
  if (!(o.settings.threshold >= 0)) throw UsageError("--threshold cannot be negative");
  if (!(o.settings.alpha > 0 && o.settings.alpha < 1)) {
    throw UsageError("--alpha must be between 0 and 1");
  }
  return o;
}

// The hardware rows that differ ("CPU", "GPU"); empty when the machines are alike.
std::vector<std::string> hardware_differences(const Facts& a, const Facts& b) {
  std::vector<std::string> differ;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i].first == "CPU" || a[i].first == "GPU") && a[i].second != b[i].second) {
      differ.push_back(a[i].first);
    }
  }
  return differ;
}

TextTable machines_table(const Facts& a, const Facts& b) {
  TextTable table;
  table.title = "machines";
  table.columns = {
      {"", "fact", true}, {"base", "base", true}, {"new", "new", true}, {"", "differs", true}};
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool differs = a[i].second != b[i].second;
    table.rows.push_back({{a[i].first, a[i].second, b[i].second, differs ? "*" : " "}, ""});
  }
  table.notes.push_back("(* differs)");
  return table;
}

std::string p_text(const std::optional<double>& p) {
  return p ? number_text(*p, "%.2g") : "";
}

std::string cell_name(const CellComparison& c) {
  return c.key.workload + " " + c.key.distribution + " n=" + std::to_string(c.key.n) + " " +
         c.key.plugin + "/" + c.key.variant;
}

// One table per workload and distribution.
std::vector<TextTable> cell_tables(const std::vector<CellComparison>& comparisons,
                                   const ResultsFile& base, const ResultsFile& current,
                                   bool peak_ratio) {
  std::vector<TextTable> tables;
  for (const CellComparison& c : comparisons) {
    if (tables.empty() || tables.back().context[2].second != c.key.workload ||
        tables.back().context[3].second != c.key.distribution) {
      TextTable table;
      table.title = c.key.workload + "  distribution " + c.key.distribution;
      table.context = {{"base", base.path},
                       {"new", current.path},
                       {"workload", c.key.workload},
                       {"distribution", c.key.distribution}};
      table.columns = {{"n", "n"},
                       {"plugin", "plugin", true},
                       {"variant", "variant", true},
                       {"base ms", "base_ms"},
                       {"new ms", "new_ms"},
                       {"new/base", "ratio"},
                       {"base GB/s", "base_gbps"},
                       {"new GB/s", "new_gbps"},
                       {"base %peak", "base_percent_of_peak"},
                       {"new %peak", "new_percent_of_peak"}};
      if (peak_ratio) table.columns.push_back({"%peak new/base", "percent_of_peak_ratio"});
      table.columns.push_back({"p", "p_value"});
      table.columns.push_back({"verdict", "verdict", true});
      table.columns.push_back({"why", "why", true});
      tables.push_back(std::move(table));
    }
    const CellSide none;
    const CellSide& b = c.base ? *c.base : none;
    const CellSide& n = c.current ? *c.current : none;
    TableRow row;
    row.cells = {std::to_string(c.key.n),
                 c.key.plugin,
                 c.key.variant,
                 format_ms(b.median_ms),
                 format_ms(n.median_ms),
                 format_number(c.ratio, 3),
                 format_rate(b.gbps),
                 format_rate(n.gbps),
                 format_number(b.percent_of_peak, 1),
                 format_number(n.percent_of_peak, 1)};
    if (peak_ratio) {
      std::optional<double> ratio;
      if (b.percent_of_peak && n.percent_of_peak && *b.percent_of_peak > 0) {
        ratio = *n.percent_of_peak / *b.percent_of_peak;
      }
      row.cells.push_back(format_number(ratio, 3));
    }
    row.cells.insert(row.cells.end(), {p_text(c.p_value), c.label, c.detail});
    tables.back().rows.push_back(std::move(row));
  }
  return tables;
}

// Console and markdown: a line of text (markdown: a paragraph).
void say(std::ostream& out, OutputFormat format, const std::string& text) {
  // Names in it come from the files: their control characters are shown escaped.
  out << printable_text(text) << (format == OutputFormat::md ? "\n\n" : "\n");
}

// Cells whose times were compared: a verdict of faster, slower, same or too noisy.
int compared_count(const std::vector<CellComparison>& comparisons) {
  return static_cast<int>(std::count_if(comparisons.begin(), comparisons.end(), [](const auto& c) {
    return c.verdict == Verdict::faster || c.verdict == Verdict::slower ||
           c.verdict == Verdict::same || c.verdict == Verdict::noisy;
  }));
}

std::string summary_text(const std::vector<CellComparison>& comparisons) {
  std::map<Verdict, int> counts;
  for (const CellComparison& c : comparisons) ++counts[c.verdict];
  return std::to_string(compared_count(comparisons)) +
         " cells compared: " + std::to_string(counts[Verdict::faster]) + " faster, " +
         std::to_string(counts[Verdict::slower]) + " slower, " +
         std::to_string(counts[Verdict::same]) + " same, " +
         std::to_string(counts[Verdict::noisy]) + " too noisy to say; " +
         std::to_string(counts[Verdict::failed]) + " failed verification, " +
         std::to_string(counts[Verdict::not_timed]) + " without a time on a side; " +
         std::to_string(counts[Verdict::only_base]) + " only in base, " +
         std::to_string(counts[Verdict::only_current]) + " only in new";
}

// What one comparison of a file to the base found, for the exit code.
struct PairOutcome {
  bool regression = false;
  int compared = 0;
};

// Compares one file to the base.
PairOutcome compare_pair(const ResultsFile& base, const std::vector<CellResult>& base_cells,
                         const ResultsFile& current, const std::vector<CellResult>& current_cells,
                         const CompareOptions& o, TableWriter& tables) {
  std::vector<CellComparison> comparisons = compare_cells(base_cells, current_cells, o.settings);
  Facts base_facts = machine_facts(base.document);
  Facts current_facts = machine_facts(current.document);
  std::vector<std::string> differences = hardware_differences(base_facts, current_facts);
  bool csv = o.format == OutputFormat::csv;
  // CSV holds the cells alone; what people read goes to stderr.
  std::ostream& text = csv ? std::cerr : std::cout;
  OutputFormat text_format = csv ? OutputFormat::console : o.format;
  if (!csv) {
    say(text, text_format, "base: " + base.path + "    new: " + current.path);
    TableWriter(text, text_format).write(machines_table(base_facts, current_facts));
    text << "\n";
    if (!differences.empty()) {
      say(text, text_format,
          "The machines differ (" + join(differences) +
              "): a ratio of times measures the hardware as well as the code, so % of peak "
              "(each against its own machine's measured peak) is compared too: the %peak "
              "new/base column.");
    }
    say(text, text_format,
        "Verdicts on the kernel's repetition times: same within " +
            number_text(100 * o.settings.threshold, "%g") +
            "% of the base median; beyond it, faster or slower where the two-sided "
            "Mann-Whitney U test gives p < " +
            number_text(o.settings.alpha, "%g") + ", else too noisy to say.");
  }
  for (const TextTable& table :
       cell_tables(comparisons, base, current, !differences.empty() || csv)) {
    tables.write(table);
  }
  if (!csv) text << "\n";
  say(text, text_format, current.path + " against " + base.path + ": " + summary_text(comparisons));
  PairOutcome outcome;
  outcome.compared = compared_count(comparisons);
  for (const CellComparison& c : comparisons) {
    if (!c.regression) continue;
    outcome.regression = true;
    std::string what =
        c.verdict == Verdict::slower
            ? number_text(*c.ratio, "%.2fx") + " the base time, p = " + p_text(c.p_value)
            : c.label + (c.detail.empty() ? "" : ": " + c.detail);
    say(text, text_format, "REGRESSION " + cell_name(c) + ": " + what);
  }
  return outcome;
}

// Whether the file's run finished; an interrupted one says so ("complete": false).
bool is_complete(const ResultsFile& file) {
  const nlohmann::json& document = file.document;
  return !document.contains("complete") || !document["complete"].is_boolean() ||
         document["complete"].get<bool>();
}

std::string incomplete_warning(const ResultsFile& file) {
  std::string why = "its run was stopped before the end";
  if (std::optional<double> signal = number_at(file.document, "/interrupted_by_signal")) {
    why += " (signal " + number_text(*signal, "%.0f") + ")";
  }
  return "harness compare: warning: " + file.path + " is incomplete: " + why +
         "; only the cells it finished are compared";
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
  std::vector<ResultsFile> files;
  std::vector<std::vector<CellResult>> cells;
  try {
    for (const std::string& path : options.files) {
      files.push_back(read_results_file(path, options.max_file_mib << 20));
      // A run of several ranks is compared on each cell's spread over its ranks.
      cells.push_back(collapse_ranks(cells_of(files.back())));
    }
  } catch (const ResultsFileError& e) {
    std::cerr << "harness compare: " << e.what() << "\n";
    return kCompareInputError;
  }
  bool newer_incomplete = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (is_complete(files[i])) continue;
    std::cerr << incomplete_warning(files[i]) << "\n";
    newer_incomplete = newer_incomplete || i > 0;
  }
  TableWriter tables(std::cout, options.format);
  bool regression = false;
  std::vector<std::string> compared_nothing;
  for (std::size_t i = 1; i < files.size(); ++i) {
    if (i > 1 && options.format != OutputFormat::csv) std::cout << "\n";
    PairOutcome outcome = compare_pair(files[0], cells[0], files[i], cells[i], options, tables);
    regression = regression || outcome.regression;
    if (outcome.compared == 0) compared_nothing.push_back(files[i].path);
  }
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
