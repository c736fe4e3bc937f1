// test_ranks.cpp: the parts of an MPI run that need no MPI: where a rank runs (its GPU, its CPU
// share), the spread of a cell over the ranks, and the slow-rank rule.
#include "analyze/rank_spread.hpp"
#include "ranks/rank_group.hpp"
#include "ranks/rank_placement.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace {

using namespace plugbench;
using plugbench::testing::TempFolder;

CellResult timed_cell(int rank, std::vector<double> samples, double gbps = 10) {
  CellResult cell;
  cell.workload = "reduce";
  cell.plugin = "cpu_serial";
  cell.variant = "loop";
  cell.distribution = "mod100";
  cell.shape = {1024, 1024, 1};
  cell.rank = rank;
  TimeStats stats;
  stats.samples_ms = samples;
  std::sort(samples.begin(), samples.end());
  stats.median_ms = samples[samples.size() / 2];
  stats.min_ms = samples.front();
  stats.max_ms = samples.back();
  stats.repetitions = static_cast<int>(samples.size());
  cell.kernel = stats;
  cell.gbps = gbps;
  return cell;
}

std::vector<double> around(double ms, int count = 10) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(ms * (1 + 0.001 * i));
  return samples;
}

TEST(RankSpread, NamesTheRankSlowerThanTheThresholdAndOnlyIt) {
  std::vector<CellResult> cells = {timed_cell(0, around(1.0)), timed_cell(1, around(1.3)),
                                   timed_cell(2, around(1.01)), timed_cell(3, around(0.99))};
  std::vector<RankSpread> spreads = spread_over_ranks(cells, 0.10);
  ASSERT_EQ(spreads.size(), 1u);
  const RankSpread& spread = spreads[0];
  EXPECT_EQ(spread.ranks, 4);
  EXPECT_EQ(spread.ranks_ok, 4);
  ASSERT_EQ(spread.slow.size(), 1u);
  EXPECT_EQ(spread.slow[0].rank, 1);
  EXPECT_EQ(spread.slow[0].rule, "threshold");
  EXPECT_NEAR(spread.slow[0].slower_by, 0.3, 0.01);  // against the others' median, 1.0
  EXPECT_LT(spread.slow[0].p_value, 0.05);
  EXPECT_NEAR(*spread.imbalance, 1.3 / 0.99, 0.01);
  EXPECT_NEAR(*spread.aggregate_gbps, 40, 1e-9);
}

TEST(RankSpread, OfTwoRanksTheOneTwentyPercentSlowerIsNamed) {
  // Against the median of both (their mean) it would look 9 % slower, under the threshold.
  std::vector<RankSpread> spreads =
      spread_over_ranks({timed_cell(0, around(1.0)), timed_cell(1, around(1.2))}, 0.10);
  ASSERT_EQ(spreads[0].slow.size(), 1u);
  EXPECT_EQ(spreads[0].slow[0].rank, 1);
  EXPECT_NEAR(spreads[0].slow[0].slower_by, 0.2, 0.01);
}

TEST(RankSpread, ARankWithoutTheCellCountsAsNotRun) {
  std::vector<RankSpread> spreads = spread_over_ranks({timed_cell(0, around(1.0))}, 0.10, 3);
  EXPECT_EQ(spreads[0].ranks, 3);
  EXPECT_EQ(spreads[0].ranks_ok, 1);
  EXPECT_EQ(status_texts(spreads[0]), (std::vector<std::string>{"ok", "not run", "not run"}));
}

TEST(RankSpread, ASlowerMedianTheTestCannotTellApartIsNotNamed) {
  // Rank 1's median is 30 % slower, but three samples each cannot tell it apart (p >= 0.08).
  std::vector<CellResult> cells = {timed_cell(0, {0.5, 1.0, 1.5}), timed_cell(1, {0.6, 1.3, 1.4})};
  EXPECT_TRUE(spread_over_ranks(cells, 0.10)[0].slow.empty());
}

TEST(RankSpread, WithFiveRanksOrMoreAnOutlierBeyondTheQuartilesIsNamedBelowTheThreshold) {
  std::vector<CellResult> cells;
  for (int rank = 0; rank < 6; ++rank)
    cells.push_back(timed_cell(rank, around(1.0 + 0.001 * rank)));
  cells.push_back(timed_cell(6, around(1.05)));  // 5 %: under the 10 % threshold
  std::vector<RankSpread> spreads = spread_over_ranks(cells, 0.10);
  ASSERT_EQ(spreads[0].slow.size(), 1u);
  EXPECT_EQ(spreads[0].slow[0].rank, 6);
  EXPECT_EQ(spreads[0].slow[0].rule, "iqr");
  // With four ranks the quartiles say too little: the same 5 % is not named.
  cells.erase(cells.begin(), cells.begin() + 3);
  EXPECT_TRUE(spread_over_ranks(cells, 0.10)[0].slow.empty());
}

