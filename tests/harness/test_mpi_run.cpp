// test_mpi_run.cpp: the harness under mpirun (built only where CMake found MPI): one results file
// with every rank's cells and each cell's spread, the slow rank named, a crashing rank's cell
// recorded without hanging the others, and ranks that plan differently refused.
#include "mpi_launcher.hpp"
#include "ranks/rank_placement.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::launcher;
using plugbench::testing::plugin_dir;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

std::set<int> ranks_of(const nlohmann::json& results) {
  std::set<int> ranks;
  for (const nlohmann::json& cell : results["results"]) ranks.insert(cell.value("rank", -1));
  return ranks;
}

TEST(MpiRun, TwoRanksWriteOneFileWithEveryRanksCellsAndEachCellsSpread) {
  TempFolder folder;
  const std::string path = folder.file("two.json");
  // A large threshold: this test is about the file, not about noise on a shared CI machine.
  CommandResult r = run_harness({"-p", "cpu_serial,openmp", "-w", "reduce,scan", "-s", "2^12",
                                 "--repetitions", "3", "--outlier-threshold", "5", "--json", path},
                                launcher(2));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "over 2 ranks")) << r.out;
  EXPECT_TRUE(contains(r.out, "ranks: 2 on 1 host, in lock-step")) << r.out;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(results["schema_version"], 2);
  EXPECT_EQ(results["context"]["mpi"]["rank_count"], 2);
  EXPECT_EQ(results["context"]["mpi"]["sync"], "lockstep");
  ASSERT_EQ(results["context"]["mpi"]["ranks"].size(), 2u);
  for (const nlohmann::json& rank : results["context"]["mpi"]["ranks"]) {
    EXPECT_FALSE(rank["cpus"].get<std::string>().empty());
    EXPECT_FALSE(rank["peaks"].empty());
  }
  EXPECT_EQ(ranks_of(results), (std::set<int>{0, 1}));
  ASSERT_EQ(results["aggregates"].size() * 2, results["results"].size());
  for (const nlohmann::json& aggregate : results["aggregates"]) {
    EXPECT_EQ(aggregate["ranks"], 2);
    EXPECT_EQ(aggregate["ranks_ok"], 2);
    EXPECT_TRUE(aggregate["slow_ranks"].empty());
    EXPECT_GE(aggregate["median_ms"]["max"].get<double>(),
              aggregate["median_ms"]["min"].get<double>());
  }
  // show reads it back as the spread over the ranks; compare compares it cell by cell.
  CommandResult show = run_harness({"show", path});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(contains(show.out, "over 2 ranks")) << show.out;
  CommandResult compare = run_harness({"compare", path, path});
  EXPECT_TRUE(
      contains(compare.out, std::to_string(results["aggregates"].size()) + " cells compared"))
      << compare.out;
}

TEST(MpiRun, FourRanksOnTwoCoresEachRecordTheirShare) {
  TempFolder folder;
  const std::string path = folder.file("four.json");
  CommandResult r =
      run_harness({"-p", "cpu_serial", "-w", "reduce", "-s", "2^10", "--repetitions", "3",
                   "--outlier-threshold", "5", "--mpi-sync", "none", "--json", path},
                  launcher(4));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_EQ(results["context"]["mpi"]["sync"], "none");
  EXPECT_EQ(ranks_of(results), (std::set<int>{0, 1, 2, 3}));
  std::set<int> local_ranks;
  for (const nlohmann::json& rank : results["context"]["mpi"]["ranks"]) {
    local_ranks.insert(rank["local_rank"].get<int>());
    EXPECT_EQ(rank["local_ranks"], 4);
    // A quarter of the host's CPUs each (one each on a CI machine of two cores).
    const int cores = results["context"]["host"]["logical_cores"].get<int>();
    const int count = rank["cpu_count"].get<int>();
    EXPECT_TRUE(cores < 4 ? count == 1 : count == cores / 4 || count == (cores + 3) / 4)
        << rank.dump();
    EXPECT_EQ(rank["cpus_chosen_by"], "a share of the host's CPUs by local rank");
  }
  EXPECT_EQ(local_ranks, (std::set<int>{0, 1, 2, 3}));
}

