// worker_process.cpp: the worker's loop: load the one plugin it is given, open a session, run the
// cells it is sent, and answer each with the whole cell.
#include "cells/worker_process.hpp"

#include "cells/session_cells.hpp"
#include "load/plugin_loader.hpp"
#include "results/results_json.hpp"

#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <string>

namespace plugbench {

bool LineReader::next(std::string& line) {
  while (true) {
    if (std::size_t end = buffer_.find('\n'); end != std::string::npos) {
      line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return true;
    }
    char chunk[65536];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

bool write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::send(fd, text.data() + written, text.size() - written, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

namespace {

bool reply(const nlohmann::json& message) {
  // What the plugin printed through stdio (fully buffered on a pipe) reaches the harness before
  // the reply does, so that the harness files it under this request's cell.
  std::fflush(nullptr);
  // A byte of a plugin's text that is not UTF-8 becomes U+FFFD instead of an exception that would
  // end the worker and record its cell as a crash.
  return write_all(kWorkerChannelFd,
                   message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

nlohmann::json pattern_json(const std::optional<MemoryPattern>& pattern) {
  return pattern ? nlohmann::json(to_string(*pattern)) : nlohmann::json(nullptr);
}

int serve() {
  LineReader requests(kWorkerChannelFd);
  PluginRecord plugin;
  ProblemCache problems;
  std::unique_ptr<SessionCells> runner;
  // Cells held open between their samples (interleaved rounds), by the harness's number; declared
  // after the problems and the session they use, so that they go first.
  std::map<int, std::unique_ptr<OpenCell>> open_cells;
  for (std::string line; requests.next(line);) {
    nlohmann::json request = nlohmann::json::parse(line);
    const std::string type = request.at("type").get<std::string>();
    // Each reply carries its request's id: the harness takes no other (worker_pool.cpp).
    const nlohmann::json id = request.value("id", nlohmann::json());
    if (type == "open") {
      plugin = load_plugin(request.at("path").get<std::string>(),
                           request.at("found_in").get<std::string>());
      std::string why;
      if (plugin.state != PluginState::available) {
        why = plugin.reason;
      } else if (plugin.name != request.at("name").get<std::string>()) {
        why = plugin.path + " now holds plugin " + plugin.name;
      } else {
        try {
          runner =
              std::make_unique<SessionCells>(plugin, request.at("device").get<int>(), problems);
        } catch (const PluginCallError& e) {
          why = e.what();
        }
      }
      bool sent = why.empty() ? reply({{"type", "opened"},
                                       {"id", id},
                                       {"facts", to_json(runner->facts(request.at("calibrate")))}})
                              : reply({{"type", "open_failed"}, {"id", id}, {"message", why}});
      if (!sent) return 0;
    } else if (type == "release") {  // no reply: the harness is done with the problem
      open_cells.clear();            // before the problem they hold on to
      problems.clear();
    } else if (type == "cell" && runner) {
      problems.offer(request.value("problem", std::string()));
      CellResult cell = runner->run(cell_request_from_json(request.at("request")));
      if (!reply({{"type", "cell"}, {"id", id}, {"cell", to_json(cell)}})) return 0;
    } else if (type == "open_cell" && runner) {
      problems.offer(request.value("problem", std::string()));
      const int key = request.at("cell").get<int>();
      auto opened = runner->open(cell_request_from_json(request.at("request")));
      std::optional<CellResult> done;
      if (CellResult* decided = std::get_if<CellResult>(&opened)) {
        done = std::move(*decided);
      } else {
        std::unique_ptr<OpenCell>& cell = std::get<std::unique_ptr<OpenCell>>(opened);
        if (request.contains("resume")) {
          cell->continue_from(request["resume"].at("samples_ms").get<std::vector<double>>(),
                              request["resume"].at("repetitions").get<int>());
        }
        if (cell->wants_sample()) {
          open_cells[key] = std::move(cell);
        } else {
          done = cell->finish();
        }
      }
      const bool sent =
          done ? reply({{"type", "cell"}, {"id", id}, {"cell", to_json(*done)}})
               : reply({{"type", "cell_opened"},
                        {"id", id},
                        {"samples_wanted",
                         open_cells[key]->repetitions() - open_cells[key]->samples_taken()},
                        {"host_pattern", pattern_json(open_cells[key]->host_pattern())}});
      if (!sent) return 0;
    } else if ((type == "sample" || type == "finish_cell") && runner) {
      const int key = request.at("cell").get<int>();
      auto it = open_cells.find(key);
      if (it == open_cells.end()) {
        std::fprintf(stderr, "harness worker: %s of cell %d, which is not open\n", type.c_str(),
                     key);
        return kWorkerExitInternal;
      }
      std::optional<double> ms;
      if (type == "sample") {
        ms = it->second->take_sample();
        it->second->pause();
      }
      bool sent = false;
      if (ms) {
        sent = reply({{"type", "sample"},
                      {"id", id},
                      {"ms", *ms},
                      {"samples_wanted", it->second->repetitions() - it->second->samples_taken()}});
      } else {  // finished, or a call ended it
        CellResult cell = it->second->finish();
        open_cells.erase(it);
        sent = reply({{"type", "cell"}, {"id", id}, {"cell", to_json(cell)}});
      }
      if (!sent) return 0;
    } else {
      std::fprintf(stderr, "harness worker: unexpected request '%s'\n", type.c_str());
      return kWorkerExitInternal;
    }
  }
  return 0;  // the harness closed the channel: the run is over
}

}  // namespace

int run_worker(const char* parent_pid) {
  // A Ctrl-C at a terminal reaches the whole process group: the harness decides, and stops us.
  (void)parent_pid;
  std::signal(SIGINT, SIG_IGN);
#ifdef __linux__
  // Never outlive the harness (killed with SIGKILL, say): a worker alone would hold its device.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (parent_pid && std::to_string(getppid()) != parent_pid) return kWorkerExitInternal;
#endif
  try {
    return serve();
  } catch (const std::bad_alloc&) {
    std::fputs("harness worker: out of host memory (std::bad_alloc) outside a cell\n", stderr);
    return kWorkerExitOutOfMemory;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "harness worker: %s\n", e.what());
    return kWorkerExitInternal;
  }
}

}  // namespace plugbench
