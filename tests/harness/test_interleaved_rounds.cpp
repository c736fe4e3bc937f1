// test_interleaved_rounds.cpp: a problem's cells measured in rounds (docs/measurement.md): where
// each sample sat and the seed that ordered them are in the file, the same seed gives the same
// order, ratios are taken round by round with an interval, the old order stays one option away,
// and a crash in one cell leaves the other cells of its worker their samples.
#include "analyze/report_table.hpp"
#include "measure/paired_ratios.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::kPlainSegfaults;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

const nlohmann::json& cell_named(const nlohmann::json& results, const std::string& plugin,
                                 const std::string& variant) {
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["plugin"] == plugin && cell["variant"] == variant) return cell;
  }
  static const nlohmann::json none;
  ADD_FAILURE() << "no cell " << plugin << "/" << variant << " in " << results.dump();
  return none;
}

TEST(PairedRatios, TheIntervalIsTheOrderStatisticsThatCoverTheMedianWith95Percent) {
  std::vector<double> ratios;
  for (int i = 20; i >= 1; --i) ratios.push_back(i);  // any order
  std::optional<PairedFigure> figure = median_with_interval(ratios);
  ASSERT_TRUE(figure);
  EXPECT_EQ(figure->pairs, 20);
  EXPECT_DOUBLE_EQ(figure->median, 10.5);
  // n = 20: [x(6), x(15)], coverage 1 - 2 P(B(20, 1/2) <= 5) = 0.9586.
  EXPECT_DOUBLE_EQ(figure->low, 6);
  EXPECT_DOUBLE_EQ(figure->high, 15);
  EXPECT_NEAR(figure->confidence, 0.958611, 1e-6);
}

