// earlier_runs.cpp: a compared file's cells looked up in the history's runs of its machine.
#include "analyze/earlier_runs.hpp"

#include "history/cell_filter.hpp"
#include "history/history_database.hpp"
#include "results/run_context.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>

namespace plugbench {
namespace {

CellKey key_of(const std::string& workload, const std::string& distribution, std::uint64_t n,
               const std::string& plugin, const std::string& variant) {
  return {workload, distribution, n, plugin, variant, 0};
}

// The baseline's key beside a cell's: "plugin/variant" of the same problem; none for the
// baseline itself or a cell without one.
std::optional<CellKey> baseline_key(const CellResult& cell) {
  const std::size_t slash = cell.baseline.find('/');
  if (slash == std::string::npos || cell.baseline == cell.plugin + "/" + cell.variant) {
    return std::nullopt;
  }
  return key_of(cell.workload, cell.distribution, cell.shape.n, cell.baseline.substr(0, slash),
                cell.baseline.substr(slash + 1));
}

// The settings that decide what a cell's time is, not only how precisely it is known (the
// repetitions, the budget and the order's seed do not).
constexpr const char* kSettingsThatChangeTimes[] = {
    "cache", "host_memory", "order", "isolation", "device", "warmup", "mpi_sync", "test_scale"};

// How an earlier run was measured against a compared file: the settings above that it made
// otherwise, and the host plugins that ran on other CPUs or threads.
struct RunMatch {
  std::vector<std::string> other_settings;
  std::set<std::string> other_threads;
};

RunMatch match_of(const RunContext& earlier, const RunContext& compared) {
  // Both sides through the one writer, so that a file's lenient reading and the typed context
  // give the same text for the same setting.
  const nlohmann::json theirs = to_json(earlier)["context"]["settings"];
  const nlohmann::json ours = to_json(compared)["context"]["settings"];
  auto value_of = [](const nlohmann::json& settings, const char* key) {
    const auto found = settings.find(key);
    return found == settings.end() ? nlohmann::json() : *found;
  };
  RunMatch match;
  for (const char* key : kSettingsThatChangeTimes) {
    if (value_of(theirs, key) != value_of(ours, key)) match.other_settings.push_back(key);
  }
  for (const PluginFacts& plugin : compared.plugins) {
    if (plugin.memory_space != MemorySpace::host) continue;
    for (const PluginFacts& before : earlier.plugins) {
      if (before.name == plugin.name &&
          (before.cpus != plugin.cpus || before.openmp_threads != plugin.openmp_threads)) {
        match.other_threads.insert(plugin.name);
      }
    }
  }
  return match;
}

// An earlier run of the history as a compared file meets it.
struct EarlierRun {
  std::string identity;
  RunMatch match;
};

EarlierRun earlier_run(HistoryDatabase& history, const CellPoint& point,
                       const RunContext& compared) {
  const nlohmann::json json = nlohmann::json::parse(history.run_context(point.run_id), nullptr,
                                                    /*allow_exceptions=*/false);
  const RunContext context =
      run_context_from_json(json.is_object() ? json : nlohmann::json::object());
  return {run_identity(context), match_of(context, compared)};
}

std::map<CellKey, EarlierRuns> earlier_of(HistoryDatabase& history, const ResultsFile& file,
                                          const std::vector<CellResult>& cells,
                                          const std::vector<const ResultsFile*>& compared,
                                          EarlierRunsFound& found) {
  CellFilter filter;
  filter.fields["machine"] = file.context.host.name;
  const std::string machine = machine_label_of(file.context);
  // The compared files' own runs of this machine, which are not their own earlier runs.
  std::set<std::string> compared_runs;
  for (const ResultsFile* other : compared) {
    if (machine_label_of(other->context) == machine) {
      compared_runs.insert(run_identity(other->context));
    }
  }
  // Each earlier run's median time of each cell, by the run's identity: one run added twice (two
  // documents of it, another digest each) counts once.
  std::map<std::string, std::map<CellKey, double>> runs;
  std::map<std::int64_t, EarlierRun> seen_runs;
  std::set<std::string> left_out, threads_differ;
  for (const CellPoint& point : history.cells(filter)) {
    if (point.machine != machine) continue;
    auto run = seen_runs.find(point.run_id);
    if (run == seen_runs.end()) {
      run = seen_runs.emplace(point.run_id, earlier_run(history, point, file.context)).first;
    }
    const auto& [identity, match] = run->second;
    if (compared_runs.count(identity)) continue;
    if (!match.other_settings.empty()) {
      left_out.insert(identity);
      found.settings.insert(match.other_settings.begin(), match.other_settings.end());
      continue;
    }
    if (match.other_threads.count(point.plugin)) {
      threads_differ.insert(identity);
      found.plugins.insert(point.plugin);
      continue;
    }
    if (point.status != CellStatus::ok || !point.median_ms || !std::isfinite(*point.median_ms) ||
        *point.median_ms <= 0 || point.n < 0) {
      continue;
    }
    runs[identity][key_of(point.workload, point.distribution, static_cast<std::uint64_t>(point.n),
                          point.plugin, point.variant)] = *point.median_ms;
  }
  found.kept = runs.size();
  found.other_settings = left_out.size();
  found.other_threads = threads_differ.size();
  std::map<CellKey, EarlierRuns> earlier;
  for (const CellResult& cell : cells) {
    const CellKey key =
        key_of(cell.workload, cell.distribution, cell.shape.n, cell.plugin, cell.variant);
    if (earlier.count(key)) continue;
    EarlierRuns& cell_runs = earlier[key];
    const std::optional<CellKey> baseline = baseline_key(cell);
    if (baseline) cell_runs.baseline = cell.baseline;
    for (const auto& [run, medians] : runs) {
      const auto time = medians.find(key);
      if (time == medians.end()) continue;
      cell_runs.log_times.push_back(std::log(time->second));
      if (!baseline) continue;
      const auto over = medians.find(*baseline);
      if (over != medians.end()) {
        cell_runs.log_over_baseline.push_back(std::log(time->second / over->second));
      }
    }
  }
  return earlier;
}

std::string runs_text(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " run" : " runs");
}

std::string listed(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::string left_out_text(const EarlierRunsFound& found) {
  std::string text;
  if (found.other_settings > 0) {
    text += runs_text(found.other_settings) + " made with other settings (" +
            listed(found.settings) + ")";
  }
  if (found.other_threads > 0) {
    text += std::string(text.empty() ? "" : ", ") + "the cells of " + listed(found.plugins) +
            " in " + runs_text(found.other_threads) + " made on other CPUs or threads";
  }
  return text.empty() ? "" : "; left out: " + text;
}

HistorySpread earlier_runs(HistoryDatabase& history, const ResultsFile& base,
                           const std::vector<CellResult>& base_cells, const ResultsFile& current,
                           const std::vector<CellResult>& current_cells, EarlierRunCounts& counts) {
  HistorySpread spread;
  const std::vector<const ResultsFile*> compared{&base, &current};
  spread.base = earlier_of(history, base, base_cells, compared, counts.base);
  spread.current = earlier_of(history, current, current_cells, compared, counts.current);
  spread.one_machine = machine_label_of(base.context) == machine_label_of(current.context);
  return spread;
}

std::string history_path_problem(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) return "";
  return std::filesystem::exists(path, error)
             ? ": not a file (give the history database's path)"
             : ": no history there (harness history add FILE... makes one)";
}

bool holds_several_ranks(const ResultsFile& file) {
  return file.context.mpi &&
         (file.context.mpi->rank_count > 1 || file.context.mpi->ranks.size() > 1);
}

std::shared_ptr<const HistorySpread> described_spread(
    HistoryDatabase& history, const std::string& path, const ResultsFile& base,
    const std::vector<CellResult>& base_cells, const ResultsFile& current,
    const std::vector<CellResult>& current_cells) {
  EarlierRunCounts counts;
  auto spread = std::make_shared<HistorySpread>(
      earlier_runs(history, base, base_cells, current, current_cells, counts));
  spread->described = spread->one_machine
                          ? std::to_string(counts.base.kept) + " earlier runs of this machine in " +
                                path + left_out_text(counts.base)
                          : std::to_string(counts.base.kept) +
                                " earlier runs of the base's machine and " +
                                std::to_string(counts.current.kept) + " of the new's in " + path +
                                left_out_text(counts.base) + left_out_text(counts.current);
  return spread;
}

}  // namespace plugbench
