// test_plugin_output.cpp: what becomes of a plugin's stdout and stderr. In a worker process it is
// captured: the tables carry none of it, the lines under a table name the cell they came from,
// the results file keeps the first lines and the byte count, and a 100 MB flood neither hangs
// the run nor reaches the terminal. In-process (--isolation none) it goes to stderr; while a
// library is discovered it is reported on stderr. Also the smaller promises around a plugin's
// words: an unsupported kernel's own reason, --list's columns, the library's absolute path.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::lines_of;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

// fake_noisy's `variants` on reduce at `sizes`, three samples, results to `json_path`.
std::vector<std::string> noisy_run(const std::string& variants, const std::string& sizes,
                                   const std::string& json_path) {
  return {"--plugin-dir", fake_plugin_dir("noisy"), "-p", "fake_noisy", "-v", variants, "-w",
          "reduce", "-s", sizes, "-r", "3", "--warmup", "0", "--cache", "warm",
          // A flood that hung the harness would end as a timeout, not as an ok cell.
          "--timeout", "120", "--json", json_path, "-q"};
}

// The variant by pointer: a std::string argument would be a temporary bound to a reference, which
// GCC 13's -Wdangling-reference reports for every caller that keeps the returned reference.
const nlohmann::json& only_cell(const nlohmann::json& results, const char* variant,
                                std::uint64_t n) {
  const nlohmann::json* found = nullptr;
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["variant"] == variant && cell["n"] == n) {
      EXPECT_EQ(found, nullptr) << "two cells for " << variant;
      found = &cell;
    }
  }
  if (found == nullptr)
    throw std::runtime_error(std::string("no cell ") + variant + " n=" + std::to_string(n));
  return *found;
}

// Every line of the tables that holds `text` is one of the lines under a table that name `who`.
// The harness's own note on a cell measured while other processes ran (as other tests do) names
// the cell too: it is not the plugin's output.
void expect_only_under_the_table(const std::string& out, const std::string& text,
                                 const std::string& who) {
  for (const std::string& line : lines_of(out)) {
    if (!contains(line, text) || contains(line, ": busy machine: other processes used ")) continue;
    const bool heading = line.rfind(who + ": the plugin wrote ", 0) == 0;
    const bool quoted = line.rfind("  " + who + "> ", 0) == 0;
    EXPECT_TRUE(heading || quoted) << line;
  }
}

