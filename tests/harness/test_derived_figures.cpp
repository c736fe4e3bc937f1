// test_derived_figures.cpp: the suspect rule. With the caches flushed, a rate beyond 1.5 times
// the peak is flagged; where the rounds measured the peak beside each sample (a pass of the
// reference loop in the same round), that peak decides, so a machine whose load changed between
// the calibration and the cell does not flag a correct kernel, and a kernel that skips work is
// still flagged.
#include "measure/derived_figures.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace plugbench {
namespace {

// A host cell reading 1 GB per call, its samples in ms; rounds with a reference loop whose passes
// move 1 GB in `reference_ms` each (one pass per sample), where given.
CellResult cell_of(const std::vector<double>& samples_ms, const std::vector<double>& reference_ms) {
  CellResult cell;
  cell.workload = "reduce";
  cell.plugin = "p";
  cell.variant = "v";
  cell.memory_space = MemorySpace::host;
  cell.traffic = Traffic{1e9, 0, 0, "", MemoryPattern::read};
  TimeStats kernel;
  kernel.samples_ms = samples_ms;
  std::vector<double> sorted = samples_ms;
  std::sort(sorted.begin(), sorted.end());
  kernel.median_ms = sorted[sorted.size() / 2];
  kernel.repetitions = static_cast<int>(samples_ms.size());
  cell.kernel = kernel;
  if (!reference_ms.empty()) {
    SampleRounds rounds;
    for (std::size_t i = 0; i < samples_ms.size(); ++i) {
      rounds.round.push_back(static_cast<int>(i));
      rounds.position.push_back(0);
    }
    rounds.reference_pattern = "read";
    rounds.reference_loop = "avx2";
    rounds.reference_bytes_moved = 1e9;
    rounds.reference_ms = reference_ms;
    cell.rounds = rounds;
  }
  return cell;
}

// The calibration's read peak of host memory, in GB/s.
std::map<std::string, std::vector<PeakBandwidth>> calibrated(double gbps) {
  PeakBandwidth peak;
  peak.memory_space = MemorySpace::host;
  peak.pattern = "read";
  peak.gbps = gbps;
  return {{"p", {peak}}};
}

std::string suspect_of(CellResult cell, double calibrated_gbps, bool caches_flushed = true) {
  std::vector<CellResult> cells = {cell};
  derive_figures(cells, "nobody", calibrated(calibrated_gbps), caches_flushed);
  return cells[0].suspect;
}

const std::vector<double> kTenSamples = {100, 101, 99, 102, 98, 100, 103, 97, 100, 101};

TEST(SuspectRule, ACorrectKernelIsNotFlaggedWhereTheCalibrationRanOnABusierMachine) {
  // 10 GB/s; the calibration, made under load, measured 4 GB/s (2.5x below the cell), while the
  // reference passes beside each sample ran at 12.5 GB/s: the cell is 80 % of the peak beside it.
  const std::vector<double> passes(10, 80.0);
  EXPECT_EQ(suspect_of(cell_of(kTenSamples, passes), 4.0), "");
  // Without rounds the calibration is all there is, and it flags the cell.
  EXPECT_NE(suspect_of(cell_of(kTenSamples, {}), 4.0), "");
}

TEST(SuspectRule, AKernelThatSkipsWorkIsFlaggedAgainstThePeakBesideIt) {
  // 100 GB/s against passes at 12.5 GB/s in the same rounds: 8x, whatever the calibration said.
  const std::vector<double> fast = {10, 10.2, 9.9, 10.1, 10, 9.8, 10.3, 10, 10.1, 9.9};
  const std::string why = suspect_of(cell_of(fast, std::vector<double>(10, 80.0)), 1000.0);
  EXPECT_NE(why.find("measured peak of host memory in the same rounds"), std::string::npos) << why;
  EXPECT_NE(why.find("avx2"), std::string::npos) << why;
}

TEST(SuspectRule, TheIntervalsLowEndMustPassTheFactorNotOneLuckyRound) {
  // Most rounds at 1.0x the pass beside them, two rounds where the pass was slowed tenfold by a
  // neighbour: the median stays near 1 and the cell is not flagged.
  std::vector<double> passes(10, 100.0);
  passes[3] = passes[7] = 1000.0;
  EXPECT_EQ(suspect_of(cell_of(kTenSamples, passes), 1000.0), "");
  // Just past the factor in every round: flagged; just under: not.
  EXPECT_NE(suspect_of(cell_of(kTenSamples, std::vector<double>(10, 160.0)), 1000.0), "");
  EXPECT_EQ(suspect_of(cell_of(kTenSamples, std::vector<double>(10, 140.0)), 1000.0), "");
  // Half the rounds at 1.4x, half at 1.7x: the median passes the factor, the interval's low end
  // does not: not flagged.
  std::vector<double> mixed;
  for (int i = 0; i < 10; ++i) mixed.push_back(i % 2 ? 170.0 : 140.0);
  EXPECT_EQ(suspect_of(cell_of(std::vector<double>(10, 100.0), mixed), 1000.0), "");
}

TEST(SuspectRule, WarmCachesAreNeverJudged) {
  const std::vector<double> fast = {10, 10.2, 9.9, 10.1, 10, 9.8, 10.3, 10, 10.1, 9.9};
  EXPECT_EQ(suspect_of(cell_of(fast, std::vector<double>(10, 80.0)), 1.0, false), "");
}

}  // namespace
}  // namespace plugbench

