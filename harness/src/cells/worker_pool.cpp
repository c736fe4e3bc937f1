// worker_pool.cpp: starting workers (posix_spawn of the harness itself: nothing is forked from a
// process that may hold a CUDA context), the request/reply exchange under a time limit, and what a
// dead or overrunning worker leaves in its cell.
#include "cells/worker_pool.hpp"

#include "base/cpu_masks.hpp"
#include "base/safe_text.hpp"
#include "base/stop_signal.hpp"
#include "cells/worker_process.hpp"
#include "results/results_json.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

extern char** environ;

namespace plugbench {
namespace {

using Clock = std::chrono::steady_clock;

// The most one drain_output call reads before the poll loop looks at the channel, the stop fd
// and the deadline again.
constexpr std::size_t kOutputBytesPerDrain = std::size_t{1} << 20;
// A reply is a cell as JSON (kilobytes); a channel holding this much without a line break is
// being flooded, not answered.
constexpr std::size_t kMaxReplyBytes = std::size_t{64} << 20;
// Without a pidfd the poll loop wakes this often to see whether the worker has ended.
constexpr int kEndCheckMs = 100;

// A descriptor that becomes readable when `pid` ends; -1 where the kernel lacks pidfd_open (before
// Linux 5.3): then the poll loop checks with waitpid.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // close-on-exec by default
#else
  (void)pid;
  return -1;
#endif
}

// Sends `signal_number` to the worker and to every process of its group (what it forked); the
// worker itself apart, in case a plugin moved it to another group.
void signal_worker_group(pid_t pid, int signal_number) {
  ::kill(-pid, signal_number);
  ::kill(pid, signal_number);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// Whether a reply's cell is the one the request asked for.
bool answers(const CellResult& cell, const PluginRecord& plugin, const CellRequest& request) {
  return cell.plugin == plugin.name && cell.workload == request.workload &&
         cell.variant == request.variant && cell.distribution == request.distribution &&
         cell.shape == request.shape;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

WorkerPool::WorkerPool(const IsolationSettings& settings, int stop_fd, FactsCallback on_facts)
    : settings_(settings), stop_fd_(stop_fd), on_facts_(std::move(on_facts)) {}

WorkerPool::~WorkerPool() {
  // End of input for all first, so that they close their sessions in parallel.
  for (auto& [name, state] : plugins_) {
    if (state.worker) close_fd(state.worker->channel);
  }
  for (auto& [name, state] : plugins_) {
    if (state.worker) retire(*state.worker);
    state.worker.reset();
  }
}

WorkerPool::Worker WorkerPool::spawn() const {
  int channel[2], output[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair");
  }
  if (::pipe2(output, O_CLOEXEC) != 0) {
    int error = errno;
    ::close(channel[0]);
    ::close(channel[1]);
    throw std::system_error(error, std::generic_category(), "pipe2");
  }
  // The child's ends above the numbers they are copied to, so that every dup2 really copies (and
  // so clears close-on-exec); every other descriptor of the harness stays closed in the worker.
  int child_channel = ::fcntl(channel[1], F_DUPFD_CLOEXEC, 10);
  int child_output = ::fcntl(output[1], F_DUPFD_CLOEXEC, 10);
  ::close(channel[1]);
  ::close(output[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_output, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_output, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_channel, kWorkerChannelFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  // A process group of its own: whatever a plugin forks can be ended with the worker.
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);

  std::string executable = boost::dll::program_location().string();
  std::string flag = kWorkerFlag;
  std::string parent = std::to_string(::getpid());
  char* argv[] = {executable.data(), flag.data(), parent.data(), nullptr};
  pid_t pid = -1;
  int result = 0;
  {
    const ThreadOnAllPlaces all_places;  // the worker gets every CPU of the places
    result = ::posix_spawn(&pid, executable.c_str(), &actions, &attributes, argv, environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(child_channel);
  ::close(child_output);
  if (result != 0) {
    ::close(channel[0]);
    ::close(output[0]);
    throw std::system_error(result, std::generic_category(),
                            "cannot start a worker process (" + executable + ")");
  }
  ::fcntl(output[0], F_SETFL, ::fcntl(output[0], F_GETFL) | O_NONBLOCK);
  register_process_group(pid);
  Worker worker;
  worker.pid = pid;
  worker.pidfd = open_pidfd(pid);
  worker.channel = channel[0];
  worker.output = output[0];
  return worker;
}

void WorkerPool::drain_output(Worker& worker) {
  std::size_t drained = 0;
  while (worker.output >= 0 && drained < kOutputBytesPerDrain) {
    char chunk[65536];
    ssize_t n = ::read(worker.output, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;  // EAGAIN: nothing more for now
    if (n == 0) {
      close_fd(worker.output);
      return;
    }
    drained += static_cast<std::size_t>(n);
    cell_output_.append(chunk, static_cast<std::size_t>(n));
    // Best effort: a closed stderr costs the copy, never the run.
    if (settings_.output_to_stderr) write_all(STDERR_FILENO, std::string(chunk, std::size_t(n)));
  }
}

bool WorkerPool::has_ended(Worker& worker) {
  if (worker.wait_status) return true;
  int wait_status = 0;
  if (::waitpid(worker.pid, &wait_status, WNOHANG) != worker.pid) return false;
  worker.wait_status = wait_status;
  return true;
}

bool WorkerPool::send_request(Worker& worker, nlohmann::json message) {
  worker.request_id = request_ids_() >> 11;  // 53 bits: exact in any JSON reader
  message["id"] = worker.request_id;
  return write_all(worker.channel, message.dump() + "\n");
}

namespace {

// Reads what the channel holds now, without blocking; false at its end (or a reset).
bool read_available(int channel, std::string& replies) {
  while (true) {
    char chunk[65536];
    ssize_t n = ::recv(channel, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n > 0) {
      replies.append(chunk, static_cast<std::size_t>(n));
      if (replies.size() > kMaxReplyBytes) return true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

}  // namespace

WorkerPool::Wait WorkerPool::wait_for_reply(Worker& worker, nlohmann::json& reply, double limit_s) {
  const bool limited = limit_s > 0;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(limited ? limit_s : 0));
  bool ended = false;
  while (true) {
    if (std::size_t end = worker.replies.find('\n'); end != std::string::npos) {
      reply = nlohmann::json::parse(worker.replies.substr(0, end), nullptr, false);
      worker.replies.erase(0, end + 1);
      if (reply.is_discarded()) return Wait::reply;  // unreadable: failed_cell says so
      const nlohmann::json* id = reply.is_object() && reply.contains("id") ? &reply["id"] : nullptr;
      const bool answers_request =
          id && id->is_number_unsigned() && id->get<std::uint64_t>() == worker.request_id;
      return answers_request ? Wait::reply : Wait::mismatched;
    }
    if (worker.replies.size() > kMaxReplyBytes) return Wait::mismatched;
    // The worker's end, not the channel's: a process it forked may hold the channel open.
    if (ended) return Wait::died;
    int timeout_ms = -1;
    if (limited) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Wait::timed_out;
      timeout_ms = static_cast<int>(std::min<long long>(left + 1, INT_MAX));
    }
    if (worker.pidfd < 0)
      timeout_ms = timeout_ms < 0 ? kEndCheckMs : std::min(timeout_ms, kEndCheckMs);
    pollfd fds[4] = {{worker.channel, POLLIN, 0},
                     {worker.output, POLLIN, 0},
                     {stop_fd_, POLLIN, 0},
                     {worker.pidfd, POLLIN, 0}};
    int ready = ::poll(fds, 4, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;  // a stop signal: its byte is in stop_fd by now
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if (fds[2].revents) return Wait::interrupted;
    if (fds[1].revents) drain_output(worker);
    if (fds[0].revents && !read_available(worker.channel, worker.replies)) ended = true;
    if (fds[3].revents || (worker.pidfd < 0 && has_ended(worker))) {
      read_available(worker.channel, worker.replies);  // a reply sent just before the end counts
      ended = true;
    }
  }
}

int WorkerPool::terminate(Worker& worker, bool& needed_kill) {
  signal_worker_group(worker.pid, SIGTERM);
  return reap_within_grace(worker, needed_kill);
}

int WorkerPool::reap_within_grace(Worker& worker, bool& needed_kill) {
  needed_kill = false;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(settings_.grace_s));
  int wait_status = worker.wait_status.value_or(0);
  while (!worker.wait_status) {
    pid_t done = ::waitpid(worker.pid, &wait_status, WNOHANG);
    if (done == worker.pid) break;
    if (done < 0 && errno != EINTR) break;  // not our child any more: nothing to wait for
    if (Clock::now() >= until) {
      needed_kill = true;
      signal_worker_group(worker.pid, SIGKILL);
      while (::waitpid(worker.pid, &wait_status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    drain_output(worker);  // a worker blocked on a full output pipe could not end
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // What the plugin forked goes with its worker: nothing of a plugin outlives its worker.
  ::kill(-worker.pid, SIGKILL);
  forget_process_group(worker.pid);
  drain_output(worker);
  close_fd(worker.channel);
  close_fd(worker.output);
  close_fd(worker.pidfd);
  worker.pid = -1;
  return wait_status;
}

void WorkerPool::retire(Worker& worker) {
  close_fd(worker.channel);  // end of input: the worker closes its session and exits
  bool killed = false;
  reap_within_grace(worker, killed);
}

void WorkerPool::stop_all() {
  for (auto& [name, state] : plugins_) {
    if (state.worker) signal_worker_group(state.worker->pid, SIGTERM);
  }
  for (auto& [name, state] : plugins_) {
    if (!state.worker) continue;
    bool killed = false;
    reap_within_grace(*state.worker, killed);
    state.worker.reset();
  }
}

void WorkerPool::problem_done() {
  problems_.clear();
  held_.clear();  // the release below frees them in their workers
  const std::string message = nlohmann::json({{"type", "release"}}).dump() + "\n";
  for (auto& [name, state] : plugins_) {
    if (state.worker)
      write_all(state.worker->channel, message);  // a dead one shows at its next cell
  }
}

CellResult WorkerPool::failed_cell(const PluginRecord& plugin, const CellRequest& request,
                                   Worker& worker, Wait wait, const char* during, double limit_s) {
  bool killed = false;
  CellStatus status = CellStatus::crashed;
  std::string message;
  if (wait == Wait::mismatched) {
    terminate(worker, killed);
    message = "the reply did not match the request: the worker's channel carried, " +
              std::string(during) +
              ", a reply without the id of the request in flight, or for another cell (written "
              "by a plugin on descriptor " +
              std::to_string(kWorkerChannelFd) +
              "?); the worker was stopped so that no later cell takes a reply meant for another";
  } else if (wait == Wait::reply) {  // an answer it should not have given: the protocol is broken
    terminate(worker, killed);
    message = "the worker answered " + std::string(during) +
              " with a reply the harness cannot read (a plugin writing to descriptor " +
              std::to_string(kWorkerChannelFd) + "?)";
  } else if (wait == Wait::timed_out) {
    terminate(worker, killed);
    status = CellStatus::timeout;
    message =
        (limit_s == settings_.timeout_s
             ? "no result within the --timeout of " + seconds_text(limit_s) + " s "
             : "no answer within " + seconds_text(limit_s) + " s (the --timeout, at least " +
                   seconds_text(settings_.open_floor_s) + " s for opening a session) ") +
        during + "; the worker was stopped with " +
        (killed ? "SIGKILL after it ignored SIGTERM for " + seconds_text(settings_.grace_s) + " s"
                : std::string("SIGTERM"));
  } else {
    int wait_status = reap_within_grace(worker, killed);
    message =
        "the worker process died " + std::string(during) + ": " + describe_wait_status(wait_status);
    // The signal decides: a worker that prints "bad_alloc" and then segfaults crashed. Only the
    // way an uncaught std::bad_alloc ends a process (std::terminate, abort: SIGABRT) makes the
    // text count, or the worker's own out-of-memory exit code.
    const bool ended_by_terminate = WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGABRT;
    bool out_of_memory =
        (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == kWorkerExitOutOfMemory) ||
        (ended_by_terminate && cell_output_.tail_contains("std::bad_alloc"));
    if (out_of_memory) {
      status = CellStatus::oom;
      message += " (it ran out of host memory)";
    } else if (!killed && WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGKILL) {
      message +=
          " (from outside the harness: the kernel's out-of-memory killer ends processes "
          "this way when the machine runs out of memory)";
    }
  }
  if (std::string words = cell_output_.last_lines(3); !words.empty()) {
    message += "; its last output: " + words;
  }
  return unrun_cell(plugin, request, status, message);
}

WorkerPool::Opened WorkerPool::open_session(const PluginRecord& plugin, PluginState& state,
                                            const CellRequest& request, CellResult& decided) {
  if (valid_utf8(plugin.path) != plugin.path || valid_utf8(plugin.found_in) != plugin.found_in) {
    state.unavailable =
        "its path is not valid UTF-8, which the request to a worker (JSON) cannot "
        "carry; rename the file or its folder, or run with --isolation none";
    decided = unrun_cell(plugin, request, CellStatus::unavailable, state.unavailable);
    return Opened::decided;
  }
  try {
    state.worker = spawn();
  } catch (const std::system_error& e) {
    decided = unrun_cell(plugin, request, CellStatus::error, e.what());
    return Opened::decided;
  }
  Worker& worker = *state.worker;
  nlohmann::json open = {{"type", "open"},
                         {"path", plugin.path},
                         {"found_in", plugin.found_in},
                         {"name", plugin.name},
                         {"device", settings_.device},
                         {"calibrate", settings_.calibrate && !state.facts_reported}};
  nlohmann::json reply;
  const double open_limit_s =
      settings_.timeout_s > 0 ? std::max(settings_.timeout_s, settings_.open_floor_s) : 0;
  Wait wait = send_request(worker, open) ? wait_for_reply(worker, reply, open_limit_s) : Wait::died;
  if (wait == Wait::interrupted) {
    stop_all();
    return Opened::interrupted;
  }
  if (wait == Wait::reply && reply.is_object() && reply.value("type", "") == "opened") {
    if (!state.facts_reported) {
      state.facts_reported = true;
      try {
        on_facts_(plugin, session_facts_from_json(reply.at("facts")));
      } catch (const std::exception& e) {  // nlohmann's, or a figure that is no number
        std::fprintf(stderr, "harness: %s sent unreadable session facts: %s\n", plugin.name.c_str(),
                     printable_text(e.what()).c_str());
      }
    }
    return Opened::ok;
  }
  if (wait == Wait::reply && reply.is_object() && reply.value("type", "") == "open_failed") {
    state.unavailable = reply.value("message", "the plugin's session cannot be opened");
    retire(worker);
    state.worker.reset();
    decided = unrun_cell(plugin, request, CellStatus::unavailable, state.unavailable);
    return Opened::decided;
  }
  ++state.failures;
  decided = failed_cell(plugin, request, worker, wait, "while opening the plugin's session",
                        open_limit_s);
  state.worker.reset();
  return Opened::decided;
}

std::optional<CellResult> WorkerPool::run(const PluginRecord& plugin, const CellRequest& request) {
  cell_output_.clear();
  std::optional<CellResult> cell = run_in_worker(plugin, request);
  // The worker flushed its stdio before it replied: what it wrote before is in the pipe by now.
  if (PluginState& state = plugins_[plugin.name]; state.worker) drain_output(*state.worker);
  if (cell) cell->output = cell_output_.summary();
  return cell;
}

std::optional<WorkerPool::Answer> WorkerPool::ready_worker(const PluginRecord& plugin,
                                                           const CellRequest& request, bool held) {
  PluginState& state = plugins_[plugin.name];
  Answer answer;
  if (state.worker && has_ended(*state.worker)) {
    // Died while idle (the kernel's OOM killer picks the largest process, perhaps this one).
    bool killed = false;
    const int wait_status = reap_within_grace(*state.worker, killed);
    std::fprintf(stderr,
                 "harness: the worker of %s ended between cells (%s); starting a fresh one\n",
                 plugin.name.c_str(), describe_wait_status(wait_status).c_str());
    state.worker.reset();
    ++state.failures;
  }
  if (!state.unavailable.empty()) {
    answer.decided = unrun_cell(plugin, request, CellStatus::unavailable, state.unavailable);
    return answer;
  }
  if (state.failures > settings_.max_restarts && !held) {
    answer.decided = unrun_cell(
        plugin, request, CellStatus::skipped,
        "the worker of " + plugin.name + " crashed or timed out " + std::to_string(state.failures) +
            " times (restarted " + std::to_string(settings_.max_restarts) +
            " times, the --max-restarts limit): its remaining cells are not run");
    return answer;
  }
  if (state.worker) return std::nullopt;
  ++state.generation;
  CellResult decided;
  switch (open_session(plugin, state, request, decided)) {
    case Opened::ok:
      return std::nullopt;
    case Opened::decided:
      answer.decided = std::move(decided);
      return answer;
    case Opened::interrupted:
      answer.stopped = true;
      return answer;
  }
  return std::nullopt;
}

WorkerPool::Answer WorkerPool::exchange(const PluginRecord& plugin, const CellRequest& request,
                                        nlohmann::json message) {
  PluginState& state = plugins_[plugin.name];
  Worker& worker = *state.worker;
  const std::string problem_name =
      problem_file_name(request.workload, request.distribution, request.shape);
  // The harness generates the problem itself, not the first worker that needs it: a plugin in
  // that worker could put a forgery in its place before the harness took a copy.
  if (const Workload* workload = WorkloadRegistry::instance().find(request.workload)) {
    problems_.generate(problem_name, *workload, request.distribution, request.shape);
  }
  message["problem"] = problems_.path(problem_name);
  Answer answer;
  nlohmann::json reply;
  Wait wait = send_request(worker, message) ? wait_for_reply(worker, reply, settings_.timeout_s)
                                            : Wait::died;
  if (wait == Wait::interrupted) {
    stop_all();
    answer.stopped = true;
    return answer;
  }
  if (wait == Wait::reply && reply.is_object() && reply.contains("type")) {
    answer.reply = std::move(reply);
    return answer;
  }
  ++state.failures;
  answer.decided = failed_cell(plugin, request, worker, wait, "in this cell", settings_.timeout_s);
  state.worker.reset();
  return answer;
}

CellResult WorkerPool::cell_of_reply(const PluginRecord& plugin, const CellRequest& request,
                                     const nlohmann::json& reply) {
  PluginState& state = plugins_[plugin.name];
  Worker& worker = *state.worker;
  try {
    if (reply.value("type", "") == "cell") {
      CellResult cell = cell_from_json(reply.at("cell"));
      if (answers(cell, plugin, request)) {
        // A plugin that failed may have left its process unusable (a sticky CUDA error, leaked
        // memory): its next cell gets a fresh worker. Not counted against --max-restarts.
        if (cell.status == CellStatus::error || cell.status == CellStatus::oom) {
          retire(worker);
          state.worker.reset();
        }
        return cell;
      }
      ++state.failures;
      CellResult mismatched = failed_cell(plugin, request, worker, Wait::mismatched, "in this cell",
                                          settings_.timeout_s);
      state.worker.reset();
      return mismatched;
    }
  } catch (const nlohmann::json::exception&) {
  } catch (const std::invalid_argument&) {  // a reply whose figure is no number (a forged one)
  }
  ++state.failures;
  CellResult cell =
      failed_cell(plugin, request, worker, Wait::reply, "in this cell", settings_.timeout_s);
  state.worker.reset();
  return cell;
}

std::optional<CellResult> WorkerPool::run_in_worker(const PluginRecord& plugin,
                                                    const CellRequest& request) {
  if (std::optional<Answer> decided = ready_worker(plugin, request)) {
    if (decided->stopped) return std::nullopt;
    return std::move(decided->decided);
  }
  Answer answer = exchange(plugin, request, {{"type", "cell"}, {"request", to_json(request)}});
  if (answer.stopped) return std::nullopt;
  if (answer.decided) return std::move(answer.decided);
  return cell_of_reply(plugin, request, *answer.reply);
}

CellStep WorkerPool::step_of(int id, Answer answer) {
  HeldCell& held = held_.at(id);
  PluginState& state = plugins_[held.plugin->name];
  CellStep step;
  if (answer.stopped) {
    step.stopped = true;
  } else if (answer.decided) {
    step.done = std::move(answer.decided);
  } else if (answer.reply->value("type", "") == "cell_opened" ||
             answer.reply->value("type", "") == "sample") {
    const nlohmann::json& reply = *answer.reply;
    try {
      step.samples_wanted = reply.at("samples_wanted").get<int>();
      if (const std::string pattern = reply.value("host_pattern", nlohmann::json()).is_string()
                                          ? reply["host_pattern"].get<std::string>()
                                          : "";
          !pattern.empty()) {
        step.host_pattern =
            pattern == to_string(MemoryPattern::read) ? MemoryPattern::read : MemoryPattern::copy;
      }
      if (reply.contains("ms")) {
        step.sample_ms = reply["ms"].get<double>();
        held.samples_ms.push_back(*step.sample_ms);
      }
      held.generation = state.generation;
    } catch (const std::exception&) {  // nlohmann's, or a figure that is no number
      ++state.failures;
      step.done = failed_cell(*held.plugin, held.request, *state.worker, Wait::reply,
                              "in this cell", settings_.timeout_s);
      state.worker.reset();
    }
  } else {
    step.done = cell_of_reply(*held.plugin, held.request, *answer.reply);
  }
  if (state.worker) drain_output(*state.worker);
  if (step.done) step.done->output = cell_output_.summary();
  held.output = cell_output_;
  if (step.done || step.stopped) held_.erase(id);
  return step;
}

CellStep WorkerPool::open(const PluginRecord& plugin, const CellRequest& request, int id) {
  cell_output_.clear();
  HeldCell& held = held_[id];
  held = HeldCell{};
  held.plugin = &plugin;
  held.request = request;
  if (std::optional<Answer> decided = ready_worker(plugin, request)) {
    return step_of(id, std::move(*decided));
  }
  Answer answer = exchange(plugin, request,
                           {{"type", "open_cell"}, {"cell", id}, {"request", to_json(request)}});
  CellStep step = step_of(id, std::move(answer));
  if (auto it = held_.find(id); it != held_.end()) {
    it->second.repetitions = step.samples_wanted;
  }
  return step;
}

CellStep WorkerPool::held_step(int id, const nlohmann::json& message) {
  auto it = held_.find(id);
  if (it == held_.end()) return missing_cell(id);
  HeldCell& held = it->second;
  // What a replacement worker says while it starts is no held cell's.
  cell_output_.clear();
  std::optional<Answer> decided = ready_worker(*held.plugin, held.request, true);
  cell_output_ = held.output;
  if (decided) return step_of(id, std::move(*decided));
  PluginState& state = plugins_[held.plugin->name];
  if (held.generation != state.generation) {
    // Its worker died in another cell: opened again in this one, its samples so far kept.
    Answer reopened = exchange(
        *held.plugin, held.request,
        {{"type", "open_cell"},
         {"cell", id},
         {"request", to_json(held.request)},
         {"resume", {{"samples_ms", held.samples_ms}, {"repetitions", held.repetitions}}}});
    const bool reopened_ok = reopened.reply && reopened.reply->value("type", "") == "cell_opened";
    if (!reopened_ok) return step_of(id, std::move(reopened));
    held.generation = state.generation;
  }
  return step_of(id, exchange(*held.plugin, held.request, message));
}

CellStep WorkerPool::sample(int id) {
  return held_step(id, {{"type", "sample"}, {"cell", id}});
}

CellStep WorkerPool::finish(int id) {
  return held_step(id, {{"type", "finish_cell"}, {"cell", id}});
}

}  // namespace plugbench
