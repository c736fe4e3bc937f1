// stop_signal.cpp: the stop handlers and their pipe.
#include "base/stop_signal.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>

#include <csignal>

namespace plugbench {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
int g_stop_pipe[2] = {-1, -1};
// Lock-free, so that the handler may read them.
std::atomic<int> g_process_groups[256];
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void request_stop(int signal_number) {
  if (g_stop_signal != 0) {  // the second: end at once, the workers' groups first
    for (std::atomic<int>& group : g_process_groups) {
      if (const int id = group.load(); id > 0) ::kill(-id, SIGKILL);
    }
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
    return;
  }
  g_stop_signal = signal_number;
  const char byte = 1;
  if (g_stop_pipe[1] >= 0 && ::write(g_stop_pipe[1], &byte, 1) < 0) {
  }
}

}  // namespace

void install_stop_handlers() {
  if (g_stop_pipe[0] < 0 && ::pipe2(g_stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    g_stop_pipe[0] = g_stop_pipe[1] = -1;
  }
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void register_process_group(int group) {
  for (std::atomic<int>& slot : g_process_groups) {
    int empty = 0;
    if (slot.compare_exchange_strong(empty, group)) return;
  }
}

void forget_process_group(int group) {
  for (std::atomic<int>& slot : g_process_groups) {
    int expected = group;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

bool stop_requested() {
  return g_stop_signal != 0;
}

int stop_signal_number() {
  return g_stop_signal;
}

int stop_fd() {
  return g_stop_pipe[0];
}

}  // namespace plugbench