TEST(PluginOutput, AFewLinesGoUnderTheTableAndIntoTheResultsNotIntoTheTable) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(noisy_run("chatty,quiet", "1000", path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json results = read_json(path);
  const nlohmann::json& chatty = only_cell(results, "chatty", 1000);
  EXPECT_EQ(chatty["status"], "ok") << chatty.dump();

  // Stdout (stdio and iostreams, flushed by the worker before it answers), stderr and write(2).
  const std::vector<std::string> written = {
      "chatty: first line on stdout\n",
      "chatty: \x1b[31mred\x1b[0m and a bad byte \xff here\n",
      "chatty: a line on stderr\n",
      "chatty: written with write(2)\n",
  };
  std::uint64_t bytes = 0;
  for (const std::string& line : written) bytes += line.size();
  ASSERT_TRUE(chatty.contains("output")) << chatty.dump();
  EXPECT_EQ(chatty["output"]["bytes"], bytes);
  const std::vector<std::string> kept = chatty["output"]["first_lines"];
  ASSERT_EQ(kept.size(), 4u) << chatty["output"].dump();
  // Kept as valid UTF-8: the stray byte is U+FFFD; the escape stays (JSON escapes it).
  for (const std::string expected : {"chatty: first line on stdout",
                                     "chatty: \x1b[31mred\x1b[0m and a bad byte \xef\xbf\xbd here",
                                     "chatty: a line on stderr", "chatty: written with write(2)"}) {
    EXPECT_NE(std::find(kept.begin(), kept.end(), expected), kept.end()) << expected;
  }
  // A plugin that wrote nothing has no output field.
  EXPECT_FALSE(only_cell(results, "quiet", 1000).contains("output"));

  // The table: the plugin's lines below it, each naming the cell, escaped for the terminal.
  EXPECT_TRUE(contains(r.out, "fake_noisy/chatty: the plugin wrote " + std::to_string(bytes) +
                                  " bytes to stdout/stderr; the first:"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  fake_noisy/chatty> chatty: first line on stdout\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "chatty: \\x1b[31mred\\x1b[0m and a bad byte \xef\xbf\xbd here"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "\x1b")) << r.out;
  expect_only_under_the_table(r.out, "chatty:", "fake_noisy/chatty");
  // Nothing of it reaches the terminal by another way.
  EXPECT_FALSE(contains(r.err, "chatty:")) << r.err;
}

TEST(PluginOutput, AHundredMegabyteFloodIsCountedNotPrinted) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(noisy_run("flood,quiet", "1000,1001", path));
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 4096) << r.err.substr(0, 4096);
  const nlohmann::json results = read_json(path);
  const nlohmann::json& flooded = only_cell(results, "flood", 1000);
  EXPECT_EQ(flooded["status"], "ok") << flooded["message"];
  const std::string first = "flood: the first line\n";
  EXPECT_EQ(flooded["output"]["bytes"], 100u * 10000u * 100u + first.size());
  const std::vector<std::string> kept = flooded["output"]["first_lines"];
  ASSERT_EQ(kept.size(), 10u);
  EXPECT_EQ(kept[0], "flood: the first line");
  EXPECT_EQ(kept[1], std::string(99, 'x'));
  // The same worker's next cell: quiet again, and verified.
  const nlohmann::json& after = only_cell(results, "flood", 1001);
  EXPECT_EQ(after["status"], "ok");
  EXPECT_FALSE(after.contains("output")) << after["output"].dump();
  // Neither stream carries the flood: a few lines under the table, nothing on stderr.
  EXPECT_LT(r.out.size(), 16384u);
  EXPECT_LT(r.err.size(), 4096u) << r.err.substr(0, 4096);
  expect_only_under_the_table(r.out, "xxxxxxxxxx", "fake_noisy/flood");
}

TEST(PluginOutput, OnRequestItIsAlsoCopiedToStderrAsItComes) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  std::vector<std::string> arguments = noisy_run("chatty", "1000", path);
  arguments.push_back("--plugin-output-to-stderr");
  CommandResult r = run_harness(arguments);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "chatty: first line on stdout\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "chatty: a line on stderr\n")) << r.err;
  EXPECT_EQ(only_cell(read_json(path), "chatty", 1000)["output"]["first_lines"].size(), 4u);
  expect_only_under_the_table(r.out, "chatty:", "fake_noisy/chatty");
}

TEST(PluginOutput, InProcessRunsSendItToStderrNotIntoTheTables) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  std::vector<std::string> arguments = noisy_run("chatty", "1000", path);
  arguments.insert(arguments.end(), {"--isolation", "none"});
  CommandResult r = run_harness(arguments);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Not "chatty:" alone: the harness's note on a busy machine names the cell (fake_noisy/chatty:).
  EXPECT_FALSE(contains(r.out, "chatty: first line")) << r.out;
  EXPECT_FALSE(contains(r.out, "chatty: a line")) << r.out;
  EXPECT_TRUE(contains(r.err, "chatty: first line on stdout")) << r.err;
  EXPECT_TRUE(contains(r.err, "chatty: a line on stderr")) << r.err;
  EXPECT_TRUE(contains(r.out, "fake_noisy")) << r.out;  // the table itself is there
  EXPECT_FALSE(only_cell(read_json(path), "chatty", 1000).contains("output"));
}