TEST(MpiRun, ARankBoundToOneCoreByTheLauncherStillCalibratesAndRunsOnItsShare) {
  TempFolder folder;
  const std::string path = folder.file("bound.json");
  CommandResult r = run_harness(
      {"-p", "openmp", "-w", "reduce", "-s", "2^10", "--repetitions", "3", "--json", path},
      launcher(1) + "--bind-to core --map-by core ");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  // The one rank's share is every CPU the job may use (the online CPUs, or fewer in a container
  // whose cpuset is smaller), not the one core the launcher bound it to.
  const auto share = static_cast<int>(plugbench::host_job_cpus().size());
  const std::string threads = "on " + std::to_string(share) + " OpenMP threads";
  for (const nlohmann::json& peak : results["context"]["peaks"]) {
    EXPECT_TRUE(contains(peak["measured_by"].get<std::string>(), threads)) << peak.dump();
  }
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    if (plugin["name"] != "openmp") continue;
    EXPECT_EQ(plugin["process"]["cpus"], share);
  }
}

// With OMP_PLACES set, the OpenMP runtime fixes its places from the mask the process starts
// with: a rank bound to one core by the launcher would keep its in-process teams (calibration,
// dist_* cells) there, whatever share it moves to later.
TEST(MpiRun, ARankBoundToOneCoreWithOmpPlacesRunsItsOwnOpenmpTeamsOnItsWholeShare) {
  TempFolder folder;
  const std::string path = folder.file("places.json");
  CommandResult r = run_harness({"-p", "openmp", "-w", "dist_reduce", "-s", "4099", "--cache",
                                 "warm", "-r", "3", "--warmup", "0", "--json", path},
                                "export OMP_PLACES=threads OMP_PROC_BIND=spread; " + launcher(1) +
                                    "--bind-to core --map-by core ");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  // The rank's share: the CPUs its openmp process may use (the job's cpuset, not the online CPUs).
  int cpus = 0;
  for (const nlohmann::json& plugin : results["context"]["plugins"]) {
    if (plugin["name"] == "openmp") cpus = plugin["process"]["cpus"].get<int>();
  }
  if (cpus < 2) GTEST_SKIP() << "one CPU: a share of one core cannot be told from the launcher's";
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  const std::string places = "threads: " + std::to_string(cpus) + " places";
  ASSERT_FALSE(results["results"].empty());
  for (const nlohmann::json& cell : results["results"]) {
    EXPECT_EQ(cell["team"]["places"], places) << cell.dump();
    EXPECT_EQ(cell["team"]["threads"], cpus) << cell.dump();
  }
  for (const nlohmann::json& peak : results["context"]["peaks"]) {
    EXPECT_TRUE(contains(peak["measured_by"].get<std::string>(),
                         "on " + std::to_string(cpus) + " OpenMP threads"))
        << peak.dump();
  }
}

