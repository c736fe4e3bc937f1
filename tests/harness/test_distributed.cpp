// test_distributed.cpp: distributed workloads without a launcher: the sample sort arithmetic
// (splitters that split even a problem of one repeated key, bounds that never go down), the
// verification over the ranks' summaries naming a wrong rank, and a harness of one rank running
// dist_reduce and dist_sort (not in the default workloads).
#include "distribute/exchange_steps.hpp"
#include "distribute/sample_sort.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <distributed_workload.hpp>

#include <algorithm>
#include <numeric>

namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;
namespace pb = plugbench;

// Each distributed workload's passes are found by its name: one registered without them would
// be planned and then fail in every cell.
TEST(ExchangeSteps, EveryDistributedWorkloadHasItsPasses) {
  int distributed = 0;
  for (const pb::Workload* workload : pb::WorkloadRegistry::instance().all()) {
    if (!workload->distributed()) continue;
    ++distributed;
    EXPECT_TRUE(pb::has_exchange_steps(workload->name())) << workload->name();
  }
  EXPECT_EQ(distributed, 2);
  EXPECT_FALSE(pb::has_exchange_steps("reduce"));
}

TEST(RankSlice, NearEqualContiguousPartsCoverTheProblem) {
  std::uint64_t next = 0;
  for (int r = 0; r < 4; ++r) {
    const pb::RankSlice slice = pb::rank_slice(10, r, 4);
    EXPECT_EQ(slice.offset, next);
    EXPECT_TRUE(slice.count == 2 || slice.count == 3);
    next += slice.count;
  }
  EXPECT_EQ(next, 10u);
  EXPECT_EQ(pb::rank_slice(3, 0, 4).count, 0u);  // fewer keys than ranks: some hold none
}

// Where each of `ranks` ranks, holding the sorted `keys` of its own, sends its keys.
std::vector<std::vector<std::uint64_t>> split(const std::vector<std::vector<std::uint32_t>>& keys) {
  const int ranks = static_cast<int>(keys.size());
  std::vector<std::int64_t> gathered;
  for (int r = 0; r < ranks; ++r) {
    const std::vector<std::uint64_t> positions = pb::sample_positions(keys[r].size(), ranks);
    std::vector<std::uint32_t> samples;
    for (std::uint64_t p : positions) samples.push_back(keys[r][p]);
    const std::vector<std::int64_t> words = pb::encode_samples(samples, positions, r, ranks);
    gathered.insert(gathered.end(), words.begin(), words.end());
  }
  const std::vector<pb::SortPosition> splitters = pb::choose_splitters(gathered, ranks);
  std::vector<std::vector<std::uint64_t>> bounds;
  for (int r = 0; r < ranks; ++r) {
    const auto& mine = keys[r];
    const auto key_at = [&](std::uint64_t i) { return mine[i]; };
    bounds.push_back(pb::bucket_bounds(
        splitters, r, mine.size(),
        [&](std::uint32_t k) { return pb::search_keys(mine.size(), k, false, key_at); },
        [&](std::uint32_t k) { return pb::search_keys(mine.size(), k, true, key_at); }));
  }
  return bounds;
}

std::vector<std::uint64_t> received(const std::vector<std::vector<std::uint64_t>>& bounds) {
  std::vector<std::uint64_t> counts(bounds.size(), 0);
  for (const auto& mine : bounds) {
    for (std::size_t d = 0; d < counts.size(); ++d) counts[d] += mine[d + 1] - mine[d];
  }
  return counts;
}

TEST(SampleSort, OneRepeatedKeyIsStillSplitEvenlyByRankAndPosition) {
  const std::vector<std::vector<std::uint32_t>> keys(4, std::vector<std::uint32_t>(1000, 42));
  const std::vector<std::uint64_t> counts = received(split(keys));
  for (std::uint64_t count : counts) EXPECT_NEAR(static_cast<double>(count), 1000.0, 50.0);
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}), 4000u);
}

