// test_mpi_distributed.cpp: dist_reduce and dist_sort under mpirun on 1 to 4 ranks (more ranks
// than CI's two cores: --oversubscribe): every distribution (sorted, reverse, equal and few press
// the splitters), a size that no rank count divides and one smaller than the rank count, the time
// split, the scaling figures, and a rank whose sort is wrong named by the verification.
#include "mpi_launcher.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::launcher;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

// Small and warm, three samples: the runs are about answers and records, not speed.
const std::vector<std::string> kQuick = {"--cache", "warm", "-r", "3", "--warmup", "0", "-q"};

std::vector<std::string> with_quick(std::vector<std::string> arguments) {
  arguments.insert(arguments.end(), kQuick.begin(), kQuick.end());
  return arguments;
}

class DistributedRanks : public ::testing::TestWithParam<int> {};

TEST_P(DistributedRanks, EveryDistributionAndAwkwardSizeVerifiesOverTheRanks) {
  const int ranks = GetParam();
  TempFolder folder;
  const std::string path = folder.file("dist.json");
  // Strong scaling: 1001 keys in total (no count of 2, 3 or 4 ranks divides it) and 3 keys (fewer
  // than 4 ranks: one holds none).
  CommandResult r =
      run_harness(with_quick({"-p", "cpu_serial", "-w", "dist_reduce,dist_sort", "-d", "all", "-s",
                              "3,1001", "--scaling", "strong", "--json", path}),
                  launcher(ranks));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  int cells = 0;
  for (const nlohmann::json& cell : results["results"]) {
    ++cells;
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_TRUE(cell["verification"]["passed"].get<bool>()) << cell.dump();
    const nlohmann::json& d = cell["distributed"];
    EXPECT_EQ(d["ranks"], ranks);
    EXPECT_EQ(d["scaling"], "strong");
    EXPECT_EQ(d["n_total"], cell["n"]);
    EXPECT_EQ(d["staging"], "host");
    EXPECT_GT(d["local"]["repetitions"].get<int>(), 0);
    EXPECT_GT(d["exchange"]["repetitions"].get<int>(), 0);
    EXPECT_TRUE(d["efficiency"].is_number()) << d.dump();
    if (cell["workload"] == "dist_sort") {
      ASSERT_EQ(d["keys_per_rank"].size(), static_cast<std::size_t>(ranks));
      std::uint64_t keys = 0;
      for (const nlohmann::json& count : d["keys_per_rank"]) keys += count.get<std::uint64_t>();
      EXPECT_EQ(keys, cell["n"].get<std::uint64_t>());
    }
  }
  // reduce: 3 distributions x 2 sizes x 1 variant; sort: 6 x 2 x 2; on every rank.
  EXPECT_EQ(cells, (3 * 2 + 6 * 2 * 2) * ranks);
  EXPECT_TRUE(contains(r.out, "in total (strong scaling)")) << r.out;
  EXPECT_TRUE(contains(r.out, "efficiency")) << r.out;
}

INSTANTIATE_TEST_SUITE_P(MpiDistributed, DistributedRanks, ::testing::Values(1, 2, 3, 4),
                         [](const auto& param) { return "np" + std::to_string(param.param); });

TEST(MpiDistributed, OpenmpTeamsInTheRanksProcessesVerifyToo) {
  TempFolder folder;
  const std::string path = folder.file("openmp.json");
  CommandResult r = run_harness(with_quick({"-p", "openmp", "-w", "dist_reduce,dist_sort", "-d",
                                            "signed,reverse", "-s", "4099", "--json", path}),
                                launcher(2));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_FALSE(results["results"].empty());
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_EQ(cell["distributed"]["n_local"], 4099);
  }
}

TEST(MpiDistributed, WeakScalingHoldsNPerRankAndComparesWithOneRankRunByRankZero) {
  TempFolder folder;
  const std::string path = folder.file("weak.json");
  CommandResult r = run_harness(with_quick({"-p", "cpu_serial", "-w", "dist_sort", "-v", "std_sort",
                                            "-s", "4096", "--json", path}),
                                launcher(2));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "per rank (weak scaling)")) << r.out;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["results"].size(), 2u);
  for (const nlohmann::json& cell : results["results"]) {
    const nlohmann::json& d = cell["distributed"];
    EXPECT_EQ(d["scaling"], "weak");
    EXPECT_EQ(d["n_total"], 8192);
    EXPECT_EQ(d["n_local"], 4096);
    EXPECT_GT(d["bytes_sent"].get<std::uint64_t>(), 0u);
    EXPECT_GT(d["one_rank_ms"].get<double>(), 0);
    // Weak: t1 / tK, tK the slowest rank's median total.
    double slowest = 0;
    for (const nlohmann::json& other : results["results"]) {
      slowest = std::max(slowest, other["time"]["kernel"]["median_ms"].get<double>());
    }
    EXPECT_DOUBLE_EQ(d["efficiency"].get<double>(), d["one_rank_ms"].get<double>() / slowest);
  }
}

// fake_contract_device: host memory posing as a device's, read and written only through the
// plugin's copies, as a GPU's is.
TEST(MpiDistributed, DeviceBuffersStagedThroughPinnedHostMemoryStillVerify) {
  TempFolder folder;
  const std::string path = folder.file("staged.json");
  CommandResult r = run_harness(
      with_quick({"--plugin-dir", fake_plugin_dir("contract_device"), "-p", "fake_contract_device",
                  "-v", "honest", "-w", "dist_reduce,dist_sort", "-d", "mod100,uniform,equal", "-s",
                  "1001", "--mpi-staging", "host", "--json", path}),
      launcher(3));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["results"].size(), 3u * 3u);  // reduce 1 + sort 2 problems, 3 ranks
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    EXPECT_EQ(cell["distributed"]["staging"], "staged");
    EXPECT_EQ(cell["distributed"]["staging_reason"], "--mpi-staging host");
  }
}

