// test_output_formats.cpp: one row model, four writers: the console table, markdown and CSV, for
// the tables of a run (--format) and for any TextTable, and HTML for harness report's page.
#include "render/text_table.hpp"

#include "base/usage_error.hpp"
#include "results/export_format.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::lines_of;
using plugbench::testing::run_harness;

TextTable sample_table() {
  TextTable table;
  table.title = "reduce  n = 1024";
  table.context = {{"workload", "reduce"}, {"n", "1024"}};
  table.columns = {{"plugin", "plugin", true}, {"ms", "ms"}, {"verified", "verified", true}};
  table.rows = {{{"cpu_serial", "1.5", "yes (1.0e-07 <= 1.0e-05)"}, ""},
                {{"openmp", "", "NO, \"wrong\" | off by one"}, ""},
                {{"cuda_naive"}, "unavailable: no CUDA device"}};
  table.notes = {"(a note)"};
  return table;
}

TEST(TableWriter, ConsoleAlignsColumnsAndShowsMissingValuesAsDashes) {
  std::ostringstream out;
  TableWriter(out, OutputFormat::console).write(sample_table());
  std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 7u) << out.str();
  EXPECT_EQ(lines[1], "reduce  n = 1024");
  EXPECT_EQ(lines[2], "plugin       ms  verified");
  EXPECT_EQ(lines[3], "cpu_serial  1.5  yes (1.0e-07 <= 1.0e-05)");
  EXPECT_EQ(lines[4], "openmp        -  NO, \"wrong\" | off by one");
  EXPECT_EQ(lines[5], "cuda_naive  unavailable: no CUDA device");
  EXPECT_EQ(lines[6], "(a note)");
}

// Wider than 120 columns: titles wrap over their values first (at spaces), then the widest text
// column wraps its values; numbers are never cut, and a table that fits is left alone.
TEST(TableWriter, AConsoleTableWiderThanATerminalWrapsTitlesThenText) {
  TextTable table;
  table.title = "wide";
  table.columns = {{"name", "name", true}};
  for (int i = 0; i < 8; ++i)
    table.columns.push_back({"a long title " + std::string(1, 'p' + i), "c"});
  table.columns.push_back({"description", "d", true});
  TableRow row;
  row.cells = {"cpu_serial/lsd_radix_combining_11bit"};
  for (int i = 0; i < 8; ++i) row.cells.push_back("12345.6");
  row.cells.push_back("a sentence of several words that says why, too long for the line");
  table.rows.push_back(row);
  std::ostringstream out;
  TableWriter(out, OutputFormat::console, TableWriter::kTerminalColumns).write(table);
  std::vector<std::string> lines = lines_of(out.str());
  for (const std::string& line : lines) EXPECT_LE(line.size(), 120u) << out.str();
  EXPECT_EQ(lines.at(2).substr(0, 4), "name") << out.str();
  EXPECT_TRUE(contains(out.str(), "a long")) << out.str();  // a title broken at a space
  EXPECT_TRUE(contains(out.str(), "title p")) << out.str();
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '5'), 8) << "every number whole";
  std::string joined;
  for (const std::string& line : lines) joined += line + " ";
  for (const char* word : {"several", "words", "says", "line"}) {
    EXPECT_TRUE(contains(joined, word)) << word << "\n" << out.str();
  }

  // Without a width (show, a run's tables) nothing wraps: a name wider than its column on a row
  // with a note runs over, whole.
  TextTable noted;
  noted.title = "t";
  noted.columns = {{"plugin", "plugin", true}, {"ms", "ms"}};
  noted.rows = {{{"cpu_serial", "1.0"}, ""}, {{"cuda_optimized"}, "unavailable: no CUDA device"}};
  std::ostringstream unbounded;
  TableWriter(unbounded, OutputFormat::console).write(noted);
  EXPECT_TRUE(contains(unbounded.str(), "cuda_optimized  unavailable: no CUDA device"))
      << unbounded.str();

  std::ostringstream narrow;
  TableWriter(narrow, OutputFormat::console, TableWriter::kTerminalColumns).write(sample_table());
  EXPECT_EQ(lines_of(narrow.str()).at(2), "plugin       ms  verified") << "a table that fits";
}