TEST(SampleSort, EveryKeyOfALowerRankIsAtMostEveryKeyOfAHigherOne) {
  std::vector<std::vector<std::uint32_t>> keys(3);
  for (std::uint32_t i = 0; i < 3000; ++i) keys[i % 3].push_back((i * 2654435761u) % 977);
  for (auto& mine : keys) std::sort(mine.begin(), mine.end());
  const auto bounds = split(keys);
  std::vector<std::vector<std::uint32_t>> after(3);
  for (int r = 0; r < 3; ++r) {
    for (int d = 0; d < 3; ++d) {
      after[d].insert(after[d].end(), keys[r].begin() + bounds[r][d],
                      keys[r].begin() + bounds[r][d + 1]);
    }
  }
  for (int d = 0; d + 1 < 3; ++d) {
    ASSERT_FALSE(after[d].empty());
    EXPECT_LE(*std::max_element(after[d].begin(), after[d].end()),
              *std::min_element(after[d + 1].begin(), after[d + 1].end()));
  }
}

TEST(SampleSort, BoundsNeverGoDownEvenForKeysThatAreNotSorted) {
  const std::vector<std::vector<std::uint32_t>> keys = {{9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
                                                        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  for (const auto& bounds : split(keys)) {
    EXPECT_TRUE(std::is_sorted(bounds.begin(), bounds.end()));
    EXPECT_EQ(bounds.back(), 10u);
  }
}

TEST(MpiStaging, DeviceBuffersGoDirectOnlyWhereTheLibraryTakesThem) {
  pb::PluginRecord gpu;
  gpu.memory_space = pb::MemorySpace::device;
  const pb::DeviceBufferSupport aware{true, "MPIX_Query_cuda_support() = 1"};
  const pb::DeviceBufferSupport unaware{false, "MPIX_Query_cuda_support() = 0"};
  EXPECT_STREQ(pb::to_string(pb::choose_staging(gpu, pb::MpiStaging::automatic, aware).mode),
               "direct");
  EXPECT_STREQ(pb::to_string(pb::choose_staging(gpu, pb::MpiStaging::automatic, unaware).mode),
               "staged");
  EXPECT_STREQ(pb::to_string(pb::choose_staging(gpu, pb::MpiStaging::host, aware).mode), "staged");
  EXPECT_STREQ(pb::to_string(pb::choose_staging(gpu, pb::MpiStaging::direct, aware).mode),
               "direct");
  try {
    pb::choose_staging(gpu, pb::MpiStaging::direct, unaware);
    ADD_FAILURE() << "direct staging without a CUDA-aware MPI was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "does not take device buffers")) << e.what();
  }
  pb::PluginRecord cpu;  // host memory: nothing to stage, whatever was asked
  EXPECT_STREQ(pb::to_string(pb::choose_staging(cpu, pb::MpiStaging::direct, unaware).mode),
               "host");
}

const pb::DistributedWorkload& dist_sort() {
  return dynamic_cast<const pb::DistributedWorkload&>(
      *pb::WorkloadRegistry::instance().find("dist_sort"));
}

pb::HostArray keys_array(const std::vector<std::uint32_t>& keys) {
  pb::HostArray array("sorted", pb::ElementType::uint32, keys.size());
  std::copy(keys.begin(), keys.end(), array.as<std::uint32_t>().begin());
  return array;
}

TEST(DistSortVerification, NamesTheRankWhoseKeysAreOutOfOrder) {
  const pb::ProblemData whole = dist_sort().generate({6, 6, 1}, "uniform");
  const auto reference = dist_sort().reference(whole);
  std::vector<std::uint32_t> all(whole.inputs[0].as<std::uint32_t>().begin(),
                                 whole.inputs[0].as<std::uint32_t>().end());
  std::sort(all.begin(), all.end());
  const pb::RankSummary good0 = dist_sort().summarize({keys_array({all[0], all[1], all[2]})});
  const pb::RankSummary good1 = dist_sort().summarize({keys_array({all[3], all[4], all[5]})});
  EXPECT_TRUE(dist_sort().verify_ranks(whole, *reference, {good0, good1}).passed);
  const pb::RankSummary reversed1 = dist_sort().summarize({keys_array({all[5], all[4], all[3]})});
  const pb::Verification wrong = dist_sort().verify_ranks(whole, *reference, {good0, reversed1});
  EXPECT_FALSE(wrong.passed);
  EXPECT_TRUE(contains(wrong.detail, "rank 1: keys not ascending")) << wrong.detail;
  // The ranks swapped: each sorted, but rank 0's keys above rank 1's.
  const pb::Verification swapped = dist_sort().verify_ranks(whole, *reference, {good1, good0});
  EXPECT_FALSE(swapped.passed);
  EXPECT_TRUE(contains(swapped.detail, "rank 0's largest key")) << swapped.detail;
  // A key lost and another doubled: sorted and in order, another multiset.
  const pb::RankSummary doubled = dist_sort().summarize({keys_array({all[0], all[0], all[2]})});
  const pb::Verification other = dist_sort().verify_ranks(whole, *reference, {doubled, good1});
  EXPECT_FALSE(other.passed);
  EXPECT_TRUE(contains(other.detail, "another multiset")) << other.detail;
}

TEST(DistributedRun, OneRankWithoutALauncherRunsBothWorkloads) {
  TempFolder folder;
  const std::string path = folder.file("solo.json");
  CommandResult r = run_harness({"-p", "cpu_serial", "-w", "dist_reduce,dist_sort", "-s", "1000",
                                 "--cache", "warm", "-r", "3", "-q", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "over 1 rank")) << r.out;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["results"].size(), 3u);  // reduce: loop; sort: lsd_radix, std_sort
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_EQ(cell["distributed"]["ranks"], 1);
    EXPECT_EQ(cell["distributed"]["bytes_sent"], 0);
    EXPECT_EQ(cell["distributed"]["efficiency"], 1.0);
  }
}

