// cell_source.hpp: where a run's cells are measured. The run asks a source for each cell and does
// not know whether it came from a worker process (--isolation process, WorkerPool) or from a
// session in the harness itself (--isolation none, InProcessSource).
#pragma once

#include "cells/cell_request.hpp"
#include "cells/isolation_settings.hpp"
#include "cells/session_cells.hpp"

#include <functional>
#include <memory>
#include <optional>

namespace plugbench {

// Called once per plugin, when its first session is open: its device, peaks and process.
using FactsCallback = std::function<void(const PluginRecord&, const SessionFacts&)>;

// One step of a cell measured in interleaved rounds (docs/measurement.md): its opening, one of
// its samples, or its end.
struct CellStep {
  bool stopped = false;             // the run was told to stop: the cell is dropped
  std::optional<CellResult> done;   // the cell is over: decided, ended by a call, or finished
  int samples_wanted = 0;           // an open cell's samples still to take
  std::optional<double> sample_ms;  // the sample this step took
  // At its opening: the host reference loop the cell is held to (host_pattern in
  // cell_protocol.hpp), which then takes a pass in each round beside it.
  std::optional<MemoryPattern> host_pattern;
};

class CellSource {
 public:
  virtual ~CellSource() = default;
  // The measured cell, or one that records why it was not measured. nullopt when the run was told
  // to stop while the cell ran: that cell is dropped.
  virtual std::optional<CellResult> run(const PluginRecord& plugin, const CellRequest& request) = 0;

  // A cell measured a sample at a time, between the other cells of its problem: opened (buffers,
  // the checked call, warm-up), sampled until it wants no more, finished. `id` names it among the
  // problem's open cells. A source that cannot hold cells open (the distributed workloads', whose
  // ranks meet in every call) measures the whole cell at its opening.
  virtual CellStep open(const PluginRecord& plugin, const CellRequest& request, int id) {
    (void)id;
    CellStep step;
    step.done = run(plugin, request);
    step.stopped = !step.done;
    return step;
  }
  virtual CellStep sample(int id) { return missing_cell(id); }
  virtual CellStep finish(int id) { return missing_cell(id); }

  // Every cell of the current problem is done: memory held for it may go (open cells with it).
  virtual void problem_done() = 0;

 protected:
  // A step asked of a cell this source does not hold open: a fault of the harness, said as such.
  static CellStep missing_cell(int id);
};

// `stop_fd`: readable once the run must stop (process isolation).
std::unique_ptr<CellSource> make_cell_source(const IsolationSettings& settings, int stop_fd,
                                             FactsCallback on_facts);

}  // namespace plugbench
