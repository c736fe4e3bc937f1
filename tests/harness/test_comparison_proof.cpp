// test_comparison_proof.cpp: the comparison's promise on this machine, at small sizes: runs of the
// same build in alternation (A B A B A B) are never called different, and a plugin made 15 %
// slower (the fake_slowdown plugin) is called slower in each of its cells, the cells beside it
// not. Slow (nine harness runs), run alone so that no other test is the neighbour it measures.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
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
std::string run_once(TempFolder& folder, const std::string& name, const char* slowdown) {
  const std::string path = folder.file(name);
  const std::string prefix =
      std::string("unset PLUGBENCH_CALIBRATION; ") +
      (slowdown ? std::string("export PLUGBENCH_FAKE_SLOWDOWN=") + slowdown + "; " : "");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("slowdown"), "-p", "cpu_serial,fake_slowdown",
                   "-w", "reduce", "-s", "2^20", "-r", "10", "--json", path, "-q"},
                  prefix);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return path;
}

std::vector<std::string> side(const std::string& option, const std::vector<std::string>& files) {
  std::vector<std::string> arguments;
  for (const std::string& file : files) arguments.insert(arguments.end(), {option, file});
  return arguments;
}

TEST(ComparisonProof, RunsOfOneBuildAreSameAndAFifteenPercentSlowdownIsSlower) {
  TempFolder folder;
  std::vector<std::string> a, b, slow;
  for (int i = 1; i <= 3; ++i) {
    a.push_back(run_once(folder, "a" + std::to_string(i) + ".json", nullptr));
    b.push_back(run_once(folder, "b" + std::to_string(i) + ".json", nullptr));
    slow.push_back(run_once(folder, "s" + std::to_string(i) + ".json", "0.15"));
  }
  auto compare = [&](const std::vector<std::string>& base, const std::vector<std::string>& news) {
    std::vector<std::string> arguments = {"compare", "--format", "csv"};
    for (auto part : {side("--base", base), side("--new", news)}) {
      arguments.insert(arguments.end(), part.begin(), part.end());
    }
    return run_harness(arguments);
  };

  CommandResult same = compare(a, b);
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  for (const auto& row : csv_rows(same.out)) {
    EXPECT_NE(row.at("verdict"), "slower") << row.at("plugin") << " n=" << row.at("n");
    EXPECT_NE(row.at("verdict"), "faster") << row.at("plugin") << " n=" << row.at("n");
  }

  CommandResult slower = compare(a, slow);
  EXPECT_EQ(slower.exit_code, 1) << slower.out << slower.err;
  const auto rows = csv_rows(slower.out);
  ASSERT_EQ(rows.size(), 2u) << slower.out;
  for (const auto& row : rows) {
    const bool slowed = row.at("plugin") == "fake_slowdown";
    EXPECT_EQ(row.at("verdict"), slowed ? "slower" : "same")
        << row.at("plugin") << " n=" << row.at("n") << ": " << row.at("ratio") << " "
        << row.at("ratio_interval") << " " << row.at("why");
  }
}

}  // namespace
}  // namespace plugbench
