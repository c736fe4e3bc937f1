// session_cells.hpp: one plugin's open session and the cells measured on it, wherever that session
// lives: in a worker process (--isolation process, the default) or in the harness itself
// (--isolation none).
#pragma once

#include "cells/cell_request.hpp"
#include "cells/problem_cache.hpp"
#include "measure/calibration.hpp"
#include "measure/cell_protocol.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace plugbench {

// What opening a session taught about the plugin: its device and that device's measured peak.
struct SessionFacts {
  nlohmann::json device;             // to_json(pb_device_info), or null for a host plugin
  std::vector<PeakBandwidth> peaks;  // copy, and read where the plugin can read
  std::string calibration_error;     // why there is no peak for a device plugin
  nlohmann::json process;            // process_cpu_description() of the process running the cells
};

// The worker channel's form.
nlohmann::json to_json(const SessionFacts& facts);
SessionFacts session_facts_from_json(const nlohmann::json& j);

class SessionCells {
 public:
  // Opens the session. Throws PluginCallError with the plugin's reason.
  SessionCells(const PluginRecord& plugin, int device, ProblemCache& problems);

  // The device and, when `calibrate` is set and the plugin's memory is a device's, its peak.
  SessionFacts facts(bool calibrate) const;

  // Never throws for the plugin's failures (the cell records them); std::bad_alloc outside the
  // cell's own protocol (generating the problem) becomes an `oom` cell too.
  CellResult run(const CellRequest& request);

  // The cell opened for sampling a sample at a time, or the cell decided at once (no such kernel,
  // no memory for the problem). The problem stays in the cache while the cell is open.
  std::variant<CellResult, std::unique_ptr<OpenCell>> open(const CellRequest& request);

 private:
  const PluginRecord& plugin_;
  PluginSession session_;
  ProblemCache& problems_;
  std::unique_ptr<GpuTelemetrySource> telemetry_;  // null: why in telemetry_unavailable_
  std::string telemetry_unavailable_;
};

}  // namespace plugbench
