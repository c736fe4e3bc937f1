// cell_source.hpp: where a run's cells are measured. The run asks a source for each cell and does
// not know whether it came from a worker process (--isolation process, WorkerPool) or from a
// session in the harness itself (--isolation none, InProcessSource).
#pragma once

#include "run/cell_request.hpp"
#include "run/session_cells.hpp"

#include <functional>
#include <memory>
#include <optional>

namespace plugbench {

// Called once per plugin, when its first session is open: its device, peaks and process.
using FactsCallback = std::function<void(const PluginRecord&, const SessionFacts&)>;

class CellSource {
 public:
  virtual ~CellSource() = default;
  // The measured cell, or one that records why it was not measured. nullopt when the run was told
  // to stop while the cell ran: that cell is dropped.
  virtual std::optional<CellResult> run(const PluginRecord& plugin, const CellRequest& request) = 0;
  // Every cell of the current problem is done: memory held for it may go.
  virtual void problem_done() = 0;
};

struct CellSourceSettings {
  IsolationMode isolation = IsolationMode::process;
  int device = 0;
  double timeout_s = 300;         // per cell (process isolation); 0: no limit
  int max_restarts = 3;           // worker replacements per plugin after crashes and timeouts
  int stop_fd = -1;               // readable once the run must stop (process isolation)
  bool calibrate = true;          // measure a device plugin's peak when its first session opens
  bool output_to_stderr = false;  // workers' output copied to stderr as it comes, besides kept
};

std::unique_ptr<CellSource> make_cell_source(const CellSourceSettings& settings,
                                             FactsCallback on_facts);

}  // namespace plugbench
