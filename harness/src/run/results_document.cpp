// results_document.cpp: a run's record as the versioned results document: its typed context
// (results/run_context.hpp) through the one serializer, then the cells, the crossover and the
// aggregates.
#include "run/results_document.hpp"

#include "analyze/rank_table.hpp"
#include "base/host_facts.hpp"
#include "measure/calibration.hpp"
#include "results/results_json.hpp"
#include "results/run_context.hpp"

#include <utility>

namespace plugbench {
namespace {

SettingsFacts settings_of(const RunRequest& options, const RunRecord& run) {
  SettingsFacts settings;
  settings.measure = options.measure;
  settings.order = to_string(options.order);
  if (options.order == MeasurementOrder::interleaved) settings.order_seed = run.order_seed;
  settings.baseline = options.plan.baseline;
  settings.device = options.isolation.device;
  settings.isolation = to_string(options.isolation.mode);
  settings.timeout_s = options.isolation.timeout_s;
  settings.max_restarts = options.isolation.max_restarts;
  settings.mpi_sync = to_string(options.mpi.sync);
  settings.outlier_threshold = options.mpi.outlier_threshold;
  settings.test_scale = test_scale();
  return settings;
}

// The plugin as loaded, with the peaks its cells were held to and the CPUs its process could use.
PluginFacts plugin_facts(const PluginRecord& plugin, const RunRecord& run) {
  PluginFacts facts = plugin_facts_from_json(to_json(plugin));
  if (auto it = run.peaks_by_plugin.find(plugin.name); it != run.peaks_by_plugin.end()) {
    if (const PeakBandwidth* copy =
            peak_for(it->second, plugin.memory_space, MemoryPattern::copy)) {
      facts.peak_gbps = copy->gbps;
    }
    // peak_for falls back to the copy rate: the entry names only a read that was measured.
    const PeakBandwidth* read = peak_for(it->second, plugin.memory_space, MemoryPattern::read);
    if (read != nullptr && read->pattern == to_string(MemoryPattern::read)) {
      facts.peak_read_gbps = read->gbps;
    }
  }
  if (auto it = run.process_by_plugin.find(plugin.name); it != run.process_by_plugin.end()) {
    read_process(it->second, facts);
  }
  return facts;
}

}  // namespace

RunContext run_context_of(const RunRecord& run, const RunRequest& options,
                          const std::vector<PluginRecord>& plugins) {
  RunContext context;
  context.complete = run.stopped_by_signal == 0 && !run.ranks_lost;
  if (run.stopped_by_signal != 0) context.interrupted_by_signal = run.stopped_by_signal;
  if (run.planned_cells > 0) context.planned_cells = run.planned_cells;
  context.time = run.started_at;
  context.run_id = run.run_id;
  context.command_line = options.command_line;
  context.host = host_description();
  context.build = build_description();
  context.settings = settings_of(options, run);
  context.devices = run.devices;
  context.peaks = run.peaks;
  for (const PluginRecord& plugin : plugins) context.plugins.push_back(plugin_facts(plugin, run));
  if (options.order == MeasurementOrder::interleaved) {
    context.own_threads_quiet =
        QuietFacts{run.quiet.waits, run.quiet.waited_ms / 1000, run.quiet.over_limit,
                   kQuietLimit_ms, !run.quiet.unavailable};
  }
  if (!run.ranks.empty()) {
    MpiFacts mpi;
    mpi.ranks = run.ranks;
    mpi.sync = to_string(options.mpi.sync);
    mpi.rank_count = mpi.ranks.size();
    mpi.shared_gpus = shared_gpus(run.ranks);
    context.mpi = std::move(mpi);
  }
  return context;
}

nlohmann::json results_document(const RunContext& context, const RunRecord& run,
                                const std::vector<Crossover>& crossovers) {
  nlohmann::json document = to_json(context);
  document["schema_version"] = kSchemaVersion;
  document["results"] = nlohmann::json::array();
  for (const CellResult& cell : run.cells) document["results"].push_back(to_json(cell));
  document["crossover"] = crossover_json(crossovers);
  if (!run.ranks.empty()) {
    document["aggregates"] = nlohmann::json::array();
    for (const RankSpread& spread : run.spreads) {
      nlohmann::json aggregate = to_json(spread);
      for (nlohmann::json& slow : aggregate["slow_ranks"]) {
        slow.update(rank_identity(run.ranks, slow["rank"].get<int>()));
      }
      document["aggregates"].push_back(aggregate);
    }
  }
  return document;
}

}  // namespace plugbench