TEST(TableWriter, MarkdownEscapesPipesAndPutsNotesInTheLastColumn) {
  std::ostringstream out;
  TableWriter(out, OutputFormat::md).write(sample_table());
  std::vector<std::string> lines = lines_of(out.str());
  ASSERT_GE(lines.size(), 8u) << out.str();
  EXPECT_EQ(lines[1], "#### reduce  n = 1024");
  EXPECT_EQ(lines[3], "| plugin | ms | verified |");
  EXPECT_EQ(lines[4], "|---|--:|---|");
  EXPECT_EQ(lines[6], "| openmp | - | NO, \"wrong\" \\| off by one |");
  EXPECT_EQ(lines[7], "| cuda_naive |  | unavailable: no CUDA device |");
}

TEST(TableWriter, MarkdownEscapesHtmlLinksAndCodeFromPluginText) {
  TextTable table = sample_table();
  table.rows[0].cells[0] = "<img src=x onerror=alert(1)> [click](http://e.example) `x` a\\";
  std::ostringstream out;
  TableWriter(out, OutputFormat::md).write(table);
  const std::string text = out.str();
  EXPECT_FALSE(contains(text, "<img")) << text;
  EXPECT_TRUE(contains(text,
                       "&lt;img src=x onerror=alert(1)&gt; \\[click\\](http://e.example) "
                       "\\`x\\` a\\\\ |"))
      << text;
}

TEST(TableWriter, HtmlEscapesEveryTextAndSpansANoteOverTheColumnsItDoesNotFill) {
  TextTable table = sample_table();
  table.title = "<script>alert(1)</script>";
  table.rows[1].alert = true;
  table.rows[2].note = "unavailable: <img src=x onerror=alert(1)> \xff\x1b[2J";
  std::ostringstream out;
  TableWriter(out, OutputFormat::html).write(table);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<table>\n<caption>&lt;script&gt;alert(1)&lt;/script&gt;</caption>", 0), 0u)
      << html;
  EXPECT_NE(html.find("<th class=\"text\">plugin</th><th>ms</th><th class=\"text\">verified</th>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr class=\"alert\"><td class=\"text\">openmp</td><td>-</td>"
                      "<td class=\"text\">NO, &quot;wrong&quot; | off by one</td></tr>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><td class=\"text\">cuda_naive</td><td class=\"note\" colspan=\"2\">"
                      "unavailable: &lt;img src=x onerror=alert(1)&gt; \xef\xbf\xbd\\x1b[2J</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<p class=\"note\">(a note)</p>"), std::string::npos) << html;
  for (const char* raw : {"<script", "<img", "\xff", "\x1b"}) {
    EXPECT_EQ(html.find(raw), std::string::npos) << raw << " reached the page: " << html;
  }
}

TEST(TableWriter, CsvHasOneHeaderContextColumnsAndQuotedFields) {
  std::ostringstream out;
  TableWriter writer(out, OutputFormat::csv);
  writer.write(sample_table());
  writer.write(sample_table());  // a second table adds rows, not a header
  std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 7u) << out.str();
  EXPECT_EQ(lines[0], "workload,n,plugin,ms,verified");
  EXPECT_EQ(lines[1], "reduce,1024,cpu_serial,1.5,yes (1.0e-07 <= 1.0e-05)");
  EXPECT_EQ(lines[2], "reduce,1024,openmp,,\"NO, \"\"wrong\"\" | off by one\"");
  EXPECT_EQ(lines[3], "reduce,1024,cuda_naive,,unavailable: no CUDA device");
  EXPECT_EQ(lines[4], lines[1]);
}

TEST(TableWriter, CsvPrefixesFieldsASpreadsheetWouldRunAndKeepsNumbersAndDashes) {
  EXPECT_EQ(csv_field("=HYPERLINK(\"http://e.example\",\"x\")"),
            "\"'=HYPERLINK(\"\"http://e.example\"\",\"\"x\"\")\"");
  EXPECT_EQ(csv_field("+cmd"), "'+cmd");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("-1+2"), "-1+2");  // digits and signs only: a number or sum of numbers
  EXPECT_EQ(csv_field("-x"), "'-x");
  EXPECT_EQ(csv_field("\tx"), "'\tx");
  EXPECT_EQ(csv_field("-1.5e-3"), "-1.5e-3");
  EXPECT_EQ(csv_field("+10.0 %"), "+10.0 %");  // a step as the history's tables write it
  EXPECT_EQ(csv_field("+x %"), "'+x %");
  EXPECT_EQ(csv_field("-"), "-");
  EXPECT_EQ(csv_field("cpu_serial"), "cpu_serial");
}

