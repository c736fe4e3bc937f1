// results_document.cpp: a run's record as the versioned results document.
#include "run/results_document.hpp"

#include "analyze/rank_table.hpp"
#include "base/host_facts.hpp"
#include "results/results_json.hpp"
#include "results/run_context.hpp"

namespace plugbench {
namespace {

nlohmann::json settings_json(const RunRequest& options, const RunRecord& run) {
  return {
      {"cache", to_string(options.measure.cache)},
      {"order", to_string(options.order)},
      {"order_seed", options.order == MeasurementOrder::interleaved ? nlohmann::json(run.order_seed)
                                                                    : nlohmann::json(nullptr)},
      {"host_memory", to_string(options.measure.host_memory)},
      {"repetitions", options.measure.repetitions ? nlohmann::json(*options.measure.repetitions)
                                                  : nlohmann::json("automatic")},
      {"min_time_s", options.measure.min_time},
      {"warmup", options.measure.warmup},
      {"cell_budget_s", options.measure.cell_budget},
      {"throttle_threshold", options.measure.throttle_threshold},
      {"baseline", options.plan.baseline},
      {"device", options.isolation.device},
      {"isolation", to_string(options.isolation.mode)},
      {"timeout_s", options.isolation.timeout_s},
      {"max_restarts", options.isolation.max_restarts},
      {"mpi_sync", to_string(options.mpi.sync)},
      {"outlier_threshold", options.mpi.outlier_threshold}};
}

// The plugin as loaded, with the peaks its cells were held to and the CPUs its process could use.
nlohmann::json plugin_json(const PluginRecord& plugin, const RunRecord& run) {
  nlohmann::json entry = to_json(plugin);
  if (auto it = run.peaks_by_plugin.find(plugin.name); it != run.peaks_by_plugin.end()) {
    const std::string space = memory_space_name(plugin.memory_space);
    if (const PeakBandwidth* copy = peak_for(it->second, space, MemoryPattern::copy)) {
      entry["peak_gbps"] = copy->gbps;
    }
    // peak_for falls back to the copy rate: the entry names only a read that was measured.
    const PeakBandwidth* read = peak_for(it->second, space, MemoryPattern::read);
    if (read != nullptr && read->pattern == to_string(MemoryPattern::read)) {
      entry["peak_read_gbps"] = read->gbps;
    }
  }
  if (auto it = run.process_by_plugin.find(plugin.name); it != run.process_by_plugin.end()) {
    entry["process"] = it->second;
  }
  return entry;
}

}  // namespace

nlohmann::json results_document(const RunRecord& run, const RunRequest& options,
                                const std::vector<PluginRecord>& plugins,
                                const std::vector<Crossover>& crossovers) {
  nlohmann::json document;
  document["schema_version"] = kSchemaVersion;
  document["complete"] = run.stopped_by_signal == 0 && !run.ranks_lost;
  if (run.stopped_by_signal != 0) document["interrupted_by_signal"] = run.stopped_by_signal;
  nlohmann::json& context = document["context"];
  context["time"] = utc_timestamp();
  context["command_line"] = options.command_line;
  context["host"] = to_json(host_description());
  context["build"] = to_json(build_description());
  context["settings"] = settings_json(options, run);
  context["devices"] = run.devices;
  context["peaks"] = nlohmann::json::array();
  for (const PeakBandwidth& peak : run.peaks) context["peaks"].push_back(to_json(peak));
  context["plugins"] = nlohmann::json::array();
  for (const PluginRecord& plugin : plugins) context["plugins"].push_back(plugin_json(plugin, run));
  document["results"] = nlohmann::json::array();
  for (const CellResult& cell : run.cells) document["results"].push_back(to_json(cell));
  document["crossover"] = crossover_json(crossovers);
  if (options.order == MeasurementOrder::interleaved) {
    context["own_threads_quiet"] = {{"waits", run.quiet.waits},
                                    {"waited_s", run.quiet.waited_ms / 1000},
                                    {"over_limit", run.quiet.over_limit},
                                    {"limit_ms", kQuietLimit_ms},
                                    {"available", !run.quiet.unavailable}};
  }
  if (!run.mpi.is_null()) {
    context["mpi"] = run.mpi;
    document["aggregates"] = nlohmann::json::array();
    for (const RankSpread& spread : run.spreads) {
      nlohmann::json aggregate = to_json(spread);
      for (nlohmann::json& slow : aggregate["slow_ranks"]) {
        slow.update(rank_identity(run.mpi, slow["rank"].get<int>()));
      }
      document["aggregates"].push_back(aggregate);
    }
  }
  return document;
}

}  // namespace plugbench