// A slow rank is reported, with its rule in words, and the run ends 0: a non-zero exit would make
// mpirun say the job was aborted after a run that succeeded. The ranks' list shows each rank's
// thread teams, and no device on a run without one.
TEST(MpiRun, TheSlowRankIsNamedWithItsHostAndTheRunSaysSo) {
  TempFolder folder;
  const std::string path = folder.file("slow.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank", "-w", "reduce",
                   "-s", "2^10", "--repetitions", "10", "--json", path},
                  launcher(3, "PLUGBENCH_FAKE_SLOW_RANK=2"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.err, "aborted")) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "slow ranks (a rank's median kernel time slower than the other "
                       "ranks' median by more than --outlier-threshold"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "rank 2 (")) << r.out;
  EXPECT_TRUE(contains(r.out, "% slower (over the 10 % --outlier-threshold, U test p ")) << r.out;
  EXPECT_TRUE(contains(r.out, "--fail-on-slow-rank makes it 6")) << r.out;
  EXPECT_TRUE(contains(r.out, "(fake_rank 1 thread)")) << r.out;
  EXPECT_FALSE(contains(r.out, "device")) << "no device on a CPU-only run: " << r.out;
  nlohmann::json results = read_json(path);
  ASSERT_EQ(results["aggregates"].size(), 1u);
  const nlohmann::json& slow = results["aggregates"][0]["slow_ranks"];
  ASSERT_EQ(slow.size(), 1u) << slow.dump();
  EXPECT_EQ(slow[0]["rank"], 2);
  EXPECT_GT(slow[0]["slower_by"].get<double>(), 2.0);  // 100 ms against 1 ms a call
  EXPECT_FALSE(slow[0]["host"].get<std::string>().empty());
  // show names it from the file.
  CommandResult show = run_harness({"show", path});
  EXPECT_TRUE(contains(show.out, "rank 2 (")) << show.out;
}

// CI asks for the slow rank to fail the job: exit 6 (mpirun's abort message then is expected).
TEST(MpiRun, FailOnSlowRankMakesASlowRankExitSix) {
  TempFolder folder;
  const std::string path = folder.file("slow.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank", "-w", "reduce",
                   "-s", "2^10", "--repetitions", "10", "--fail-on-slow-rank", "--json", path},
                  launcher(3, "PLUGBENCH_FAKE_SLOW_RANK=2"));
  EXPECT_EQ(r.exit_code, 6) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "--fail-on-slow-rank makes it 6")) << r.out;
  EXPECT_EQ(read_json(path)["aggregates"][0]["slow_ranks"].size(), 1u);
}

TEST(MpiRun, ARankWhoseWorkerCrashesRecordsItAndTheOthersGoOn) {
  TempFolder folder;
  const std::string path = folder.file("crash.json");
  CommandResult r = run_harness(
      {"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank,cpu_serial", "-w", "reduce",
       "-s", "2^10,2^11", "--repetitions", "3", "--outlier-threshold", "5", "--json", path},
      launcher(2, "PLUGBENCH_FAKE_CRASH_RANK=1"));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_TRUE(results["complete"].get<bool>());
  int crashed = 0, ok = 0;
  for (const nlohmann::json& cell : results["results"]) {
    if (cell["status"] == "crashed") {
      ++crashed;
      EXPECT_EQ(cell["rank"], 1);
      EXPECT_EQ(cell["plugin"], "fake_rank");
    } else if (cell["status"] == "ok") {
      ++ok;
    }
  }
  EXPECT_EQ(crashed, 2);     // both sizes on rank 1
  EXPECT_GE(ok, 2 + 2 * 2);  // fake_rank on rank 0, cpu_serial's variants on both ranks
}

TEST(MpiRun, ARankWhoseWorkerHangsTimesOutThatCellAndEveryRankGoesOn) {
  TempFolder folder;
  const std::string path = folder.file("hang.json");
  CommandResult r =
      run_harness({"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank,cpu_serial",
                   "-w", "reduce", "-s", "2^10", "--repetitions", "3", "--timeout", "3",
                   // Warm: a cold sample's flush of twice a 300 MiB L3 is not what this is about.
                   "--cache", "warm", "--outlier-threshold", "5", "--json", path},
                  launcher(2, "PLUGBENCH_FAKE_HANG_RANK=0"));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_TRUE(results["complete"].get<bool>());
  for (const nlohmann::json& cell : results["results"]) {
    const bool hung = cell["plugin"] == "fake_rank" && cell["rank"] == 0;
    EXPECT_EQ(cell["status"], hung ? "timeout" : "ok") << cell.dump();
  }
}

