// test_report.cpp: `harness report` writes one self-contained page of a results file's tables,
// charts and crossover (and, with two files, their comparison), with every text from a file
// escaped, a cell without a figure never drawn as a point, and clear errors on bad input.
#include "render/svg_chart.hpp"
#include "render/svg_dot_chart.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::read_json;
using plugbench::testing::read_text;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

LineChart two_series_chart() {
  LineChart chart;
  chart.title = "reduce mod100: throughput";
  chart.x_label = "size n (log2)";
  chart.y_label = "GB/s (log)";
  chart.series = {
      {"cpu_serial/loop", {{1024, 2.5, "2^10: 2.5 GB/s"}, {4096, 3.1, "2^12"}}, {}, {}},
      {"fake/wrong", {{1024, 9.0, "2^10: 9 GB/s"}}, {{4096, "failed verification"}}, {}}};
  chart.references = {{1, "1 = cpu_serial/loop"}};
  return chart;
}

TEST(SvgChart, DrawsAPointPerFigureAndACrossWhereACellHasNone) {
  const std::string svg = svg_line_chart(two_series_chart());
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg;
  EXPECT_TRUE(svg.ends_with("</svg>\n")) << svg;
  EXPECT_EQ(count_of(svg, "<circle class=\"point\""), 3u) << svg;
  EXPECT_EQ(count_of(svg, "<path class=\"gap\""), 1u) << svg;
  EXPECT_TRUE(contains(svg, "<title>fake/wrong: failed verification</title>")) << svg;
  // The failed cell's series has one point: no line runs to where its figure would be.
  EXPECT_EQ(count_of(svg, "<polyline"), 1u) << svg;
  EXPECT_TRUE(contains(svg, "fake/wrong (1 not drawn)")) << svg;
  // Axes, ticks (2^10, 2^12 on the size axis), the labels and the reference line.
  EXPECT_TRUE(contains(svg, "2<tspan dy=\"-5\" font-size=\"9\">10</tspan>")) << svg;
  EXPECT_TRUE(contains(svg, "2<tspan dy=\"-5\" font-size=\"9\">12</tspan>")) << svg;
  EXPECT_TRUE(contains(svg, ">GB/s (log)</text>")) << svg;
  EXPECT_TRUE(contains(svg, ">1 = cpu_serial/loop</text>")) << svg;
}

// Colour by plugin, dash by variant: cuda_naive and cuda_optimized never look alike, however many
// series the chart has; two variants of one plugin share its colour.
TEST(SvgChart, SeriesOfOnePluginShareAColourAndDifferInDash) {
  LineChart chart;
  chart.title = "t";
  for (const char* name : {"cuda_naive/a", "cuda_naive/b", "cuda_optimized/a"}) {
    const std::string plugin = std::string(name).substr(0, std::string(name).find('/'));
    chart.series.push_back({name, {{1024, 2.0, "x"}, {4096, 3.0, "y"}}, {}, plugin});
  }
  const std::string svg = svg_line_chart(chart);
  const std::regex series("<g class=\"series\" stroke=\"(#[0-9a-f]+)\"");
  std::vector<std::string> colours;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), series); it != std::sregex_iterator();
       ++it) {
    colours.push_back((*it)[1]);
  }
  ASSERT_EQ(colours.size(), 3u) << svg;
  EXPECT_EQ(colours[0], colours[1]) << "one plugin, one colour";
  EXPECT_NE(colours[0], colours[2]) << "two plugins, two colours";
  EXPECT_EQ(count_of(svg, "stroke-dasharray=\"6 3\""), 2u) << "the second variant's dash, line "
                                                              "and legend";
}

