// rank_fault_plugin.cpp (fake_rank): a correct reduce that misbehaves on one MPI rank only, so
// that the MPI tests can show the harness naming that rank. The worker inherits the launcher's
// environment, so the plugin knows its rank from OMPI_COMM_WORLD_RANK (or PMI_RANK).
// PLUGBENCH_FAKE_SLOW_RANK=r: rank r sleeps 100 ms a call, the others 1 ms (wide apart, so that a
// loaded machine's scheduling delays cannot blur them). PLUGBENCH_FAKE_CRASH_RANK=r:
// rank r's worker aborts in the kernel. PLUGBENCH_FAKE_HANG_RANK=r: rank r's kernel never returns.
// PLUGBENCH_FAKE_TERM_RANK=r: rank r's first kernel call sends SIGTERM to its harness (a signal
// that reaches one rank only). PLUGBENCH_FAKE_WRONG_SORT_RANK=r: rank r's sort puts its keys in
// descending order (the distributed sort's verification must name that rank).
// PLUGBENCH_FAKE_TERM_SELF_RANK=r: rank r's first sort sends SIGTERM to its own process (a
// distributed cell runs in the rank's process: the signal reaches that rank only).
// PLUGBENCH_FAKE_KILL_RANK=r with PLUGBENCH_FAKE_KILL_AT_N=N: rank r's worker sends SIGKILL to its
// harness in the first reduce of n = N (a rank that dies, after the problems before N finished).
#include <plugbench/host_services.hpp>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

namespace {

bool this_rank_is(const char* variable) {
  const char* wanted = std::getenv(variable);
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank == nullptr) rank = std::getenv("PMI_RANK");
  return wanted != nullptr && rank != nullptr && std::atoi(wanted) == std::atoi(rank);
}

void reduce_by_rank(plugbench::sdk::Call& call) {
  if (this_rank_is("PLUGBENCH_FAKE_CRASH_RANK")) {
    std::fputs("fake_rank: this rank's kernel aborts\n", stderr);
    std::abort();
  }
  // Once per worker: a second signal ends the harness at once, and a slow machine (a sanitizer
  // build on two cores) can run the kernel again before the harness has stopped this worker.
  static bool terminated = false;
  if (!terminated && this_rank_is("PLUGBENCH_FAKE_TERM_RANK")) {
    terminated = true;
    ::kill(::getppid(), SIGTERM);
  }
  if (this_rank_is("PLUGBENCH_FAKE_KILL_RANK")) {
    const char* at = std::getenv("PLUGBENCH_FAKE_KILL_AT_N");
    if (at != nullptr && call.n() == std::strtoull(at, nullptr, 10)) ::kill(::getppid(), SIGKILL);
  }
  while (this_rank_is("PLUGBENCH_FAKE_HANG_RANK")) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  const auto* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  if (this_rank_is("PLUGBENCH_FAKE_SLOW_RANK")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } else {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  *call.output<std::int64_t>(0) = sum;
}

void sort_by_rank(plugbench::sdk::Call& call) {
  static bool terminated = false;  // once: a second signal ends the harness at once
  if (!terminated && this_rank_is("PLUGBENCH_FAKE_TERM_SELF_RANK")) {
    terminated = true;
    ::kill(::getpid(), SIGTERM);
  }
  const auto* keys = call.input<std::uint32_t>(0);
  auto* sorted = call.output<std::uint32_t>(0);
  std::copy(keys, keys + call.n(), sorted);
  if (this_rank_is("PLUGBENCH_FAKE_WRONG_SORT_RANK")) {
    std::sort(sorted, sorted + call.n(), std::greater<>());
  } else {
    std::sort(sorted, sorted + call.n());
  }
}

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "by_rank",
                  .description = "std::sort, descending on the rank the environment names",
                  .run = sort_by_rank});

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "by_rank",
                  .description = "slow or crashing on the rank the environment names",
                  .run = reduce_by_rank});

}  // namespace

PLUGBENCH_PLUGIN(plugbench::sdk::HostServices, {.name = "fake_rank",
                                                .version = "0.0.1",
                                                .description = "a test plugin for MPI runs",
                                                .memory_space = PB_MEMORY_HOST});
