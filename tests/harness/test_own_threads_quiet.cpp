// test_own_threads_quiet.cpp: the rounds' wait for the harness's own threads: it returns at once
// when nothing runs, waits for a thread that spins and then sleeps (an OpenMP team after its
// parallel region), for a worker process that spins, and stops at its limit.
#include "measure/own_threads_quiet.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace plugbench {
namespace {

using clock_type = std::chrono::steady_clock;

TEST(OwnThreadsQuiet, NothingRunningIsNoWait) {
  QuietTally tally;
  wait_until_own_threads_quiet(tally, 10'000);
  EXPECT_FALSE(tally.unavailable);
  EXPECT_EQ(tally.waits, 1u);
  EXPECT_EQ(tally.over_limit, 0u);
  EXPECT_LT(tally.waited_ms, 10'000);
}

// A team's thread after its parallel region: it spins a while, then sleeps.
TEST(OwnThreadsQuiet, AThreadThatSpinsThenSleepsIsWaitedForUntilItSleeps) {
  std::mutex mutex;
  std::condition_variable wake;
  bool done = false;
  std::atomic<bool> spinning{false};
  clock_type::time_point spin_end;
  std::thread team([&] {
    spinning = true;
    const auto until = clock_type::now() + std::chrono::milliseconds(80);
    while (clock_type::now() < until) {
    }
    spin_end = clock_type::now();
    std::unique_lock lock(mutex);
    wake.wait(lock, [&] { return done; });
  });
  while (!spinning) std::this_thread::yield();
  QuietTally tally;
  wait_until_own_threads_quiet(tally, 10'000);
  const auto returned = clock_type::now();
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  wake.notify_one();
  team.join();
  EXPECT_EQ(tally.over_limit, 0u);
  EXPECT_GE(returned, spin_end) << "the wait ended while the thread still spun";
}

TEST(OwnThreadsQuiet, AThreadThatNeverStopsIsWaitedForUpToTheLimit) {
  std::atomic<bool> stop{false};
  std::atomic<bool> spinning{false};
  std::thread spinner([&] {
    spinning = true;
    while (!stop) {
    }
  });
  while (!spinning) std::this_thread::yield();
  QuietTally tally;
  wait_until_own_threads_quiet(tally, 50);
  stop = true;
  spinner.join();
  EXPECT_EQ(tally.over_limit, 1u);
  EXPECT_GE(tally.waited_ms, 50);
  wait_until_own_threads_quiet(tally, 10'000);
  EXPECT_EQ(tally.waits, 2u);
  EXPECT_EQ(tally.over_limit, 1u) << "the second wait, with nothing running, reached its limit";
}

// The samples run in worker processes: their threads count too.
TEST(OwnThreadsQuiet, AWorkerProcessThatSpinsIsWaitedFor) {
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    volatile unsigned long turns = 0;
    while (true) turns = turns + 1;
  }
  QuietTally tally;
  wait_until_own_threads_quiet(tally, 50);
  ::kill(worker, SIGKILL);
  ::waitpid(worker, nullptr, 0);
  EXPECT_EQ(tally.over_limit, 1u);
  wait_until_own_threads_quiet(tally, 10'000);
  EXPECT_EQ(tally.over_limit, 1u) << "the worker had ended, yet the wait reached its limit";
}

}  // namespace
}  // namespace plugbench
