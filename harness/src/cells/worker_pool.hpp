// worker_pool.hpp: the harness's side of process isolation: one worker process per plugin, started
// on the plugin's first cell and kept for the run; one cell in flight at a time, under a time
// limit; a worker that dies or overruns is recorded against its cell and replaced.
#pragma once

#include "base/captured_output.hpp"
#include "cells/cell_source.hpp"
#include "cells/isolation_settings.hpp"
#include "cells/problem_store.hpp"
#include "load/plugin_loader.hpp"
#include "load/plugin_screening.hpp"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace plugbench {

class WorkerPool : public CellSource {
 public:
  // `stop_fd` becomes readable when the run must stop (SIGINT / SIGTERM).
  WorkerPool(const IsolationSettings& settings, int stop_fd, FactsCallback on_facts);
  ~WorkerPool() override;  // closes every worker: end of input, then SIGTERM, then SIGKILL
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs the cell in the plugin's worker, blocked in poll() until it answers, dies or overruns.
  // nullopt when the stop fd fired: the cell in flight is dropped and every worker is stopped.
  // What the worker wrote meanwhile (opening its session included) is the cell's `output`.
  std::optional<CellResult> run(const PluginRecord& plugin, const CellRequest& request) override;

  // Interleaved rounds: the cell held open in its plugin's worker between its samples. A worker
  // that dies in one cell takes only that cell: the others it held are opened again in its
  // replacement, their samples so far kept.
  CellStep open(const PluginRecord& plugin, const CellRequest& request, int id) override;
  CellStep sample(int id) override;
  CellStep finish(int id) override;

  // Stops every worker now: SIGTERM, then SIGKILL after the grace period.
  void stop_all();

  // Every problem's cells are done: idle workers free the problem they hold (a worker otherwise
  // keeps its last one, and host memory would hold one problem per plugin).
  void problem_done() override;

 private:
  struct Worker {
    pid_t pid = -1;    // also its process group's id: what it forks stays in the group
    int pidfd = -1;    // readable when the worker ends (-1 where the kernel has no pidfd_open)
    int channel = -1;  // requests out, replies in
    int output = -1;   // the worker's stdout and stderr
    std::optional<int> wait_status;  // once reaped
    std::uint64_t request_id = 0;    // of the request in flight; its reply must carry it
    std::string replies;
  };
  struct PluginState {
    std::optional<Worker> worker;
    std::uint64_t generation = 0;  // counts the workers started: a cell opened in an older one
                                   // is no longer held
    int failures = 0;              // crashes and timeouts
    bool facts_reported = false;
    std::string unavailable;  // why no session opens, once a worker said so
  };
  // A cell held open in a worker, as the harness knows it.
  struct HeldCell {
    const PluginRecord* plugin = nullptr;
    CellRequest request;
    std::uint64_t generation = 0;  // of the worker that holds it
    int repetitions = 0;           // samples in all
    std::vector<double> samples_ms;
    CapturedOutput output;  // what its worker wrote during its steps
  };
  // What one message about a cell came to: the worker's reply, or the cell decided without one
  // (the worker died, overran or cannot start), or the run told to stop.
  struct Answer {
    std::optional<nlohmann::json> reply;
    std::optional<CellResult> decided;
    bool stopped = false;
  };
  enum class Wait { reply, mismatched, died, timed_out, interrupted };
  enum class Opened { ok, decided, interrupted };

  Worker spawn() const;
  // Sends `message` with a fresh request id; false when the worker is gone.
  bool send_request(Worker& worker, nlohmann::json message);
  // The reply to the request in flight; `mismatched` for a reply without its id (something else
  // wrote on the channel), `died` as soon as the worker itself ends, even while a process it
  // forked still holds the channel open.
  Wait wait_for_reply(Worker& worker, nlohmann::json& reply, double limit_s);
  // Reaps the worker if it has ended (its status kept); true when it has.
  static bool has_ended(Worker& worker);
  // Ends the worker (SIGTERM, then SIGKILL after the grace) and returns its wait status.
  int terminate(Worker& worker, bool& needed_kill);
  // Waits for the worker's end, SIGKILL after the grace period; closes its descriptors.
  int reap_within_grace(Worker& worker, bool& needed_kill);
  // Closes the channel and lets the worker exit by itself, within the grace period.
  void retire(Worker& worker);
  // Reads what the worker wrote to stdout / stderr into cell_output_ (never to the harness's own
  // stdout, which holds the tables); at most a bounded amount per call, so that a worker that
  // writes without end cannot keep the harness from its channel or its deadline.
  void drain_output(Worker& worker);
  // A crashed, oom or timeout cell for a worker that died, overran or answered nonsense; the
  // worker is ended and reaped.
  CellResult failed_cell(const PluginRecord& plugin, const CellRequest& request, Worker& worker,
                         Wait wait, const char* during, double limit_s);
  // Starts the plugin's worker and opens its session; `decided` is the cell when it did not open.
  Opened open_session(const PluginRecord& plugin, PluginState& state, const CellRequest& request,
                      CellResult& decided);
  std::optional<CellResult> run_in_worker(const PluginRecord& plugin, const CellRequest& request);
  // The plugin's worker, started (and its session opened) if it has none; the cell decided when
  // no worker can run it. A `held` cell (open, its samples taken in a worker that died in another
  // cell) may start one past --max-restarts: the limit stops new cells, not finished work.
  std::optional<Answer> ready_worker(const PluginRecord& plugin, const CellRequest& request,
                                     bool held = false);
  // Sends `message` about the request's cell to the plugin's worker (ready) and waits for the
  // reply; a worker that dies or overruns decides the cell.
  Answer exchange(const PluginRecord& plugin, const CellRequest& request, nlohmann::json message);
  // A "cell" reply as the cell it carries (a mismatched one decides the cell as such).
  CellResult cell_of_reply(const PluginRecord& plugin, const CellRequest& request,
                           const nlohmann::json& reply);
  // The step of a held cell: its worker ready, the cell opened again there if that worker is not
  // the one that held it, then `message` sent.
  CellStep held_step(int id, const nlohmann::json& message);
  // The step a reply (or a decided cell) makes of the held cell `id`; forgets a cell that is done.
  CellStep step_of(int id, Answer answer);

  IsolationSettings settings_;
  int stop_fd_;
  FactsCallback on_facts_;
  // The problems the harness generated and sealed for the workers; closed after each problem
  // (problem_done).
  SealedProblems problems_;
  std::map<std::string, PluginState> plugins_;
  std::map<int, HeldCell> held_;  // cells open in workers, by the run's number for them
  // What the worker of the cell in flight wrote (one cell at a time: one capture for the pool).
  CapturedOutput cell_output_;
  std::mt19937_64 request_ids_{std::random_device{}()};  // hard for a plugin to guess
};

}  // namespace plugbench
