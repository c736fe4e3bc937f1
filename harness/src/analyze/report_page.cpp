// report_page.cpp: the sections of the report and the charts of each workload.
#include "analyze/report_page.hpp"

#include "analyze/file_comparison.hpp"
#include "analyze/file_tables.hpp"
#include "analyze/rank_spread.hpp"
#include "history/history_tables.hpp"
#include "history/trend_chart.hpp"
#include "record/html_page.hpp"
#include "record/machine_facts.hpp"
#include "record/report_table.hpp"
#include "record/svg_chart.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace plugbench {
namespace {

// The problems of one workload and distribution, sizes in the order of the run.
struct ProblemGroup {
  std::string workload;
  std::string distribution;
  std::vector<std::size_t> problems;  // indexes into the file's problems
};

std::vector<ProblemGroup> groups_of(const std::vector<StoredProblem>& problems) {
  std::vector<ProblemGroup> groups;
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // no search per problem
  for (std::size_t i = 0; i < problems.size(); ++i) {
    auto [found, added] =
        index.try_emplace({problems[i].workload, problems[i].distribution}, groups.size());
    if (added) groups.push_back({problems[i].workload, problems[i].distribution, {}});
    groups[found->second].problems.push_back(i);
  }
  return groups;
}

// Why a cell has no figure to draw: its status and message; a cell that ran and verified has one.
std::string why_no_figure(const CellResult& cell) {
  if (cell.status == status::failed) return "failed verification";
  return cell.status + (cell.message.empty() ? "" : ": " + cell.message);
}

bool counts_in_iterations(const CellResult& cell) {
  return cell.traffic && !cell.traffic->work_unit.empty();
}

// The cell's rate in the chart's unit: GB/s, or G iterations/s for a workload that counts work.
std::optional<double> rate_of(const CellResult& cell) {
  if (counts_in_iterations(cell)) {
    if (cell.work_rate) return *cell.work_rate / 1e9;
    return std::nullopt;
  }
  return cell.gbps;
}

// The series of that name, added at the end when new; `index` keeps the lookup from searching.
ChartSeries& series_named(std::vector<ChartSeries>& series,
                          std::map<std::string, std::size_t>& index, const std::string& name) {
  auto [found, added] = index.try_emplace(name, series.size());
  if (added) series.push_back({name, {}, {}});
  return series[found->second];
}

// A series per plugin/variant of `figure` (a rate or a speedup) against size; a cell that did not
// run and verify, or has no such figure, is a gap.
template <typename Figure>
std::vector<ChartSeries> series_of(const std::vector<const CellResult*>& cells, Figure figure,
                                   const char* unit) {
  std::vector<ChartSeries> series;
  std::map<std::string, std::size_t> index;
  for (const CellResult* cell : cells) {
    // A plugin without a kernel for the workload has a cell without a variant.
    ChartSeries& line = series_named(
        series, index, cell->variant.empty() ? cell->plugin : cell->plugin + "/" + cell->variant);
    const double n = static_cast<double>(cell->shape.n);
    std::optional<double> value = cell->status == status::ok ? figure(*cell) : std::nullopt;
    if (cell->status != status::ok) {
      line.gaps.push_back({n, why_no_figure(*cell)});
    } else if (!value) {
      line.gaps.push_back({n, "no figure (no verified baseline at this size)"});
    } else {
      line.points.push_back(
          {n, *value, shape_text(cell->shape) + ": " + format_rate(value) + unit});
    }
  }
  return series;
}

std::vector<std::string> group_charts(const ProblemGroup& group,
                                      const std::vector<StoredProblem>& problems,
                                      const std::string& baseline, bool several_ranks) {
  std::vector<const CellResult*> cells;
  for (std::size_t index : group.problems) {
    for (const CellResult& cell : problems[index].cells) cells.push_back(&cell);
  }
  if (cells.empty()) return {};
  const bool iterations = counts_in_iterations(*cells.front());
  const std::string name = group.workload + " " + group.distribution;
  std::vector<std::string> charts;
  LineChart rate;
  rate.title = name + ": " + (iterations ? "iterations per second" : "throughput");
  rate.x_label = "size n (log2)";
  rate.y_label = iterations ? "G iterations/s (log)" : "GB/s (log)";
  rate.series = series_of(cells, rate_of, iterations ? " G iterations/s" : " GB/s");
  charts.push_back(svg_line_chart(rate));
  if (several_ranks) return charts;  // each rank's speedup is against its own baseline: tables
  LineChart speedup;
  speedup.title = name + ": speedup over " + baseline;
  speedup.x_label = "size n (log2)";
  speedup.y_label = "speedup (log)";
  speedup.series = series_of(
      cells, [](const CellResult& cell) { return cell.speedup; }, "x");
  speedup.references.push_back({1, "1 = " + baseline});
  charts.push_back(svg_line_chart(speedup));
  return charts;
}

void file_section(HtmlPage& page, const ResultsFile& file, std::size_t number) {
  const std::vector<StoredProblem> problems = problems_of(file.cells);
  const FileTables tables = file_tables(file, problems);
  const bool several_ranks = has_several_ranks(file);
  std::string baseline = text_at(file.document, "/context/settings/baseline");
  if (baseline.empty()) baseline = "the baseline";
  page.heading(2, "file " + std::to_string(number) + ": " + file.path);
  page.table(tables.run);
  page.paragraph(tables.summary);
  if (several_ranks) {
    page.paragraph(
        "A run of several MPI ranks: each table is a cell's spread over its ranks; the charts "
        "show each cell at the median of its ranks' medians.",
        "note");
  }
  // A multi-rank file's charts: one figure per cell, as harness compare sees it.
  std::vector<StoredProblem> collapsed;
  if (several_ranks) {
    collapsed = problems;
    for (StoredProblem& problem : collapsed) problem.cells = collapse_ranks(problem.cells);
  }
  const std::vector<StoredProblem>& charted = several_ranks ? collapsed : problems;
  for (const ProblemGroup& group : groups_of(problems)) {
    page.heading(3, group.workload + "  distribution " + group.distribution);
    // The charts first: a sweep has a table per size.
    page.figures(group_charts(group, charted, baseline, several_ranks));
    for (std::size_t index : group.problems) page.table(tables.problems[index]);
  }
  if (!tables.slow_ranks.empty()) page.preformatted(tables.slow_ranks);
  page.heading(3, "crossover: CPU and GPU");
  if (tables.crossovers.empty()) {
    page.paragraph(
        "No crossover: the file lacks verified cells of a GPU (device memory) plugin and a CPU "
        "(host memory) plugin on the same problems.",
        "note");
  } else {
    page.table(crossover_table(tables.crossovers));
  }
}

void comparison_section(HtmlPage& page, const ResultsFile& base, const ResultsFile& current,
                        const CompareSettings& settings) {
  FileComparison comparison =
      compare_files(base, collapse_ranks(cells_of(base)), current,
                    collapse_ranks(cells_of(current)), settings, ComparisonColumns::every);
  page.heading(2, "comparison: " + current.path + " against " + base.path);
  page.paragraph(comparison.heading);
  page.table(comparison.machines);
  for (const std::string& remark : comparison.remarks) page.paragraph(remark, "note");
  page.paragraph(comparison.summary);
  for (const std::string& line : comparison.regressions) page.paragraph(line, "alert");
  for (const TextTable& table : comparison.tables) page.table(table);
}

// The trends asked for with --trend: each one's chart (trend_chart's SVG, its text escaped there)
// and the tables harness history trend prints.
void history_section(HtmlPage& page, const std::vector<HistoryTrend>& trends) {
  page.heading(2, "history");
  page.paragraph("Trends from the results history " + trends.front().database +
                 ", as harness history trend shows them: per series (a cell on one machine) the "
                 "median kernel time of each run, in the order of the runs' own times, with the "
                 "quartiles of its repetitions as a bar; the tables list the points.");
  for (const HistoryTrend& trend : trends) {
    page.heading(3, "trend: " + (trend.filter.empty() ? std::string("every cell") : trend.filter));
    page.figures({trend_svg(trend.points)});
    for (const TextTable& table : trend_tables(trend.points)) page.table(table);
  }
}

}  // namespace

std::string report_page(const std::vector<ResultsFile>& files, const CompareSettings& settings,
                        const std::vector<HistoryTrend>& trends) {
  HtmlPage page("plugbench report");
  std::string listed;
  for (const ResultsFile& file : files) listed += (listed.empty() ? "" : ", ") + file.path;
  page.paragraph("Results files: " + listed +
                 ". Each file's tables are those harness show prints; a cell that did not run "
                 "and verify has no figure: its row is marked, and on a chart it is a cross on the "
                 "size axis, never a point." +
                 (files.size() > 1 ? " Each later file is compared with the first as harness "
                                     "compare compares them."
                                   : ""));
  for (std::size_t i = 0; i < files.size(); ++i) file_section(page, files[i], i + 1);
  for (std::size_t i = 1; i < files.size(); ++i) {
    comparison_section(page, files[0], files[i], settings);
  }
  if (!trends.empty()) history_section(page, trends);
  return page.html();
}

}  // namespace plugbench