TEST(PluginOutput, WhatALibraryPrintsWhileLoadingIsReportedOnStderr) {
  CommandResult list = run_harness({"--list", "--plugin-dir", fake_plugin_dir("noisy_on_load")});
  ASSERT_EQ(list.exit_code, 0) << list.out << list.err;
  EXPECT_FALSE(contains(list.out, "noisy:")) << list.out;
  EXPECT_TRUE(std::regex_search(list.out, std::regex("\n  fake_noisy_on_load +available")))
      << list.out;
  // Said once, by the child that screened it (its stderr line first: its stdout is flushed at
  // its end); the harness's own load of the library is silent.
  EXPECT_TRUE(contains(list.err,
                       "libplugbench_fake_noisy_on_load.so wrote 75 bytes to "
                       "stdout/stderr while it was loaded and probed (kept out of the "
                       "tables); the first line: noisy: static constructor on stderr\n"))
      << list.err;
  EXPECT_EQ(lines_of(list.err).size(), 1u) << list.err;

  TempFolder folder;
  CommandResult run = run_harness({"--plugin-dir", fake_plugin_dir("noisy_on_load"), "-p",
                                   "fake_noisy_on_load", "-v", "quiet", "-w", "reduce", "-s",
                                   "1000", "-r", "3", "--json", folder.file("r.json"), "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  expect_only_under_the_table(run.out, "noisy:", "fake_noisy_on_load/quiet");
}

TEST(PluginOutput, AKernelsOwnUnsupportedReasonIsKeptAndShown) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r = run_harness(noisy_run("picky", "1000,2000", path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json results = read_json(path);
  EXPECT_EQ(only_cell(results, "picky", 1000)["status"], "ok");
  const nlohmann::json& refused = only_cell(results, "picky", 2000);
  EXPECT_EQ(refused["status"], "unsupported");
  EXPECT_EQ(refused["message"],
            "the kernel refused the problem: needs n <= 1000: one tile of "
            "scratch");
  EXPECT_TRUE(std::regex_search(
      r.out,
      std::regex("fake_noisy +picky +unsupported: the kernel refused the problem: needs n <= "
                 "1000: one tile of scratch")))
      << r.out;
}

TEST(CheckPlugin, AnUnsupportedKernelsReasonIsShown) {
  CommandResult r =
      run_harness({"--check-plugin", fake_plugin_dir("noisy") + "/libplugbench_fake_noisy.so", "-v",
                   "picky", "-w", "reduce"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // n = 4099, 65537 and 1000003 on each of reduce's three distributions are refused, in the
  // kernel's words.
  EXPECT_TRUE(contains(r.out,
                       "reduce/picky: ok, 18 of 27 problems verified (9 unsupported, the "
                       "first: "))
      << r.out;
  EXPECT_TRUE(contains(r.out, "needs n <= 1000: one tile of scratch)")) << r.out;
}

TEST(Cli, ListKeepsALongBrokenFileNameApartFromItsStatus) {
  CommandResult r = run_harness({"--list", "--plugin-dir", fake_plugin_dir("no_entry")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  libplugbench_fake_no_entry\\.so  +broken  +"
                                                  "not a plugbench plugin")))
      << r.out;
}

TEST(Cli, TheResultsFileRecordsEachPluginsAbsolutePath) {
  // The folder named relative to where the harness runs.
  const std::filesystem::path folder = fake_plugin_dir("noisy");
  TempFolder results;
  CommandResult r = run_harness(
      {"--plugin-dir", "./" + folder.filename().string(), "-p", "fake_noisy", "-v", "quiet", "-w",
       "reduce", "-s", "1000", "-r", "3", "--json", results.file("r.json"), "-q"},
      "cd '" + folder.parent_path().string() + "' && ");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string expected =
      std::filesystem::canonical(folder / "libplugbench_fake_noisy.so").string();
  bool found = false;
  const nlohmann::json plugins = read_json(results.file("r.json"))["context"]["plugins"];
  ASSERT_FALSE(plugins.empty());
  for (const nlohmann::json& plugin : plugins) {
    const std::string recorded = plugin["path"];
    EXPECT_TRUE(std::filesystem::path(recorded).is_absolute()) << recorded;
    found = found || recorded == expected;
  }
  EXPECT_TRUE(found) << "no plugin recorded as " << expected;
}

}  // namespace
}  // namespace plugbench