TEST(RankSpread, TheWorstStatusStandsForTheCellAndOnlyOkRanksAreTimed) {
  CellResult crashed = timed_cell(1, around(1.0));
  crashed.status = CellStatus::crashed;
  crashed.message = "killed by signal 6 (Aborted)";
  crashed.kernel.reset();
  std::vector<RankSpread> spreads = spread_over_ranks({timed_cell(0, around(2.0)), crashed}, 0.1);
  EXPECT_EQ(spreads[0].cell.status, CellStatus::crashed);
  EXPECT_EQ(spreads[0].cell.message, "rank 1: killed by signal 6 (Aborted)");
  EXPECT_EQ(spreads[0].ranks_ok, 1);
  EXPECT_EQ(status_texts(spreads[0]), (std::vector<std::string>{"ok", "crashed"}));
  EXPECT_NEAR(*spreads[0].median_ms, 2.0 * 1.005, 0.01);
}

TEST(RankSpread, CollapsingForCompareKeepsEveryRanksSamplesAndTheMedianOfMedians) {
  std::vector<CellResult> cells = {timed_cell(0, around(1.0, 5)), timed_cell(1, around(3.0, 5)),
                                   timed_cell(2, around(2.0, 5))};
  for (CellResult& cell : cells) {
    cell.traffic = Traffic{};
    cell.traffic->bytes_read = 4e6;  // 4 MB a call
    cell.percent_of_peak = 50;
  }
  std::vector<CellResult> collapsed = collapse_ranks(cells);
  ASSERT_EQ(collapsed.size(), 1u);
  EXPECT_EQ(collapsed[0].kernel->samples_ms.size(), 15u);
  EXPECT_NEAR(collapsed[0].kernel->median_ms, 2.0 * 1.002, 1e-9);
  EXPECT_NEAR(collapsed[0].kernel->mean_ms, 2.004, 1e-9);  // of the pooled samples
  EXPECT_EQ(collapsed[0].rank, -1);
  // One rank's rate at the median of medians (not the ranks' sum), no rank's % of peak.
  EXPECT_NEAR(*collapsed[0].gbps, 4e6 / (2.004 * 1e6), 1e-6);
  EXPECT_FALSE(collapsed[0].percent_of_peak.has_value());
}

TEST(RankPlacement, EachLocalRankTakesItsOwnGpuUnlessOneIsVisibleOrOneIsNamed) {
  EXPECT_EQ(device_for_rank(0, 4, std::nullopt), 0);
  EXPECT_EQ(device_for_rank(3, 4, std::nullopt), 3);
  EXPECT_EQ(device_for_rank(5, 4, std::nullopt), 1);  // more ranks than GPUs: shared in turn
  EXPECT_EQ(device_for_rank(2, 1, std::nullopt), 0);  // a scheduler showed each rank its GPU
  EXPECT_EQ(device_for_rank(2, 0, std::nullopt), 0);
  EXPECT_EQ(device_for_rank(2, 4, 1), 1);  // --device wins
}

TEST(RankPlacement, VisibleGpusFollowCudaVisibleDevicesThenTheDriver) {
  TempFolder folder;
  std::filesystem::create_directories(folder.file("gpus/0000:19:00.0"));
  std::filesystem::create_directories(folder.file("gpus/0000:3b:00.0"));
  EXPECT_EQ(visible_gpu_count(nullptr, folder.file("gpus")), 2);
  EXPECT_EQ(visible_gpu_count("0,1,2", folder.file("gpus")), 3);
  EXPECT_EQ(visible_gpu_count("GPU-8f2e,GPU-11aa", folder.file("gpus")), 2);
  EXPECT_EQ(visible_gpu_count("", folder.file("gpus")), 0);
  EXPECT_EQ(visible_gpu_count("-1", folder.file("gpus")), 0);
  EXPECT_EQ(visible_gpu_count("0,-1,1", folder.file("gpus")), 1);  // CUDA stops at -1
  EXPECT_EQ(visible_gpu_count(nullptr, folder.file("none")), 0);
}

TEST(RankPlacement, TheRanksOfAHostSplitItsCpusIntoContiguousShares) {
  const std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(cpu_share(all, 0, 2), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(cpu_share(all, 1, 2), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(cpu_share(all, 2, 3), (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(cpu_share({0, 1}, 3, 4), (std::vector<int>{1}));  // more ranks than CPUs
  EXPECT_EQ(cpu_share(all, 0, 1), all);
  EXPECT_EQ(cpu_list_text({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(cpus_from_text("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  // The host's CPUs, not this process's mask (a launcher may have bound it to one core).
  EXPECT_GE(host_job_cpus().size(), process_cpus().size());
}

TEST(RankGroup, ALauncherIsRecognisedFromItsEnvironment) {
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMI_SIZE");
  ::unsetenv("PMIX_SIZE");
  EXPECT_EQ(launcher_rank_count(), "");
  ::setenv("PMI_SIZE", "1", 1);
  EXPECT_EQ(launcher_rank_count(), "");  // one rank is a plain run
  ::setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  EXPECT_EQ(launcher_rank_count(), "OMPI_COMM_WORLD_SIZE=4");
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMI_SIZE");
  std::unique_ptr<RankGroup> alone = solo_rank_group();
  EXPECT_TRUE(alone->alone());
  EXPECT_EQ(alone->agree_max(15, 1), 15);
  EXPECT_EQ(alone->gather("x"), (std::vector<std::string>{"x"}));
}

}  // namespace
