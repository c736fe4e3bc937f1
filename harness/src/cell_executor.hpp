// cell_executor.hpp: one plugin's side of a run: its open session, the problem it generates from a
// spec, and the cells it runs on that problem. It lives in a worker process (--isolation process,
// the default) or in the harness itself (--isolation none).
#pragma once

#include "calibration.hpp"
#include "cell_runner.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>

namespace plugbench {

// One kernel on one problem, named by the problem's spec: generation is seeded and deterministic,
// so whoever runs the cell generates the same inputs and reference from it.
struct CellRequest {
  std::string workload;
  std::string distribution;
  Shape shape;
  std::string variant;
  RunSettings settings;
};

nlohmann::json to_json(const CellRequest& request);
CellRequest cell_request_from_json(const nlohmann::json& j);

// A cell that did not run (or whose process died): the request's names and `status`.
CellResult unrun_cell(const PluginRecord& plugin, const CellRequest& request,
                      const std::string& status, const std::string& message);

// The last problem generated and its reference: consecutive cells on one problem (the variants of
// a plugin, or every plugin in --isolation none) share them.
class ProblemCache {
 public:
  struct Entry {
    ProblemData data;
    std::shared_ptr<const Reference> reference;
  };
  // Generates the problem unless it is the cached one. Throws std::bad_alloc.
  const Entry& get(const Workload& workload, const std::string& distribution, const Shape& shape);
  // Frees the cached problem (its cells are done).
  void clear() { entry_.reset(); }
  // Problems are read from this run's store folder when another worker stored them there, and
  // stored there when this one generated them (problem_store.hpp). Empty: generate every time.
  void share_through(std::string folder) { folder_ = std::move(folder); }

 private:
  std::string folder_;
  std::string workload_;
  std::string distribution_;
  Shape shape_;
  std::unique_ptr<Entry> entry_;
};

// What opening a session taught about the plugin: its device and that device's measured peak.
struct SessionFacts {
  nlohmann::json device;             // to_json(pb_device_info), or null for a host plugin
  std::vector<PeakBandwidth> peaks;  // copy, and read where the plugin can read
  std::string calibration_error;     // why there is no peak for a device plugin
  nlohmann::json process;            // process_cpu_description() of the process running the cells
};

nlohmann::json to_json(const SessionFacts& facts);
SessionFacts session_facts_from_json(const nlohmann::json& j);

// A session of one plugin and the cells run on it.
class PluginCellRunner {
 public:
  // Opens the session. Throws PluginCallError with the plugin's reason.
  PluginCellRunner(const PluginRecord& plugin, int device, ProblemCache& problems);

  // The device and, when `calibrate` is set and the plugin's memory is a device's, its peak.
  SessionFacts facts(bool calibrate) const;

  // Never throws for the plugin's failures (the cell records them); std::bad_alloc outside the
  // cell's own protocol (generating the problem) becomes an `oom` cell too.
  CellResult run(const CellRequest& request);

 private:
  const PluginRecord& plugin_;
  PluginSession session_;
  ProblemCache& problems_;
  std::unique_ptr<GpuTelemetrySource> telemetry_;  // null: why in telemetry_unavailable_
  std::string telemetry_unavailable_;
};

}  // namespace plugbench
