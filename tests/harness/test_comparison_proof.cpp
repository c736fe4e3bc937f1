// test_comparison_proof.cpp: the comparison's promise on this machine, at a small size: runs of
// the same build in alternation (A B A B A B) are never called different, and a plugin made 15 %
// slower (the fake_slowdown plugin) is called slower, the cell beside it not. Slow (six harness
// runs each, full calibration), run alone so that no other test is the neighbour it measures.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::csv_rows;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

// A run with the full calibration: its reference loop, over buffers larger than the caches, is
// what a host cell's time is compared against (a quick calibration's loop fits in the caches).
std::string run_once(TempFolder& folder, const std::string& name, const char* slowdown,
                     const std::string& repetitions = "10") {
  const std::string path = folder.file(name);
  const std::string prefix =
      std::string("unset PLUGBENCH_CALIBRATION; ") +
      (slowdown ? std::string("export PLUGBENCH_FAKE_SLOWDOWN=") + slowdown + "; " : "");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("slowdown"), "-p", "cpu_serial,fake_slowdown",
                   "-w", "reduce", "-s", "2^20", "-r", repetitions, "--json", path, "-q"},
                  prefix);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return path;
}

std::vector<std::string> side(const std::string& option, const std::vector<std::string>& files) {
  std::vector<std::string> arguments;
  for (const std::string& file : files) arguments.insert(arguments.end(), {option, file});
  return arguments;
}

CommandResult compare_runs(const std::vector<std::string>& base,
                           const std::vector<std::string>& news) {
  std::vector<std::string> arguments = {"compare", "--format", "csv"};
  for (auto part : {side("--base", base), side("--new", news)}) {
    arguments.insert(arguments.end(), part.begin(), part.end());
  }
  return run_harness(arguments);
}

// The cells called faster or slower.
int verdicts(const CommandResult& r) {
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.out << r.err;
  int called = 0;
  for (const auto& row : csv_rows(r.out)) {
    const bool differs = row.at("verdict") == "slower" || row.at("verdict") == "faster";
    called += differs ? 1 : 0;
    if (differs) {
      std::cout << "called " << row.at("verdict") << ": " << row.at("plugin")
                << " n=" << row.at("n") << " " << row.at("ratio") << " " << row.at("ratio_interval")
                << " " << row.at("why") << "\n";
    }
  }
  return called;
}

// Three pairs of one build, a b a b a b. Three runs a side, as the docs recommend: no cell called
// faster or slower. One run a side, alone and over the history of the other runs, is printed. Pair
// by pair (one run a side) the calls are printed, and only all six cells called fails: one run a
// side cannot see how much whole runs differ (docs/comparing-results.md says it will sometimes call
// a cell that did not change), and on the GPU machine's 16-vCPU host it did (fake_slowdown at 2^20
// called 0.84 faster in one pair and 1.18 slower in another).
TEST(ComparisonProof, RunsOfOneBuildAreNeverCalledDifferent) {
  TempFolder folder;
  std::vector<std::string> a, b;
  int pairwise = 0;
  for (int i = 1; i <= 3; ++i) {
    a.push_back(run_once(folder, "a" + std::to_string(i) + ".json", nullptr));
    b.push_back(run_once(folder, "b" + std::to_string(i) + ".json", nullptr));
    pairwise += verdicts(run_harness({"compare", a.back(), b.back(), "--format", "csv"}));
  }
  std::cout << "one run a side: " << pairwise << " cells called different over 3 pairs\n";
  // Not a bound on noise, a bound on a compare that calls every cell of every pair different.
  EXPECT_LT(pairwise, 6);
  CommandResult runs = compare_runs(a, b);
  EXPECT_EQ(runs.exit_code, 0) << runs.out << runs.err;
  EXPECT_EQ(verdicts(runs), 0) << runs.out;
  // One run a side again, with a history of the build's six runs: each pair is judged against
  // how much the four runs beside it differ (compare leaves its own two out).
  const std::string history = folder.file("runs.sqlite");
  std::vector<std::string> add = {"history", "add", "--history", history};
  add.insert(add.end(), a.begin(), a.end());
  add.insert(add.end(), b.begin(), b.end());
  CommandResult added = run_harness(add);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  int over_history = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    over_history +=
        verdicts(run_harness({"compare", a[i], b[i], "--format", "csv", "--history", history}));
  }
  // Printed, not bounded: with four earlier runs (three degrees of freedom) a run far out is
  // called now and then (here: fake_slowdown 1.07 once, in a full parallel suite), as
  // docs/comparing-results.md says; the history's promise is made on the GPU hosts' runs.
  std::cout << "one run a side over the history: " << over_history
            << " cells called different over 3 pairs\n";
  CommandResult read = run_harness({"compare", a[0], b[0], "--format", "md", "--history", history});
  EXPECT_TRUE(read.out.find("4 earlier runs of this machine") != std::string::npos) << read.out;
}

// A plugin made 15 % slower, five runs a side: its cell slower, the baseline's not called
// different. On the quiet 2-core machine: with three runs a side (Welch's t over 3 and 3 run
// medians, then Holm over 2 cells) slower in 15 of 20 tries, with five in 39 of 40 (the other: the
// reference loop took 1.5x longer on the slow side, and a verdict against it is too noisy). Beside
// another process (a compiler) its runs are busy and it is too noisy, as it should be. Not yet
// never flaky, so it runs where PLUGBENCH_PROOF=1 asks for it, as tools/comparison_proof.sh does
// the same on any machine.
TEST(ComparisonProof, AFifteenPercentSlowdownIsSlower) {
  if (std::getenv("PLUGBENCH_PROOF") == nullptr) {
    GTEST_SKIP() << "set PLUGBENCH_PROOF=1 to run it: not yet steady enough for CI";
  }
  TempFolder folder;
  std::vector<std::string> a, slow;
  for (int i = 1; i <= 5; ++i) {
    a.push_back(run_once(folder, "a" + std::to_string(i) + ".json", nullptr, "20"));
    slow.push_back(run_once(folder, "s" + std::to_string(i) + ".json", "0.15", "20"));
  }
  CommandResult slower = compare_runs(a, slow);
  EXPECT_EQ(slower.exit_code, 1) << slower.out << slower.err;
  const auto rows = csv_rows(slower.out);
  ASSERT_EQ(rows.size(), 2u) << slower.out;
  for (const auto& row : rows) {
    const std::string& verdict = row.at("verdict");
    const bool slowed = row.at("plugin") == "fake_slowdown";
    EXPECT_TRUE(slowed ? verdict == "slower" : verdict == "same" || verdict == "too noisy")
        << row.at("plugin") << " n=" << row.at("n") << ": " << verdict << " " << row.at("ratio")
        << " " << row.at("ratio_interval") << " " << row.at("why");
  }
}

}  // namespace
}  // namespace plugbench
