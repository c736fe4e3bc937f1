// results_json.hpp: the versioned results file (described by results/schema.json), written
// atomically (base/atomic_file.hpp).
#pragma once

#include "base/atomic_file.hpp"
#include "load/plugin_loader.hpp"
#include "measure/calibration.hpp"
#include "measure/cell_result.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace plugbench {

// Bumped when a field changes meaning or is removed; adding fields keeps the version. Version 2:
// a run of several MPI ranks holds one cell per rank ("rank"), context.mpi and the aggregates.
constexpr int kSchemaVersion = 2;

nlohmann::json to_json(const TimeStats& stats);
nlohmann::json to_json(const CellResult& cell);
nlohmann::json to_json(const PluginRecord& plugin);
nlohmann::json to_json(const PeakBandwidth& peak);
nlohmann::json to_json(const pb_device_info& device);

// The inverses, for a cell or a peak that a worker process sends to the harness (null numbers
// come back as NaN). Throw nlohmann::json::exception when a field is missing or of another type.
TimeStats time_stats_from_json(const nlohmann::json& j);
CellResult cell_from_json(const nlohmann::json& j);
PeakBandwidth peak_from_json(const nlohmann::json& j);

// Writes `document` to `path` so that the file is either the old one or the complete new one: to
// a fresh temporary file of a random name beside it, then renamed. Refuses a path that
// results_path_problem objects to. Throws std::runtime_error naming the path and the problem.
void write_json_atomically(const nlohmann::json& document, const std::string& path);

// results/<host>-<UTC time>.json, relative to the current folder.
std::string default_results_path();

}  // namespace plugbench
