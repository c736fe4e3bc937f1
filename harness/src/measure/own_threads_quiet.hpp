// own_threads_quiet.hpp: waiting, before a round's reference pass, until the threads of the harness
// and of its worker processes have stopped running. An OpenMP runtime keeps its team spinning
// after a parallel region (libgomp for GOMP_SPINCOUNT, LLVM's for KMP_BLOCKTIME, 200 ms by
// default), and the pass, which starts at once, would share the CPUs with the team of the step
// before: on the H200's 16-vCPU host a pass right after an openmp sample took 1.25-1.41x the
// median pass, 0.8-0.9x after other steps (docs/measurement.md). A sample starts after its flush
// or its own team's wake-up, and showed no such effect.
#pragma once

#include <cstddef>

namespace plugbench {

// What the waits of a run came to (context.own_threads_quiet in the results).
struct QuietTally {
  std::size_t waits = 0;       // passes waited before
  double waited_ms = 0;        // in all
  std::size_t over_limit = 0;  // waits that reached the limit with threads still running
  bool unavailable = false;    // no thread list (/proc/<pid>/task): no wait
};

// How long a wait may last: past LLVM's 200 ms block time.
inline constexpr double kQuietLimit_ms = 300;

// Waits until none of the harness's other threads and its child processes' threads is runnable
// (running, or ready to run and waiting for a CPU), or until `limit_ms`. Adds the wait to `tally`.
// Worker processes are found through /proc/<pid>/task/<tid>/children: a kernel built without
// CONFIG_PROC_CHILDREN lists none, and only the harness's own threads are waited for.
void wait_until_own_threads_quiet(QuietTally& tally, double limit_ms = kQuietLimit_ms);

}  // namespace plugbench