TEST(DistributedRun, TheDefaultWorkloadsLeaveTheDistributedOnesOut) {
  CommandResult r = run_harness({"-p", "cpu_serial", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "dist_")) << r.out;
  EXPECT_TRUE(contains(r.out, "sort")) << r.out;
}

TEST(DistributedRun, CsvRefusesDistributedAndOtherWorkloadsUnderOneHeader) {
  CommandResult mixed =
      run_harness({"-p", "cpu_serial", "-w", "sort,dist_sort", "--format", "csv", "--dry-run"});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(contains(mixed.err, "run dist_reduce and dist_sort apart")) << mixed.err;
  CommandResult apart = run_harness({"-p", "cpu_serial", "-w", "dist_reduce,dist_sort", "-s", "100",
                                     "-r", "3", "--format", "csv", "--no-json", "-q"});
  EXPECT_EQ(apart.exit_code, 0) << apart.err;
  EXPECT_TRUE(contains(apart.out, "total_ms,local_ms,exchange_ms")) << apart.out;
}

TEST(DistributedRun, UnknownScalingOrStagingIsAUsageError) {
  CommandResult scaling = run_harness({"--scaling", "sideways", "--dry-run"});
  EXPECT_EQ(scaling.exit_code, 2);
  EXPECT_TRUE(contains(scaling.err, "--scaling 'sideways' is not one of: weak, strong"))
      << scaling.err;
  CommandResult staging = run_harness({"--mpi-staging", "gpu", "--dry-run"});
  EXPECT_EQ(staging.exit_code, 2);
  EXPECT_TRUE(contains(staging.err, "--mpi-staging 'gpu' is not one of: host, direct, auto"))
      << staging.err;
}

}  // namespace
