// test_machine_load.cpp: what others took of the machine while a cell ran: the arithmetic of the
// shares (real runs on a loaded machine: test_machine_under_load.cpp).
#include "measure/machine_load.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ctime>

namespace plugbench {
namespace {

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

}  // namespace
}  // namespace plugbench
