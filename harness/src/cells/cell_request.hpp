// cell_request.hpp: one kernel on one problem, named by the problem's spec, as the harness sends it
// to whoever measures it (a worker process or the harness itself). Generation is seeded and
// deterministic, so the receiver generates the same inputs and reference from it.
#pragma once

#include "load/plugin_loader.hpp"
#include "measure/cell_result.hpp"
#include "measure/run_settings.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace plugbench {

struct CellRequest {
  std::string workload;
  std::string distribution;
  Shape shape;
  std::string variant;
  RunSettings settings;
};

// The worker channel's form. cell_request_from_json throws nlohmann::json::exception for a
// missing or mistyped field, std::invalid_argument for a setting that is none of its values.
nlohmann::json to_json(const CellRequest& request);
CellRequest cell_request_from_json(const nlohmann::json& j);

// The request's cell, decided without running it: `status` and why.
CellResult unrun_cell(const PluginRecord& plugin, const CellRequest& request, CellStatus status,
                      const std::string& message);

}  // namespace plugbench