TEST(RunFormats, CsvIsTheHeaderAndOneLinePerCellWithTheSummaryOnStderr) {
  CommandResult r =
      run_harness({"-p", "cpu_serial,openmp,fake_unavailable", "--plugin-dir",
                   fake_plugin_dir("unavailable"), "-w", "reduce,scan", "-s", "1000,2000", "-v",
                   "loop,parallel_for,two_pass", "-r", "2", "--no-json", "-q", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::vector<std::string> lines = lines_of(r.out);
  // 2 workloads x 2 sizes x 3 plugins (one of them unavailable)
  ASSERT_EQ(lines.size(), 1u + 12u) << r.out;
  EXPECT_EQ(lines[0],
            "workload,n,distribution,rate_unit,plugin,variant,kernel_ms,kernel_cv_percent,"
            "end_to_end_ms,copy_in_ms,copy_out_ms,rate,percent_of_peak,percent_of_reference,"
            "speedup,speedup_interval,verified");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), ','), 16) << lines[i];
  }
  EXPECT_NE(r.out.find("reduce,1000,mod100,GB/s,cpu_serial,loop,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unavailable: fake device is switched off"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("12 cells: 8 ok"), std::string::npos) << r.err;
}

// One name table: what --format takes is what is written, and "markdown" is an alias of md that is
// never written nor offered.
TEST(OutputFormatNames, ParseWhatIsWrittenAndTheAlias) {
  for (OutputFormat format : {OutputFormat::console, OutputFormat::md, OutputFormat::csv}) {
    EXPECT_EQ(parse_output_format(to_string(format)), format) << to_string(format);
  }
  EXPECT_EQ(parse_output_format("markdown"), OutputFormat::md);
  EXPECT_STREQ(to_string(OutputFormat::md), "md");
  try {
    parse_output_format("html", "to");
    ADD_FAILURE() << "html is not a --format";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--to 'html' is not one of: console, md, csv");
  }
}

// One name table for the export formats: what --to and --format take is what to_string writes,
// and the usage lines and the message list the same names.
TEST(ExportFormatNames, ParseWhatIsWrittenAndListTheSameNamesEverywhere) {
  for (ExportFormat format : {ExportFormat::gbench, ExportFormat::bmf, ExportFormat::gab}) {
    EXPECT_EQ(export_format_named(to_string(format)), format) << to_string(format);
  }
  EXPECT_STREQ(to_string(ExportFormat::bmf), "bmf");
  EXPECT_FALSE(export_format_named("csv"));
  EXPECT_FALSE(export_format_named("GBENCH"));
  EXPECT_EQ(names_in(kExportFormatNames), "gbench, bmf, gab");
  const CommandResult wrong = run_harness({"export", "run.json", "--to", "xml"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_TRUE(contains(wrong.err, "--to 'xml' is not one of: gbench, bmf, gab")) << wrong.err;
  EXPECT_TRUE(contains(run_harness({"export", "--help"}).out,
                       "usage: harness export FILE.json --to gbench|bmf|gab [--out PATH]"));
  EXPECT_TRUE(contains(run_harness({"--help"}).out,
                       "harness export FILE.json --to gbench|bmf|gab  (harness export --help)"));
}

TEST(RunFormats, MarkdownHasATablePerProblem) {
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "1000,2000", "-r", "2",
                                 "--no-json", "-q", "--format", "md"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = lines_of(r.out);
  int headings = 0, alignment_rows = 0;
  for (const std::string& line : lines) {
    if (line.rfind("#### reduce  n = ", 0) == 0) ++headings;
    if (line.rfind("|---|---|--:|", 0) == 0) ++alignment_rows;
  }
  EXPECT_EQ(headings, 2) << r.out;
  EXPECT_EQ(alignment_rows, 2) << r.out;
  EXPECT_NE(r.out.find("| cpu_serial | loop |"), std::string::npos) << r.out;
  EXPECT_NE(run_harness({"--format", "xml", "--dry-run"}).err.find("--format 'xml' is not one of"),
            std::string::npos);
}

}  // namespace
}  // namespace plugbench
