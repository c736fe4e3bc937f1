// own_threads_quiet.cpp: the states of this process's threads and its children's, from
// /proc/<pid>/task/<tid>/stat, polled until none is runnable.
#include "measure/own_threads_quiet.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <sys/syscall.h>
#include <unistd.h>

namespace plugbench {
namespace {

namespace fs = std::filesystem;

// Whether a thread is running or waiting for a CPU ('R' in /proc/<pid>/task/<tid>/stat, after the
// parenthesised name). A spinning thread stays runnable also while a busy machine has it off the
// CPU, so the answer does not depend on the machine's load as CPU time over a window would.
bool runnable(const fs::path& task) {
  std::ifstream in(task / "stat");
  // The whole file: a thread's name may hold a newline or a ')', the state follows the last ')'.
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::size_t name_end = text.rfind(')');
  return name_end != std::string::npos && name_end + 2 < text.size() && text[name_end + 2] == 'R';
}

// How many threads of `pid` (not `skip_tid`) and of its child processes are runnable; -1 where
// the process's threads cannot be listed. Children are found through each thread's `children`.
int runnable_threads(const std::string& pid, const std::string& skip_tid, bool follow_children) {
  std::error_code error;
  fs::directory_iterator tasks("/proc/" + pid + "/task", error);
  if (error) return -1;
  int count = 0;
  // Stepped with an error code: a process that ends during the listing ends it, never throws.
  for (; !error && tasks != fs::directory_iterator(); tasks.increment(error)) {
    const fs::directory_entry& task = *tasks;
    if (task.path().filename() != skip_tid) count += runnable(task.path()) ? 1 : 0;
    if (!follow_children) continue;  // a worker's own children (a plugin's helpers) are not
    std::ifstream children(task.path() / "children");
    std::string child;
    while (children >> child) count += std::max(0, runnable_threads(child, skip_tid, false));
  }
  return count;
}

}  // namespace

void wait_until_own_threads_quiet(QuietTally& tally, double limit_ms) {
  if (tally.unavailable) return;
  using clock = std::chrono::steady_clock;
  const std::string self = std::to_string(static_cast<long>(::syscall(SYS_gettid)));
  const std::string pid = std::to_string(::getpid());
  const auto start = clock::now();
  bool counted = false;
  while (true) {
    const int busy = runnable_threads(pid, self, true);
    if (busy < 0) {
      tally.unavailable = true;
      return;
    }
    if (!counted) {
      ++tally.waits;
      counted = true;
    }
    const double waited_ms =
        std::chrono::duration<double, std::milli>(clock::now() - start).count();
    if (busy == 0 || waited_ms >= limit_ms) {
      tally.waited_ms += waited_ms;
      if (busy > 0) ++tally.over_limit;
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace plugbench