// A run of one size or a comparison: a row per figure, an interval as a bar, a row without a
// figure saying why, a legend where rows share colours, every text escaped.
TEST(SvgDotChart, ARowPerFigureWithItsIntervalAndARowWithoutOneSaysWhy) {
  DotChart chart;
  chart.title = "new/base <b>";
  chart.x_label = "ratio";
  chart.rows = {{"reduce 1024 openmp/a", "slower", 1.3, 1.2, 1.4, "1.3"},
                {"reduce 1024 openmp/b", "same", 1.0, 0.98, 1.02, "1.0"},
                {"reduce 4096 openmp/a", "same", 1.01, std::nullopt, std::nullopt, "1.01"},
                {"reduce 4096 <x>/y", "same", std::nullopt, std::nullopt, std::nullopt,
                 "no % of peak on a side"}};
  chart.references = {{1, "1"}};
  const std::string svg = svg_dot_chart(chart);
  EXPECT_EQ(count_of(svg, "<circle class=\"point\""), 3u) << svg;
  EXPECT_EQ(count_of(svg, "<line class=\"interval\""), 2u) << svg;
  EXPECT_TRUE(contains(svg, "not drawn: no % of peak on a side")) << svg;
  EXPECT_TRUE(contains(svg, "<g class=\"legend\"")) << "rows share colours: " << svg;
  EXPECT_FALSE(contains(svg, "<b>")) << svg;
  EXPECT_FALSE(contains(svg, "<x>")) << svg;
  EXPECT_TRUE(contains(svg, ">0.5<") && contains(svg, ">2<")) << "a ratio axis 0.5..2: " << svg;
  EXPECT_EQ(svg, svg_dot_chart(chart)) << "the same bytes every time";
}

// Figures at double's edges (a crafted file's 5e-324 GB/s, 1.7e308) are rows without a dot, not
// an infinite axis with 2^31 ticks.
TEST(SvgDotChart, FiguresAtTheEdgesOfADoubleAreNotDrawn) {
  DotChart chart;
  chart.title = "edges";
  chart.rows = {{"tiny", "", 5e-324, std::nullopt, std::nullopt, "5e-324"},
                {"huge", "", 1.7e308, std::nullopt, std::nullopt, "1.7e308"},
                {"fine", "", 2.0, 1e-320, 1e308, "2"}};
  const std::string svg = svg_dot_chart(chart);
  EXPECT_LT(svg.size(), 20000u);
  EXPECT_EQ(count_of(svg, "<circle class=\"point\""), 1u) << svg;
  EXPECT_EQ(count_of(svg, "not drawn: "), 2u) << svg;
  EXPECT_FALSE(contains(svg, "nan")) << svg;
  EXPECT_FALSE(contains(svg, "inf")) << svg;
}

TEST(SvgChart, AFigureThatCannotSitOnTheLogAxisIsAGapNotAPoint) {
  LineChart chart = two_series_chart();
  chart.series[0].points[1].y = 0;
  const std::string svg = svg_line_chart(chart);
  EXPECT_EQ(count_of(svg, "<circle class=\"point\""), 2u) << svg;
  EXPECT_EQ(count_of(svg, "<path class=\"gap\""), 2u) << svg;
}

TEST(SvgChart, EscapesEveryTextAndGivesTheSameBytesEveryTime) {
  LineChart chart = two_series_chart();
  chart.title = "<script>alert(1)</script>";
  chart.series[0].name = "evil\xff<img src=x onerror=alert(1)>\x1b";
  chart.series[1].gaps[0].why = "error: </title><script>";
  const std::string svg = svg_line_chart(chart);
  for (const char* raw : {"<script", "<img", "\xff", "\x1b"}) {
    EXPECT_FALSE(contains(svg, raw)) << raw << " reached the SVG: " << svg;
  }
  EXPECT_TRUE(contains(svg, "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>")) << svg;
  EXPECT_TRUE(contains(svg, "evil\xef\xbf\xbd&lt;img src=x onerror=alert(1)&gt;\\x1b")) << svg;
  EXPECT_EQ(svg, svg_line_chart(chart));
}

// One run of two CPU plugins and a plugin whose answers are wrong, shared by the tests.
class Report : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<TempFolder>();
    CommandResult run = run_harness(
        {"--plugin-dir", fake_plugin_dir("wrong_answer"), "-p", "cpu_serial,openmp,fake_wrong",
         "-w", "reduce", "-s", "1000,4096", "-r", "3", "--warmup", "0", "--json", path(), "-q"});
    ASSERT_EQ(run.exit_code, 1) << "the wrong answers fail verification\n" << run.out << run.err;
  }
  static void TearDownTestSuite() { folder_.reset(); }
  static std::string path() { return folder_->file("run.json"); }
  static std::string file(const std::string& name) { return folder_->file(name); }

  static std::unique_ptr<TempFolder> folder_;
};
std::unique_ptr<TempFolder> Report::folder_;

