// plugin_screening.cpp: the child that loads and probes one library during discovery. It is forked:
// discovery happens before any session is opened, so the harness holds no CUDA context to break.
#include "load/plugin_screening.hpp"

#include "base/captured_output.hpp"
#include "base/checked_number.hpp"
#include "base/safe_text.hpp"

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

// The most the parent reads from the child's output before it looks at the child and the clock
// again.
constexpr std::size_t kOutputBytesPerRead = std::size_t{1} << 20;

[[noreturn]] void screen_in_child(const std::string& path, const std::string& found_in, int out,
                                  int output) {
  ::setpgid(0, 0);  // what the plugin starts can be ended with this child
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  // What the library prints while it loads and probes goes to the parent, not the terminal.
  ::dup2(output, STDOUT_FILENO);
  ::dup2(output, STDERR_FILENO);
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
  std::fflush(nullptr);
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
    // Below a tenth of a second no library loads in time, and every plugin would be broken.
    std::string why;
    if (const std::optional<double> seconds =
            checked_number(text, {0.1, 86400, false, false, "s"}, why)) {
      return *seconds;
    }
    std::fprintf(stderr, "harness: PLUGBENCH_DISCOVERY_TIMEOUT='%s' %s; using %g s\n",
                 printable_text(text).c_str(), why.c_str(), kDefaultDiscoveryTimeoutS);
  }
  return kDefaultDiscoveryTimeoutS;
}

PluginRecord screen_plugin(const std::string& path, const std::string& found_in, double timeout_s) {
  int pipe_fds[2], output_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return broken(
        path, found_in,
        std::string("cannot screen it in a child process (pipe: ") + std::strerror(errno) + ")");
  }
  if (::pipe2(output_fds, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return broken(
        path, found_in,
        std::string("cannot screen it in a child process (pipe: ") + std::strerror(error) + ")");
  }
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    for (int fd : {pipe_fds[0], pipe_fds[1], output_fds[0], output_fds[1]}) ::close(fd);
    return broken(
        path, found_in,
        std::string("cannot screen it in a child process (fork: ") + std::strerror(error) + ")");
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    ::close(output_fds[0]);
    screen_in_child(path, found_in, pipe_fds[1], output_fds[1]);
  }
  ::close(pipe_fds[1]);
  ::close(output_fds[1]);
  ::setpgid(child, child);  // also here: no race with the child's own call

  // Until the child ends (not until the pipes' end: something the plugin started may hold them).
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  ::fcntl(output_fds[0], F_SETFL, O_NONBLOCK);
  std::string text;
  CapturedOutput output;
  // At most kOutputBytesPerRead from each pipe per call: a child that writes without end cannot
  // keep this loop from the clock. The result is a line of JSON: more than that is not one.
  auto read_available = [&] {
    char chunk[65536];
    for (int fd : {pipe_fds[0], output_fds[0]}) {
      std::size_t read_now = 0;
      ssize_t n = 0;
      while (read_now < kOutputBytesPerRead &&
             ((n = ::read(fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))) {
        if (n <= 0) continue;
        read_now += static_cast<std::size_t>(n);
        if (fd == output_fds[0]) {
          output.append(chunk, static_cast<std::size_t>(n));
        } else if (text.size() < kOutputBytesPerRead) {
          text.append(chunk, static_cast<std::size_t>(n));
        }
      }
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
    pollfd fds[2] = {{pipe_fds[0], POLLIN, 0}, {output_fds[0], POLLIN, 0}};
    if (::poll(fds, 2, kEndCheckMs) > 0) read_available();
    // The pipes' writers all gone, the child not yet reaped: poll would return at once.
    if ((fds[0].revents & POLLHUP) && (fds[1].revents & POLLHUP)) ::poll(nullptr, 0, kEndCheckMs);
  }
  read_available();
  ::close(pipe_fds[0]);
  ::close(output_fds[0]);
  ::kill(-child, SIGKILL);  // anything the plugin started goes with the child

  // Its words, when it broke, say what it was doing; when it did not, the user learns that it
  // wrote something, without the words landing in a table.
  const std::string last_output = output.last_lines(3);
  const std::string quoted = last_output.empty() ? "" : "; its last output: " + last_output;
  if (timed_out) {
    return broken(path, found_in,
                  "loading it or calling its probe did not finish within " +
                      seconds_text(timeout_s) +
                      " s (PLUGBENCH_DISCOVERY_TIMEOUT) and was stopped: a static constructor or "
                      "a probe that never returns? Raise the variable for a slow probe" +
                      quoted);
  }
  const nlohmann::json result = nlohmann::json::parse(text, nullptr, false);
  if (!(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) || !result.is_object()) {
    return broken(path, found_in,
                  "loading it or calling its probe ended the process that tried: " +
                      describe_wait_status(wait_status) + quoted);
  }
  PluginRecord record = broken(path, found_in, result.value("reason", ""));
  const std::string state = result.value("state", "");
  record.name = result.value("name", record.name);
  record.state = state == to_string(PluginState::available)     ? PluginState::available
                 : state == to_string(PluginState::unavailable) ? PluginState::unavailable
                                                                : PluginState::broken;
  if (const std::optional<PluginOutput> said = output.summary()) {
    std::fprintf(stderr,
                 "harness: %s wrote %llu bytes to stdout/stderr while it was loaded and probed "
                 "(kept out of the tables)%s%s\n",
                 printable_text(path).c_str(), static_cast<unsigned long long>(said->bytes),
                 said->first_lines.empty() ? "" : "; the first line: ",
                 said->first_lines.empty() ? "" : printable_text(said->first_lines[0]).c_str());
  }
  return record;
}

}  // namespace plugbench
