// test_machine_load.cpp: what others took of the machine while a cell ran: the arithmetic of the
// shares, and a real run beside processes that take every CPU, whose cell says it was busy.
#include "measure/machine_load.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <vector>

namespace plugbench {
namespace {

using testing::CommandResult;
using testing::contains;

TEST(MachineLoad, OthersAreTheMachinesBusyTimeLessOurs) {
  CpuTimes before{1000, 400, 10, 100};
  // 1000 ticks pass: 600 busy, of them 300 ours; 20 stolen.
  CpuTimes after{2000, 1000, 30, 400};
  MachineLoad load = load_between(before, after, 1.5);
  EXPECT_DOUBLE_EQ(load.others_share, 0.3);
  EXPECT_DOUBLE_EQ(load.steal_share, 0.02);
  EXPECT_DOUBLE_EQ(load.load_average, 1.5);
  EXPECT_TRUE(load.judged);
  EXPECT_TRUE(load.busy);
  EXPECT_EQ(describe(load), "other processes used 30 % of the CPUs, steal 2 %");
}

TEST(MachineLoad, OnlyAShareAboveTheLimitsIsBusy) {
  CpuTimes before{0, 0, 0, 0};
  // Others at the limit, steal under its own: not busy.
  EXPECT_FALSE(load_between(before, {1000, 100, 0, 0}, 0).busy);
  EXPECT_TRUE(load_between(before, {1000, 101, 0, 0}, 0).busy);
  EXPECT_FALSE(load_between(before, {1000, 0, 50, 0}, 0).busy);
  EXPECT_TRUE(load_between(before, {1000, 0, 51, 0}, 0).busy);
  // Our processes counted a tick more than the machine did: no negative share.
  EXPECT_DOUBLE_EQ(load_between(before, {1000, 500, 0, 502}, 0).others_share, 0);
}

TEST(MachineLoad, AWindowOfTooFewTicksIsRecordedButNeverBusy) {
  MachineLoad load = load_between({0, 0, 0, 0}, {kLeastTicksToJudge - 1, 40, 0, 0}, 0);
  EXPECT_GT(load.others_share, 0.5);
  EXPECT_FALSE(load.judged);
  EXPECT_FALSE(load.busy);
}

TEST(MachineLoad, OurOwnWorkIsNotCountedAsOthers) {
  auto before = cpu_times_now();
  if (!before) GTEST_SKIP() << "/proc/stat cannot be read here";
  // A fifth of a second of this process's own CPU time, however busy the machine is.
  auto cpu_seconds = [] {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
  };
  const double start = cpu_seconds();
  volatile std::uint64_t spin = 0;
  while (cpu_seconds() - start < 0.2) spin = spin + 1;
  auto after = cpu_times_now();
  ASSERT_TRUE(after);
  EXPECT_GE(after->ours - before->ours, 10u) << "the spin was not counted as ours";
}

// Processes that each spin on a CPU until killed: the neighbours of a shared machine.
class Neighbours {
 public:
  explicit Neighbours(long count) {
    for (long i = 0; i < count; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        volatile std::uint64_t spin = 0;
        while (true) spin = spin + 1;
      }
      pids_.push_back(pid);
    }
  }
  ~Neighbours() {
    for (pid_t pid : pids_) kill(pid, SIGKILL);
    for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
  }

 private:
  std::vector<pid_t> pids_;
};

TEST(MachineLoad, ACellRunBesideProcessesThatTakeEveryCpuSaysItWasBusy) {
  testing::TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r;
  {
    Neighbours neighbours(sysconf(_SC_NPROCESSORS_ONLN));
    // One cell of about a second or more: enough clock ticks to judge.
    r = testing::run_harness(
        {"-p", "cpu_serial", "-w", "mandelbrot", "-s", "640x360", "-r", "3", "--json", path});
  }
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json cell = testing::read_json(path)["results"].at(0);
  ASSERT_TRUE(cell.contains("machine_load")) << cell.dump();
  EXPECT_TRUE(cell["machine_load"]["busy"].get<bool>()) << cell["machine_load"].dump();
  EXPECT_GT(cell["machine_load"]["others_cpu_share"].get<double>(), kBusyOthersShare);
  EXPECT_TRUE(contains(r.out, "cpu_serial/loop: busy machine: other processes used")) << r.out;
  EXPECT_TRUE(contains(r.out, "the machine was busy in 1 cell of 1 (")) << r.out;
  // show reads it back from the file and says the same.
  CommandResult shown = testing::run_harness({"show", path});
  EXPECT_TRUE(contains(shown.out, "the machine was busy in 1 cell of 1 (")) << shown.out;
}

// On a machine whose other processes take every CPU, with the full calibration and the
// caches flushed: the suspect rule holds each cell to the reference loop's passes in its own
// rounds, as slowed as the cell, so an honest memory-bound kernel is not flagged and one that
// writes a remembered answer is.
TEST(MachineLoad, UnderLoadACorrectKernelIsNotSuspectAndOneThatSkipsWorkIs) {
  if (testing::kUnderAddressSanitizer) GTEST_SKIP() << "the sanitizer's slowdown is not a load";
  testing::TempFolder folder;
  const std::string path = folder.file("r.json");
  CommandResult r;
  {
    Neighbours neighbours(sysconf(_SC_NPROCESSORS_ONLN));
    r = testing::run_harness(
        {"--plugin-dir", testing::fake_plugin_dir("hostile_lazy"), "-p", "hostile_lazy,cpu_serial",
         "-v", "honest,remembers_answer,loop", "-w", "reduce", "-s", "33554432", "-r", "3",
         "--warmup", "0", "--cache", "cold", "--json", path, "-q"},
        "unset PLUGBENCH_CALIBRATION; ");
  }
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int honest = 0, flagged = 0;
  const nlohmann::json results = testing::read_json(path);
  for (const nlohmann::json& cell : results["results"]) {
    ASSERT_EQ(cell["status"], "ok") << cell.dump();
    ASSERT_TRUE(cell.contains("rounds")) << "measured in rounds: " << cell.dump();
    if (cell["variant"] == "remembers_answer") {
      EXPECT_TRUE(cell["suspect"].is_string()) << cell.dump();
      EXPECT_TRUE(contains(cell["suspect"].get<std::string>(), "in the same rounds"))
          << cell.dump();
      ++flagged;
    } else {
      EXPECT_TRUE(cell["suspect"].is_null()) << cell.dump();
      ++honest;
    }
  }
  EXPECT_EQ(honest, 2);
  EXPECT_EQ(flagged, 1);
}

}  // namespace
}  // namespace plugbench
