// stop_signal.cpp: the stop handlers and their pipe.
#include "run/stop_signal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>

namespace plugbench {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
int g_stop_pipe[2] = {-1, -1};

extern "C" void request_stop(int signal_number) {
  g_stop_signal = signal_number;
  std::signal(signal_number, SIG_DFL);  // a second Ctrl-C ends the process at once
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