TEST(PairedRatios, FewRatiosGiveTheWholeRangeWithTheConfidenceItHas) {
  std::optional<PairedFigure> five = median_with_interval({3, 1, 2, 5, 4});
  ASSERT_TRUE(five);
  EXPECT_DOUBLE_EQ(five->median, 3);
  EXPECT_DOUBLE_EQ(five->low, 1);
  EXPECT_DOUBLE_EQ(five->high, 5);
  EXPECT_DOUBLE_EQ(five->confidence, 1 - 2 * std::pow(0.5, 5));  // 0.9375: short of 95 %
  std::optional<PairedFigure> six = median_with_interval({1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(six);
  EXPECT_GE(six->confidence, 0.95);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(median_with_interval({}));
  EXPECT_FALSE(median_with_interval({nan, std::numeric_limits<double>::infinity()}));
  std::optional<PairedFigure> one = median_with_interval({nan, 2.5});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->pairs, 1);
  EXPECT_DOUBLE_EQ(one->median, 2.5);
}

// 0.5^n underflows past n = 1074: the interval must still be a 95 % one, not the median alone.
TEST(PairedRatios, ManyRatiosStillGiveA95PercentIntervalNotThePoint) {
  std::vector<double> ratios;
  for (int i = 1; i <= 2000; ++i) ratios.push_back(i);
  std::optional<PairedFigure> figure = median_with_interval(ratios);
  ASSERT_TRUE(figure);
  EXPECT_NEAR(figure->confidence, 0.95, 0.005);
  // The normal approximation: n/2 -+ 1.96 sqrt(n)/2 = 1000 -+ 43.8.
  EXPECT_NEAR(figure->low, 956, 2);
  EXPECT_NEAR(figure->high, 1045, 2);
}

TEST(InterleavedRounds, EachSampleHasItsRoundAndPlaceAndTheSeedRepeatsTheOrder) {
  TempFolder folder;
  std::vector<nlohmann::json> runs;
  for (const char* name : {"a.json", "b.json"}) {
    CommandResult r = run_harness({"-p", "cpu_serial,openmp", "-w", "reduce", "-s", "1000", "-v",
                                   "loop,parallel_for,unrolled", "-r", "6", "--order-seed", "7",
                                   "--json", folder.file(name), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    runs.push_back(read_json(folder.file(name)));
  }
  const nlohmann::json& settings = runs[0]["context"]["settings"];
  EXPECT_EQ(settings["order"], "interleaved");
  EXPECT_EQ(settings["order_seed"], 7);
  for (const char* plugin_variant : {"cpu_serial/loop", "openmp/parallel_for", "openmp/unrolled"}) {
    SCOPED_TRACE(plugin_variant);
    const std::string text = plugin_variant;
    const std::string plugin = text.substr(0, text.find('/'));
    const std::string variant = text.substr(text.find('/') + 1);
    const nlohmann::json& cell = cell_named(runs[0], plugin, variant);
    ASSERT_TRUE(cell.contains("rounds")) << cell.dump();
    EXPECT_EQ(cell["rounds"]["round"], nlohmann::json({0, 1, 2, 3, 4, 5}));
    ASSERT_EQ(cell["rounds"]["position"].size(), 6u);
    for (const nlohmann::json& position : cell["rounds"]["position"]) {
      // Three cells and one reference loop (read, reduce's pattern) in each round.
      EXPECT_GE(position.get<int>(), 0);
      EXPECT_LT(position.get<int>(), 4);
    }
    EXPECT_EQ(cell["rounds"]["reference"]["pattern"], "read");
    EXPECT_EQ(cell["rounds"]["reference"]["samples_ms"].size(), 6u);
    // The same seed, the same order.
    EXPECT_EQ(cell["rounds"]["position"],
              cell_named(runs[1], plugin, variant)["rounds"]["position"]);
    // Six rounds give a 97 % interval of the per-round speedups.
    const nlohmann::json& speedup = cell["paired"]["speedup"];
    EXPECT_EQ(speedup["pairs"], 6);
    EXPECT_GE(speedup["confidence"].get<double>(), 0.95);
    EXPECT_LE(speedup["low"].get<double>(), speedup["median"].get<double>());
    EXPECT_LE(speedup["median"].get<double>(), speedup["high"].get<double>());
    EXPECT_EQ(cell["paired"]["percent_of_peak"]["pairs"], 6);
  }
  // Each run's passes time the same loop, whichever loop was fastest at its calibration: the
  // widest over one buffer, the second the host read peak lists (the portable one where alone).
  std::vector<std::string> loops;
  for (const nlohmann::json& run : runs) {
    for (const nlohmann::json& peak : run["context"]["peaks"]) {
      if (peak["memory_space"] != "host" || peak["pattern"] != "read") continue;
      const nlohmann::json& methods = peak["methods"];
      ASSERT_FALSE(methods.empty()) << peak.dump();
      EXPECT_EQ(cell_named(run, "openmp", "unrolled")["rounds"]["reference"]["loop"],
                methods[std::min<std::size_t>(1, methods.size() - 1)]["name"]);
    }
    loops.push_back(cell_named(run, "openmp", "unrolled")["rounds"]["reference"]["loop"]);
  }
  EXPECT_EQ(loops[0], loops[1]);
  // The baseline against itself, round by round: exactly 1.
  const nlohmann::json& base = cell_named(runs[0], "cpu_serial", "loop")["paired"]["speedup"];
  EXPECT_DOUBLE_EQ(base["low"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(base["high"].get<double>(), 1.0);
}

TEST(InterleavedRounds, TheTableShowsThePairedSpeedupAndItsInterval) {
  CommandResult r = run_harness({"-p", "cpu_serial,openmp", "-w", "reduce", "-s", "1000", "-v",
                                 "loop,parallel_for", "-r", "6", "--no-json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "speedup 95% CI")) << r.out;
  EXPECT_TRUE(contains(r.out, "1.00..1.00")) << r.out;  // the baseline's own
}

TEST(InterleavedRounds, TheSequentialOrderIsTheOldOneWithoutRounds) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r =
      run_harness({"-p", "cpu_serial,openmp", "-w", "reduce", "-s", "1000", "-v",
                   "loop,parallel_for", "-r", "3", "--order", "sequential", "--json", path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(results["context"]["settings"]["order"], "sequential");
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_FALSE(cell.contains("rounds")) << cell.dump();
    EXPECT_FALSE(cell.contains("paired")) << cell.dump();
    EXPECT_FALSE(cell["speedup"].is_null()) << cell.dump();
  }
}

TEST(InterleavedRounds, AnUnknownOrderIsAUsageError) {
  CommandResult r = run_harness({"--order", "random", "--no-json"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "--order 'random' is not one of: interleaved, sequential")) << r.err;
}

// The crash comes in a sample, after both cells of the worker were opened: the other cell is
// opened again in the replacement worker and keeps the samples it had.
TEST(InterleavedRounds, ACrashInOneCellLeavesTheOtherCellsOfItsWorkerTheirSamples) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  // Calls of fake_loop in its worker: 1 the checked call, 2 the first sample, 3 crashes.
  const CommandResult r = [&] {
    plugbench::testing::ScopedEnv crash("PLUGBENCH_FAKE_CRASH_ON_CALL", "3");
    return run_harness(
        {"--plugin-dir", fake_plugin_dir("segfault"), "-p", "cpu_serial,fake_segfault", "-w",
         "reduce", "-s", "1000", "-r", "5", "--warmup", "0", "--json", path, "-q"},
        kPlainSegfaults);
  }();
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json& crashed = cell_named(results, "fake_segfault", "fake_loop");
  EXPECT_EQ(crashed["status"], "crashed") << crashed.dump();
  for (const char* good : {"good_loop"}) {
    const nlohmann::json& cell = cell_named(results, "fake_segfault", good);
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_TRUE(cell["verification"]["passed"].get<bool>()) << cell.dump();
    EXPECT_EQ(cell["time"]["kernel"]["samples_ms"].size(), 5u) << cell.dump();
    EXPECT_EQ(cell["rounds"]["round"], nlohmann::json({0, 1, 2, 3, 4})) << cell.dump();
  }
  EXPECT_EQ(cell_named(results, "cpu_serial", "loop")["status"], "ok");
}

// Cells hold their buffers until the problem's rounds end: one that does not fit beside the others
// but fits alone is measured after them, in rounds of its own, and says so; one that fits nowhere
// stays out of memory.
TEST(InterleavedRounds, ACellThatDoesNotFitBesideTheOthersIsMeasuredAfterThemAlone) {
  TempFolder folder;
  const std::string path = folder.file("r.json");
  // 6e6 int32 (23 MiB) a cell on a fake device of 40 MiB: one cell fits, two do not.
  const auto run = [&](const char* device_bytes) {
    return run_harness({"--plugin-dir", fake_plugin_dir("device"), "-p", "cpu_serial,fake_device",
                        "-w", "reduce", "-s", "6000000", "-r", "4", "--json", path},
                       std::string("export PLUGBENCH_FAKE_DEVICE_BYTES=") + device_bytes + "; ");
  };
  CommandResult r = run(std::to_string(40 << 20).c_str());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  const nlohmann::json& first = cell_named(results, "fake_device", "fake_loop");
  const nlohmann::json& twin = cell_named(results, "fake_device", "fake_loop_twin");
  const nlohmann::json& serial = cell_named(results, "cpu_serial", "loop");
  for (const nlohmann::json* cell : {&first, &twin, &serial}) {
    EXPECT_EQ((*cell)["status"], "ok") << cell->dump();
    EXPECT_EQ((*cell)["time"]["kernel"]["samples_ms"].size(), 4u) << cell->dump();
  }
  EXPECT_EQ(first["rounds"]["round"], nlohmann::json({0, 1, 2, 3})) << first.dump();
  EXPECT_FALSE(first["rounds"].contains("apart")) << first.dump();
  EXPECT_TRUE(first.contains("paired")) << first.dump();
  EXPECT_EQ(twin["rounds"]["round"], nlohmann::json({4, 5, 6, 7})) << twin.dump();
  EXPECT_EQ(twin["rounds"]["apart"], true) << twin.dump();
  EXPECT_FALSE(twin.contains("paired")) << twin.dump();  // no round holds its baseline's sample
  EXPECT_TRUE(contains(r.out,
                       "fake_device/fake_loop_twin: measured after the others, in rounds of "
                       "its own: beside them it ran out of memory; its speedup is not paired"))
      << r.out;
  // Shown again from the file.
  CommandResult shown = run_harness({"show", path});
  EXPECT_TRUE(contains(shown.out, "fake_loop_twin: measured after the others")) << shown.out;

  // 16 MiB: no cell fits, alone or not.
  r = run(std::to_string(16 << 20).c_str());
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  results = read_json(path);
  for (const char* variant : {"fake_loop", "fake_loop_twin"}) {
    EXPECT_EQ(cell_named(results, "fake_device", variant)["status"], "oom") << variant;
  }
  EXPECT_EQ(cell_named(results, "cpu_serial", "loop")["status"], "ok");
}

// Where the cell measured apart is the baseline, no speedup of its problem is paired: the note says
// so, not only of the one cell.
TEST(InterleavedRounds, ABaselineMeasuredApartSaysNoSpeedupIsPaired) {
  CellResult base, other;
  base.plugin = "cpu_serial";
  base.variant = "loop";
  base.status = other.status = CellStatus::ok;
  base.baseline = other.baseline = "cpu_serial/loop";
  other.plugin = "openmp";
  other.variant = "parallel_for";
  base.rounds = SampleRounds{};
  base.rounds->apart = true;
  const auto noted = [&](const std::string& note) {
    const std::vector<std::string> notes =
        problem_table("reduce", "mod100", Shape{1000, 1000, 1}, {base, other}, "cpu_serial").notes;
    return std::find(notes.begin(), notes.end(), note) != notes.end();
  };
  const std::string said =
      "cpu_serial/loop: measured after the others, in rounds of its own: "
      "beside them it ran out of memory; ";
  EXPECT_TRUE(noted(said + "it is the baseline, so no speedup in this table is paired"));
  base.baseline = other.baseline = "openmp/parallel_for";
  EXPECT_TRUE(noted(said + "its speedup is not paired"));
}

}  // namespace
}  // namespace plugbench