namespace plugbench {
namespace {

// Three cells of one problem: p/a 100 ms, p/b 50 ms, q/c 25 ms.
std::vector<CellResult> three_cells() {
  std::vector<CellResult> cells;
  for (const auto& [plugin, variant, ms] :
       {std::tuple{"p", "a", 100.0}, std::tuple{"p", "b", 50.0}, std::tuple{"q", "c", 25.0}}) {
    CellResult cell = cell_of(std::vector<double>(5, ms), {});
    cell.plugin = plugin;
    cell.variant = variant;
    cells.push_back(cell);
  }
  return cells;
}

TEST(Baseline, APluginNamesItsFirstVerifiedCell) {
  std::vector<CellResult> cells = three_cells();
  derive_figures(cells, "p", {}, false);
  EXPECT_EQ(cells[1].baseline, "p/a");
  EXPECT_DOUBLE_EQ(*cells[1].speedup, 2.0);
  EXPECT_DOUBLE_EQ(*cells[2].speedup, 4.0);
}

TEST(Baseline, AVariantNamesThatCell) {
  std::vector<CellResult> cells = three_cells();
  derive_figures(cells, "p/b", {}, false);
  for (const CellResult& cell : cells) EXPECT_EQ(cell.baseline, "p/b");
  EXPECT_DOUBLE_EQ(*cells[0].speedup, 0.5);
  EXPECT_DOUBLE_EQ(*cells[1].speedup, 1.0);
  EXPECT_DOUBLE_EQ(*cells[2].speedup, 2.0);
  // Another plugin's variant of the same name is not it, nor another variant of its plugin.
  EXPECT_FALSE(is_baseline_cell("q/b", cells[1]));
  EXPECT_FALSE(is_baseline_cell("p/b", cells[0]));
  EXPECT_EQ(baseline_plugin("p/b"), "p");
  EXPECT_EQ(baseline_plugin("p"), "p");
}

TEST(Baseline, NoVerifiedBaselineCellGivesNoSpeedups) {
  std::vector<CellResult> cells = three_cells();
  cells[1].status = CellStatus::failed;
  derive_figures(cells, "p/b", {}, false);
  for (const CellResult& cell : cells) EXPECT_FALSE(cell.speedup.has_value()) << cell.variant;
}

}  // namespace
}  // namespace plugbench