TEST_F(Report, WritesOneSelfContainedPageWithTablesChartsAndTheCrossover) {
  const std::string out = file("one");
  CommandResult r = run_harness({"report", path(), "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "wrote " + out + "/index.html")) << r.err;
  const std::string page = read_text(out + "/index.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(contains(page, "<caption>results file: " + path() + "</caption>")) << page;
  EXPECT_TRUE(contains(page, "host peak")) << "the machine's facts";
  EXPECT_EQ(count_of(page, "<caption>reduce  n = "), 2u) << "a table per size";
  EXPECT_TRUE(contains(page, "<th>GB/s</th><th>%peak</th><th>%ref</th><th>speedup</th>")) << page;
  EXPECT_EQ(count_of(page, "<svg "), 2u) << "throughput and speedup of reduce";
  EXPECT_TRUE(contains(page, "crossover: CPU and GPU")) << page;
  EXPECT_FALSE(contains(page, "comparison: ")) << "one file: nothing to compare";
  // Nothing runs and nothing is fetched: no script, no link, no source, no url().
  for (const char* fetched : {"<script", "<link", "src=", "url(", "@import", "https://"}) {
    EXPECT_FALSE(contains(page, fetched)) << fetched;
  }
}

TEST_F(Report, ACellThatFailedVerificationIsMarkedNeverDrawnAsAPoint) {
  const std::string out = file("failed");
  ASSERT_EQ(run_harness({"report", path(), "--out", out}).exit_code, 0);
  const std::string page = read_text(out + "/index.html");
  EXPECT_TRUE(std::regex_search(page, std::regex("<tr class=\"alert\"><td class=\"text\">"
                                                 "fake_wrong</td>[^\n]*NO \\(")))
      << page;
  EXPECT_TRUE(std::regex_search(
      page, std::regex("<path class=\"gap\"[^>]*><title>fake_wrong/[^<]*: failed verification")))
      << page;
  EXPECT_FALSE(contains(page, "r=\"3.2\"><title>fake_wrong/")) << "a point for a wrong answer";
  EXPECT_TRUE(contains(page, "r=\"3.2\"><title>cpu_serial/")) << page;
}

TEST_F(Report, EscapesHostileTextFromTheFile) {
  nlohmann::json document = read_json(path());
  document["results"][0]["variant"] = "<script>alert(1)</script>\x1b[2J";
  document["results"][0]["status"] = "error";
  document["results"][0]["message"] = "<img src=x onerror=alert(1)>";
  document["context"]["host"]["name"] = "<b>host</b>&";
  const std::string hostile = file("hostile.json");
  write_file(hostile, document.dump());
  const std::string out = file("hostile");
  CommandResult r = run_harness({"report", hostile, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_text(out + "/index.html");
  for (const char* raw : {"<script", "<img", "<b>host", "\x1b"}) {
    EXPECT_FALSE(contains(page, raw)) << raw << " reached the page";
  }
  EXPECT_TRUE(contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J")) << page;
  EXPECT_TRUE(contains(page, "error: &lt;img src=x onerror=alert(1)&gt;")) << page;
  EXPECT_TRUE(contains(page, "&lt;b&gt;host&lt;/b&gt;&amp;")) << page;
}

TEST_F(Report, TwoFilesAddTheComparisonWithTheVerdictsOfCompare) {
  const std::string copy = file("again.json");
  write_file(copy, read_text(path()));
  const std::string out = file("two");
  ASSERT_EQ(run_harness({"report", path(), copy, "--out", out}).exit_code, 0);
  const std::string page = read_text(out + "/index.html");
  EXPECT_TRUE(contains(page, "comparison: " + copy + " against " + path())) << page;
  CommandResult compare = run_harness({"compare", path(), copy});
  std::smatch summary;
  ASSERT_TRUE(std::regex_search(compare.out, summary, std::regex("[^\n]* cells compared: [^\n]*")))
      << compare.out;
  EXPECT_TRUE(contains(page, summary.str())) << summary.str() << "\n" << page;
  EXPECT_TRUE(contains(page, "<th class=\"text\">verdict</th>")) << page;
  EXPECT_TRUE(contains(page, "<td class=\"text\">same</td>")) << page;
  EXPECT_TRUE(contains(page, "FAILED")) << "the wrong answers, shown and not compared";
}

TEST_F(Report, TheSummaryComesFirstAndTheComparisonIsDrawn) {
  nlohmann::json other = read_json(path());
  other["context"]["host"]["logical_cores"] = 96;  // another machine
  const std::string copy = file("elsewhere.json");
  write_file(copy, other.dump());
  const std::string out = file("summary");
  ASSERT_EQ(run_harness({"report", path(), copy, "--out", out}).exit_code, 0);
  const std::string page = read_text(out + "/index.html");
  const std::size_t summary = page.find("<h2 id=\"h1\">summary</h2>");
  const std::size_t first_file = page.find("<h2 id=\"h2\">file 1: ");
  ASSERT_NE(summary, std::string::npos) << page;
  ASSERT_NE(first_file, std::string::npos) << page;
  const std::string headline = page.substr(summary, first_file - summary);
  EXPECT_TRUE(contains(headline, "file 1 (" + path() + "): ")) << headline;
  EXPECT_TRUE(contains(headline, "file 2 (" + copy + "): ")) << headline;
  EXPECT_TRUE(contains(headline, "Different machines (CPU differ)")) << headline;
  EXPECT_TRUE(contains(headline, " cells compared: ")) << headline;
  const std::size_t comparison = page.find("comparison: " + copy);
  ASSERT_NE(comparison, std::string::npos);
  EXPECT_TRUE(contains(page.substr(comparison), "%peak new/base per cell (the machines differ)"))
      << page.substr(comparison);
}

TEST_F(Report, ARunOfOneSizeIsDrawnAsARowPerPlugin) {
  const std::string one = file("one_size.json");
  CommandResult run = run_harness({"-p", "cpu_serial,openmp", "-w", "reduce", "-s", "4096", "-r",
                                   "3", "--warmup", "0", "--json", one, "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string out = file("one_size");
  ASSERT_EQ(run_harness({"report", one, "--out", out}).exit_code, 0);
  const std::string page = read_text(out + "/index.html");
  EXPECT_EQ(count_of(page, "class=\"chart dot-chart\""), 2u) << "throughput and speedup: " << page;
  EXPECT_EQ(count_of(page, "<g class=\"series\""), 0u) << "no line of one dot";
  EXPECT_TRUE(contains(page, "reduce mod100 at 4096 (2^12): throughput")) << page;
}

// -p, -w, -s and --matched-only as compare takes them: the page shows the cells asked for, in its
// tables, charts and comparison, and says so at the top.
TEST_F(Report, FiltersKeepTheCellsAskedForEverywhereOnThePage) {
  nlohmann::json fewer = read_json(path());
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& cell : fewer["results"]) {
    if (cell["plugin"] != "openmp") kept.push_back(cell);  // the second file lacks openmp
  }
  fewer["results"] = kept;
  const std::string second = file("no_openmp.json");
  write_file(second, fewer.dump());

  const std::string out = file("filtered");
  ASSERT_EQ(
      run_harness({"report", path(), second, "--out", out, "-p", "cpu_serial,openmp", "-s", "4096"})
          .exit_code,
      0);
  const std::string page = read_text(out + "/index.html");
  EXPECT_TRUE(contains(page,
                       "Cells shown (the rest of each file is left out, here and in the "
                       "comparison): plugins cpu_serial, openmp; sizes 4096."))
      << page;
  EXPECT_FALSE(contains(page, "<td class=\"text\">fake_wrong</td>")) << "a plugin not asked for";
  EXPECT_FALSE(contains(page, "n = 1000 ")) << "a size not asked for";
  EXPECT_TRUE(std::regex_search(page, std::regex("[1-9][0-9]* only in base, 0 only in new")))
      << "openmp's cells at 4096, in the first file only: " << page;

  const std::string matched = file("matched");
  ASSERT_EQ(run_harness({"report", path(), second, "--out", matched, "--matched-only"}).exit_code,
            0);
  const std::string both = read_text(matched + "/index.html");
  EXPECT_TRUE(contains(both, "only cells every file holds")) << both;
  EXPECT_TRUE(contains(both, "<td class=\"text\">cpu_serial</td>")) << both;
  EXPECT_FALSE(contains(both, "<td class=\"text\">openmp</td>"))
      << "cells one file lacks, left out of both";
  EXPECT_TRUE(contains(both, "0 only in base, 0 only in new")) << both;

  CommandResult bad = run_harness({"report", path(), "--out", file("bad"), "-s", "lots"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

// A selection that keeps no cell (a misspelt plugin) would write a page of nothing that passes
// for a good one: refused with what the files hold, and no page; an empty run without a
// selection still gets its page.
TEST_F(Report, ASelectionThatKeepsNoCellWritesNoPage) {
  for (const std::vector<std::string>& selection :
       {std::vector<std::string>{"-p", "cpu_seral"}, std::vector<std::string>{"-w", "scan"},
        std::vector<std::string>{"-p", "openmp", "-s", "2000"}}) {
    std::vector<std::string> args{"report", path(), "--out", file("nothing")};
    args.insert(args.end(), selection.begin(), selection.end());
    CommandResult r = run_harness(args);
    EXPECT_EQ(r.exit_code, 2) << selection[1] << ": " << r.err;
    EXPECT_TRUE(contains(r.err,
                         "keeps no cell of the files, which hold plugins cpu_serial, "
                         "fake_wrong, openmp and workloads reduce; no page written"))
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(file("nothing"))) << selection[1];
  }
  // Files that share no cell, with --matched-only: that is said, not the selection blamed.
  nlohmann::json scan_only = read_json(path());
  for (nlohmann::json& cell : scan_only["results"]) cell["workload"] = "scan";
  write_file(file("scan_only.json"), scan_only.dump());
  CommandResult apart = run_harness({"report", path(), file("scan_only.json"), "--matched-only",
                                     "-p", "cpu_serial", "--out", file("nothing")});
  EXPECT_EQ(apart.exit_code, 2) << apart.err;
  EXPECT_TRUE(contains(apart.err,
                       "no cell is in every file (--matched-only): the files share no "
                       "cell of those the selection keeps; no page written"))
      << apart.err;
  EXPECT_FALSE(std::filesystem::exists(file("nothing")));

  nlohmann::json empty = read_json(path());
  empty["results"] = nlohmann::json::array();
  write_file(file("empty.json"), empty.dump());
  CommandResult r = run_harness({"report", file("empty.json"), "--out", file("empty_page")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(file("empty_page") + "/index.html"));
}

TEST_F(Report, TheSameFileGivesTheSamePage) {
  ASSERT_EQ(run_harness({"report", path(), "--out", file("a")}).exit_code, 0);
  ASSERT_EQ(run_harness({"report", path(), "--out", file("b")}).exit_code, 0);
  EXPECT_EQ(read_text(file("a") + "/index.html"), read_text(file("b") + "/index.html"));
}

TEST_F(Report, RefusesBadInputAndAnOutThatCannotBeAFolderWithExitTwo) {
  CommandResult none = run_harness({"report", "--out", file("x")});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.err, "harness report: report needs a results file")) << none.err;
  CommandResult no_out = run_harness({"report", path()});
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_TRUE(contains(no_out.err, "needs --out DIR")) << no_out.err;
  CommandResult missing = run_harness({"report", file("missing.json"), "--out", file("x")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, file("missing.json"))) << missing.err;
  const std::string malformed = file("malformed.json");
  write_file(malformed, "{\"schema_version\": 2, \"results\": [");
  CommandResult cut = run_harness({"report", path(), malformed, "--out", file("x")});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_TRUE(contains(cut.err, malformed + ": ")) << cut.err;
  const std::string odd = file("odd.json");
  write_file(odd, "{\"schema_version\": 2, \"results\": [], \"context\": {\"x\": \"\xff<\"}}");
  CommandResult odd_bytes = run_harness({"report", odd, "--out", file("x")});
  EXPECT_EQ(odd_bytes.exit_code, 2);
  EXPECT_FALSE(contains(odd_bytes.err, "\xff")) << "the message shows the byte escaped";
  EXPECT_FALSE(std::filesystem::exists(file("x"))) << "nothing written for bad input";
  // A folder under a regular file cannot be made; a regular file is not a folder: usage errors,
  // refused before the page is made (as every output path is before the work).
  CommandResult under_file = run_harness({"report", path(), "--out", path() + "/report"});
  EXPECT_EQ(under_file.exit_code, 2);
  EXPECT_TRUE(contains(under_file.err, "'" + path() + "' is a file, not a folder"))
      << under_file.err;
  CommandResult on_file = run_harness({"report", path(), "--out", path()});
  EXPECT_EQ(on_file.exit_code, 2);
  EXPECT_TRUE(contains(on_file.err, "is a file, not a folder")) << on_file.err;
  CommandResult help = run_harness({"report", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "usage: harness report FILE.json")) << help.out;
}

}  // namespace
}  // namespace plugbench
