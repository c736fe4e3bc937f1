// results_document.hpp: the results file of a run (described by results/schema.json): the context
// (time, command, host, build, settings, devices, peaks, plugins), the cells and the crossover.
#pragma once

#include "analyze/crossover.hpp"
#include "load/plugin_loader.hpp"
#include "run/run_record.hpp"
#include "run/run_request.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace plugbench {

nlohmann::json results_document(const RunRecord& run, const RunRequest& options,
                                const std::vector<PluginRecord>& plugins,
                                const std::vector<Crossover>& crossovers);

}  // namespace plugbench