TEST(MpiDistributed, DirectDeviceBuffersRunOnlyWhereTheMpiLibraryTakesThem) {
  TempFolder folder;
  const std::string path = folder.file("direct.json");
  CommandResult r =
      run_harness(with_quick({"--plugin-dir", fake_plugin_dir("contract_device"), "-p",
                              "fake_contract_device", "-v", "honest", "-w", "dist_reduce", "-s",
                              "1001", "--mpi-staging", "direct", "--json", path}),
                  launcher(2));
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["results"].size(), 2u);
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["status"] == "ok") {  // a CUDA-aware library takes the plugin's pointers
      EXPECT_EQ(cell["distributed"]["staging"], "direct");
      EXPECT_EQ(r.exit_code, 0);
    } else {  // else the cell says why, and what to use instead
      EXPECT_EQ(cell["status"], "error");
      EXPECT_TRUE(contains(cell["message"], "does not take device buffers")) << cell.dump();
      EXPECT_TRUE(contains(cell["message"], "--mpi-staging host")) << cell.dump();
      EXPECT_EQ(r.exit_code, 3);
    }
  }
}

// On a GPU (the GPU machine's ctest; skipped elsewhere, with why): the real device buffers of
// cuda_buffer_contract's honest kernels, staged through pinned host memory, and as --mpi-staging
// auto decides (direct where the MPI library is CUDA-aware).
TEST(MpiDistributed, DeviceBuffersOnTheGpuVerifyStagedAndAsTheLibraryAllows) {
  const std::string folder = fake_plugin_dir("cuda_buffer_contract");
  if (!std::filesystem::exists(folder + "/libplugbench_cuda_buffer_contract.so")) {
    GTEST_SKIP() << "built without CUDA: no cuda_buffer_contract plugin in " << folder;
  }
  for (const char* staging : {"host", "auto"}) {
    TempFolder temp;
    const std::string path = temp.file("gpu.json");
    CommandResult r = run_harness(with_quick({"--plugin-dir", folder, "-p", "cuda_buffer_contract",
                                              "-v", "honest", "-w", "dist_reduce,dist_sort", "-s",
                                              "100003", "--mpi-staging", staging, "--json", path}),
                                  launcher(2));
    // Without a GPU the plugin is unavailable (its variants unknown): the results file stays empty.
    if (!std::filesystem::exists(path) || std::filesystem::file_size(path) == 0) {
      CommandResult list = run_harness({"--plugin-dir", folder, "--list"});
      if (list.out.find("cuda_buffer_contract  unavailable") != std::string::npos) {
        GTEST_SKIP() << "no GPU: " << list.out;
      }
    }
    nlohmann::json results = read_json(path);
    ASSERT_FALSE(results["results"].empty()) << r.out << r.err;
    if (results["results"][0]["status"] == "unavailable") {
      GTEST_SKIP() << "no GPU: " << results["results"][0]["message"].get<std::string>();
    }
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    for (const nlohmann::json& cell : results["results"]) {
      EXPECT_EQ(cell["status"], "ok") << cell.dump();
      const std::string used = cell["distributed"]["staging"];
      EXPECT_TRUE(std::string(staging) == "host" ? used == "staged"
                                                 : used == "staged" || used == "direct")
          << staging << ": " << cell["distributed"].dump();
    }
  }
}

TEST(MpiDistributed, AWrongSortOnOneRankFailsVerificationAndNamesThatRank) {
  CommandResult r =
      run_harness(with_quick({"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank",
                              "-w", "dist_sort", "-s", "1000", "--no-json"}),
                  launcher(3, "PLUGBENCH_FAKE_WRONG_SORT_RANK=1"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "rank 1: keys not ascending")) << r.out;
  EXPECT_FALSE(contains(r.out, "rank 0: keys not ascending")) << r.out;
  EXPECT_FALSE(contains(r.out, "rank 2: keys not ascending")) << r.out;
}

// A distributed cell runs in the rank's process, without a worker to stop: a signal on one rank
// must still end the cell in flight on every rank at its next sample, and the file be written;
// with --mpi-sync none too, where the ranks meet before a distributed cell all the same.
class DistributedStop : public ::testing::TestWithParam<std::string> {};

TEST_P(DistributedStop, ASignalOnOneRankDropsTheCellInFlightOnEveryRankAndWritesTheFile) {
  TempFolder folder;
  const std::string path = folder.file("term.json");
  CommandResult r = run_harness({"--plugin-dir",
                                 fake_plugin_dir("rank_fault"),
                                 "-p",
                                 "fake_rank",
                                 "-w",
                                 "dist_sort",
                                 "-s",
                                 "2^10,2^11",
                                 "--cache",
                                 "cold",
                                 "-r",
                                 "100000",
                                 "--warmup",
                                 "0",
                                 "--mpi-sync",
                                 GetParam(),
                                 "--timeout",
                                 "60",
                                 "-q",
                                 "--json",
                                 path},
                                launcher(2, "PLUGBENCH_FAKE_TERM_SELF_RANK=1"));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_FALSE(results["complete"].get<bool>());
  EXPECT_EQ(results["interrupted_by_signal"], 15);
  EXPECT_TRUE(results["results"].empty()) << results["results"].dump();
}

INSTANTIATE_TEST_SUITE_P(MpiDistributed, DistributedStop, ::testing::Values("lockstep", "none"));

}  // namespace
