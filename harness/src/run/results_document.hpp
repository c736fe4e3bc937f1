// results_document.hpp: the results file of a run (described by results/schema.json): the context
// (time, command, host, build, settings, devices, peaks, plugins), the cells and the crossover.
#pragma once

#include "analyze/crossover.hpp"
#include "load/plugin_loader.hpp"
#include "results/run_context.hpp"
#include "run/run_record.hpp"
#include "run/run_request.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace plugbench {

// The run's context (its time is taken here), made once: the file and the end-of-run export
// both read it.
RunContext run_context_of(const RunRecord& run, const RunRequest& options,
                          const std::vector<PluginRecord>& plugins);

nlohmann::json results_document(const RunContext& context, const RunRecord& run,
                                const std::vector<Crossover>& crossovers);

}  // namespace plugbench
