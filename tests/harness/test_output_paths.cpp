// test_output_paths.cpp: every output path (the harness's --json, export's and report's --out) is
// checked before the work: a missing folder is made then, a path that cannot work is a usage
// error then, never a failure after the run.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

namespace fs = std::filesystem;
using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

const std::vector<std::string> kSmallRun = {"-p",   "cpu_serial", "-w",   "reduce", "-s",
                                            "1000", "-v",         "loop", "-r",     "3"};

std::vector<std::string> with(std::vector<std::string> arguments,
                              const std::vector<std::string>& more) {
  arguments.insert(arguments.end(), more.begin(), more.end());
  return arguments;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(CliOutputPaths, AFileUsedAsAFolderIsAUsageErrorBeforeTheFirstCell) {
  TempFolder folder;
  const std::string log = folder.file("log.md");
  write_file(log, "not a folder\n");
  CommandResult r = run_harness(with(kSmallRun, {"--json", log + "/x.json"}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--json '" + log + "/x.json': '" + log + "' is a file, not a folder"))
      << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing may run: " << r.out;
  EXPECT_FALSE(contains(r.err, "[1/1]")) << "no cell may start: " << r.err;
}

TEST(CliOutputPaths, AFolderNameIsRefusedBeforeTheRunAndNotMade) {
  TempFolder folder;
  const std::string named = folder.file("newdir") + "/";
  CommandResult r = run_harness(with(kSmallRun, {"--json", named}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--json '" + named + "' names a folder, not a file")) << r.err;
  EXPECT_TRUE(contains(r.err, named + "results.json")) << "an example of what to name: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(folder.file("newdir"))) << "a refused path leaves nothing behind";
}

// The folder exists while the first cell runs (a hang, announced by its marker): made before it.
TEST(CliOutputPaths, AMissingFolderIsMadeBeforeTheFirstCell) {
  TempFolder folder;
  const std::string marker = folder.file("hanging");
  const std::string json = folder.file("new/sub/r.json");
  const std::string seen = folder.file("seen");
  // When the hang is on, the folder's existence is noted, then the run is interrupted.
  const std::string prefix = "export PLUGBENCH_FAKE_HANG_MARKER='" + marker +
                             "'; (for i in $(seq 600); do [ -e '" + marker +
                             "' ] && break; sleep 0.1; done; [ -d '" + folder.file("new/sub") +
                             "' ] && touch '" + seen + "'; kill -INT $$) & exec ";
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("hang"), "-p", "fake_hang", "-w", "reduce", "-s",
                   "1000", "-v", "fake_loop", "-r", "3", "--timeout", "0", "--json", json},
                  prefix);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_TRUE(fs::exists(seen)) << "the folder did not exist while the first cell ran";
  EXPECT_TRUE(fs::exists(json)) << "the interrupted run's file: " << r.err;
}

TEST(CliOutputPaths, ExportRefusesAnOutUnderAFileBeforeWriting) {
  TempFolder folder;
  const std::string results = folder.file("r.json");
  ASSERT_EQ(run_harness(with(kSmallRun, {"--json", results, "-q"})).exit_code, 0);
  const std::string log = folder.file("log.md");
  write_file(log, "not a folder\n");
  CommandResult r = run_harness({"export", results, "--to", "gbench", "--out", log + "/x.json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--out '" + log + "/x.json': '" + log + "' is a file, not a folder"))
      << r.err;
  CommandResult made =
      run_harness({"export", results, "--to", "gbench", "--out", folder.file("new/x.json")});
  EXPECT_EQ(made.exit_code, 0) << made.err;
  EXPECT_TRUE(fs::exists(folder.file("new/x.json")));
}

}  // namespace
}  // namespace plugbench
