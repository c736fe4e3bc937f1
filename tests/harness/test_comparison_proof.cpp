// test_comparison_proof.cpp: the comparison's promise on this machine, at a small size: runs of
// the same build in alternation (A B A B A B) are never called different, and a plugin made 15 %
// slower (the fake_slowdown plugin) is called slower, the cell beside it not. Slow (six and twenty
// harness runs, full calibration), run alone so that no other test is the neighbour it measures.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::csv_rows;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::read_json;
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
                           const std::vector<std::string>& news,
                           const std::string& alpha = "0.05") {
  std::vector<std::string> arguments = {"compare", "--format", "csv", "--alpha", alpha};
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

// cpu_serial's median in each run: the same code in every run, so how far it moves is the machine.
std::vector<double> baseline_medians(const std::vector<std::string>& files) {
  std::vector<double> medians;
  for (const std::string& file : files) {
    const nlohmann::json run = read_json(file);
    for (const auto& cell : run.at("results")) {
      if (cell.at("plugin") == "cpu_serial") {
        medians.push_back(cell.at("time").at("kernel").at("median_ms").get<double>());
      }
    }
  }
  return medians;
}

// A plugin made 15 % slower, ten runs a side: its cell slower, the baseline's not called
// different. Never right, whatever the machine did: the slowdown called faster, or cpu_serial
// called anything (at alpha 0.001 over runs in alternation; a busy machine withdraws a call). Where
// the machine held still (cpu_serial's twenty run medians within 40 % of each other, 14-28 % in 20
// repeats on the quiet 2-core VM, and its new/base within the threshold, so that compare could
// pair the slowdown with it), the slowdown called `same` fails too. Any other outcome (the machine
// moved, or compare found the cell too noisy: busy, a moved reference loop, runs that spread)
// makes the proof again with fresh runs, up to three times, and three such skip the test with the
// reason, which CTest reports as skipped (docs/comparing-results.md).
TEST(ComparisonProof, AFifteenPercentSlowdownIsSlower) {
  constexpr int kAttempts = 3;
  constexpr double kSteadySpread = 0.40;
  // The rule's own bound on a false call over the family, so that the test fails once in a
  // thousand at most where compare works: at the default 0.05 one repetition in twenty may call
  // the unchanged cell, and one in twenty did (cpu_serial faster 0.911, 0.886..0.975). Ten runs a
  // side keep the power at that level: five were too noisy at p = 0.002-0.008 in 6 of 20.
  const std::string kAlpha = "0.001";
  constexpr int kRunsASide = 10;
  std::string last;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    TempFolder folder;
    std::vector<std::string> a, slow;
    for (int i = 1; i <= kRunsASide; ++i) {
      a.push_back(run_once(folder, "a" + std::to_string(i) + ".json", nullptr, "20"));
      slow.push_back(run_once(folder, "s" + std::to_string(i) + ".json", "0.15", "20"));
    }
    std::vector<std::string> all = a;
    all.insert(all.end(), slow.begin(), slow.end());
    const std::vector<double> medians = baseline_medians(all);
    ASSERT_EQ(medians.size(), all.size());
    const auto [lowest, highest] = std::minmax_element(medians.begin(), medians.end());
    CommandResult compared = compare_runs(a, slow, kAlpha);
    std::map<std::string, std::map<std::string, std::string>> rows;
    for (const auto& row : csv_rows(compared.out)) rows[row.at("plugin")] = row;
    ASSERT_EQ(rows.size(), 2u) << compared.out << compared.err;
    const auto& fake = rows.at("fake_slowdown");
    const auto& baseline = rows.at("cpu_serial");
    const auto said = [](const std::map<std::string, std::string>& row) {
      return row.at("plugin") + " " + row.at("verdict") + " " + row.at("ratio") + " " +
             row.at("ratio_interval") + " " + row.at("why");
    };
    const bool baseline_called =
        baseline.at("verdict") == "slower" || baseline.at("verdict") == "faster";
    last = "cpu_serial's run medians " + std::to_string(*lowest) + " to " +
           std::to_string(*highest) + " ms; " + said(fake) + "; " + said(baseline);
    ASSERT_NE(fake.at("verdict"), "faster") << last;
    ASSERT_FALSE(baseline_called) << last;
    const bool still = *highest / *lowest - 1 <= kSteadySpread && baseline.at("verdict") == "same";
    if (still) {
      ASSERT_NE(fake.at("verdict"), "same") << last;
    }
    if (fake.at("verdict") == "slower") {
      EXPECT_EQ(compared.exit_code, 1) << compared.out << compared.err;
      std::cout << "attempt " << attempt << ": " << last << "\n";
      return;
    }
    std::cout << "attempt " << attempt << ": not decided: " << last << "\n";
  }
  GTEST_SKIP() << "no attempt of " << kAttempts << " decided (the last: " << last
               << "): a 15 % slowdown cannot be told from this machine's movement";
}

}  // namespace
}  // namespace plugbench