TEST(MpiRun, ASignalThatReachesOneRankStopsEveryRankAndTheFileSaysSo) {
  TempFolder folder;
  const std::string path = folder.file("term.json");
  CommandResult r = run_harness(
      {"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank,cpu_serial", "-w", "reduce",
       "-s", "2^10,2^11,2^12", "--repetitions", "3", "--outlier-threshold", "5", "--json", path},
      launcher(2, "PLUGBENCH_FAKE_TERM_RANK=1"));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_FALSE(results["complete"].get<bool>());
  EXPECT_EQ(results["interrupted_by_signal"], 15);
  EXPECT_LT(results["results"].size(), 2u * 3u * 2u);  // not every cell ran
}

// A rank that dies (SIGKILL, as the out-of-memory killer does): the launcher stops every other
// rank (SIGTERM, then SIGKILL after odls_base_sigkill_timeout, 1 s by default), and rank 0 still
// writes the problems every rank finished, marked incomplete.
void expect_the_finished_problems_after_a_killed_rank(int ranks) {
  TempFolder folder;
  const std::string path = folder.file("killed.json");
  CommandResult r = run_harness(
      {"--plugin-dir", fake_plugin_dir("rank_fault"), "-p", "fake_rank,cpu_serial", "-w", "reduce",
       "-s", "2^10,2^11,2^12", "--repetitions", "3", "--outlier-threshold", "5", "--json", path},
      launcher(ranks, "PLUGBENCH_FAKE_KILL_RANK=1 PLUGBENCH_FAKE_KILL_AT_N=4096"));
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  nlohmann::json results = read_json(path);
  ASSERT_TRUE(results.is_object()) << "no results file\n" << r.out << r.err;
  EXPECT_FALSE(results["complete"].get<bool>());
  std::set<std::string> finished;
  for (const nlohmann::json& cell : results["results"]) {
    finished.insert(cell["size"].get<std::string>() + " rank " +
                    std::to_string(cell.value("rank", -1)));
  }
  for (const char* size : {"2^10", "2^11"}) {
    for (int rank = 0; rank < ranks; ++rank) {
      EXPECT_TRUE(finished.count(size + std::string(" rank ") + std::to_string(rank)))
          << size << " of rank " << rank << " is missing\n"
          << results.dump();
    }
  }
  EXPECT_FALSE(finished.count("2^12 rank 1")) << "rank 1 died in 2^12";
}

TEST(MpiRun, ARankKilledWithSigkillLeavesEveryFinishedProblemInTheFileTwoRanks) {
  expect_the_finished_problems_after_a_killed_rank(2);
}

TEST(MpiRun, ARankKilledWithSigkillLeavesEveryFinishedProblemInTheFileThreeRanks) {
  expect_the_finished_problems_after_a_killed_rank(3);
}

TEST(MpiRun, RanksThatPlanDifferentMatricesAreRefusedBeforeAnythingRuns) {
  // Rank 1 alone sees the fake_rank plugin: `-p all` then plans more cells there.
  const std::string command = std::string(PLUGBENCH_MPIEXEC) + " " + PLUGBENCH_MPIEXEC_FLAGS +
                              " -np 1 '" + PLUGBENCH_HARNESS_PATH + "' -w reduce -s 2^10 : -np 1 " +
                              "env PLUGBENCH_PLUGIN_PATH=" + fake_plugin_dir("rank_fault") + " ";
  CommandResult r = run_harness({"-w", "reduce", "-s", "2^10", "--no-json"}, command);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "the ranks planned different matrices")) << r.err;
  EXPECT_TRUE(contains(r.err, "rank 1 plans")) << r.err;
}

TEST(MpiRun, WithoutALauncherTheFileIsARunOfOneRank) {
  TempFolder folder;
  const std::string path = folder.file("one.json");
  CommandResult r = run_harness(
      {"-p", "cpu_serial", "-w", "reduce", "-s", "2^10", "--repetitions", "3", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json results = read_json(path);
  EXPECT_FALSE(results["context"].contains("mpi"));
  EXPECT_FALSE(results.contains("aggregates"));
  EXPECT_EQ(ranks_of(results), (std::set<int>{-1}));
  EXPECT_FALSE(contains(r.out, "ranks"));
}

}  // namespace
