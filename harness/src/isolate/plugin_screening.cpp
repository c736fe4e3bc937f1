// plugin_screening.cpp: the child that loads and probes one library during discovery. It is forked:
// discovery happens before any session is opened, so the harness holds no CUDA context to break.
#include "isolate/plugin_screening.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plugbench {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

[[noreturn]] void screen_in_child(const std::string& path, const std::string& found_in, int out) {
  ::setpgid(0, 0);  // what the plugin starts can be ended with this child
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  const PluginRecord record = load_plugin(path, found_in);
  const std::string text =
      nlohmann::json(
          {{"state", to_string(record.state)}, {"name", record.name}, {"reason", record.reason}})
          .dump();
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(out, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  ::_exit(0);  // no static destructors of a library the child loaded
}

PluginRecord broken(const std::string& path, const std::string& found_in, std::string reason) {
  PluginRecord record;
  record.path = path;
  record.found_in = found_in;
  record.name = path.substr(path.find_last_of('/') + 1);
  record.reason = std::move(reason);
  return record;
}

}  // namespace

std::string describe_wait_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    int signal_number = WTERMSIG(wait_status);
    const char* name = strsignal(signal_number);
    return "killed by signal " + std::to_string(signal_number) + " (" +
           (name ? name : "unknown signal") + ")";
  }
  if (WIFEXITED(wait_status)) return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  return "ended with wait status " + std::to_string(wait_status);
}

double discovery_timeout_s() {
  if (const char* text = std::getenv("PLUGBENCH_DISCOVERY_TIMEOUT"); text && *text) {
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end && *end == '\0' && std::isfinite(seconds) && seconds > 0) return seconds;
    std::fprintf(stderr,
                 "harness: PLUGBENCH_DISCOVERY_TIMEOUT='%s' is not a number of seconds above 0; "
                 "using %g\n",
                 text, kDefaultDiscoveryTimeoutS);
  }
  return kDefaultDiscoveryTimeoutS;
}

PluginRecord screen_plugin(const std::string& path, const std::string& found_in, double timeout_s) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return broken(
        path, found_in,
        std::string("cannot screen it in a child process (pipe: ") + std::strerror(errno) + ")");
  }
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return broken(
        path, found_in,
        std::string("cannot screen it in a child process (fork: ") + std::strerror(error) + ")");
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    screen_in_child(path, found_in, pipe_fds[1]);
  }
  ::close(pipe_fds[1]);
  ::setpgid(child, child);  // also here: no race with the child's own call

  // Until the child ends (not until the pipe's end: something the plugin started may hold it).
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  std::string text;
  auto read_available = [&] {
    char chunk[4096];
    ssize_t n = 0;
    while ((n = ::read(pipe_fds[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)) {
      if (n > 0) text.append(chunk, static_cast<std::size_t>(n));
    }
  };
  constexpr int kEndCheckMs = 20;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  int wait_status = 0;
  bool timed_out = false;
  while (true) {
    pid_t done = ::waitpid(child, &wait_status, WNOHANG);
    if (done == child || (done < 0 && errno != EINTR)) break;
    if (Clock::now() >= deadline) {
      timed_out = true;
      ::kill(-child, SIGKILL);
      ::kill(child, SIGKILL);
      while (::waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    pollfd fd{pipe_fds[0], POLLIN, 0};
    if (::poll(&fd, 1, kEndCheckMs) > 0) read_available();
    // The pipe's writers all gone, the child not yet reaped: poll would return at once.
    if (fd.revents & POLLHUP) ::poll(nullptr, 0, kEndCheckMs);
  }
  read_available();
  ::close(pipe_fds[0]);
  ::kill(-child, SIGKILL);  // anything the plugin started goes with the child

  if (timed_out) {
    return broken(path, found_in,
                  "loading it or calling its probe did not finish within " +
                      seconds_text(timeout_s) +
                      " s (PLUGBENCH_DISCOVERY_TIMEOUT) and was stopped: a static constructor or "
                      "a probe that never returns? Raise the variable for a slow probe");
  }
  const nlohmann::json result = nlohmann::json::parse(text, nullptr, false);
  if (!(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) || !result.is_object()) {
    return broken(path, found_in,
                  "loading it or calling its probe ended the process that tried: " +
                      describe_wait_status(wait_status));
  }
  PluginRecord record = broken(path, found_in, result.value("reason", ""));
  const std::string state = result.value("state", "");
  record.name = result.value("name", record.name);
  record.state = state == to_string(PluginState::available)     ? PluginState::available
                 : state == to_string(PluginState::unavailable) ? PluginState::unavailable
                                                                : PluginState::broken;
  return record;
}

}  // namespace plugbench
