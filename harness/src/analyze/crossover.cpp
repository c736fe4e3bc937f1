// crossover.cpp: the fastest cell per size on each side, and the size from which the GPU stays
// ahead.
#include "analyze/crossover.hpp"

#include "plan/sizes.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <utility>

namespace plugbench {
namespace {

const char* const kTimings[] = {"kernel", "end_to_end_pageable", "end_to_end_pinned"};

struct Best {
  double ms = 0;
  std::string plugin;
  std::string variant;
};

using BestBySize = std::map<std::uint64_t, Best>;

void keep_faster(BestBySize& best, std::uint64_t n, double ms, const CellResult& cell) {
  auto it = best.find(n);
  if (it != best.end() && it->second.ms <= ms) return;
  best[n] = {ms, cell.plugin, cell.variant};
}

// A median a crossover can use: measured (a cell read back from a file may hold NaN for null).
std::optional<double> median_ms_of(const std::optional<TimeStats>& stats) {
  if (!stats || !std::isfinite(stats->median_ms)) return std::nullopt;
  return stats->median_ms;
}

// A group's fastest times: the CPU side, and each GPU plugin's by timing.
struct Group {
  std::string workload;
  std::string distribution;
  BestBySize cpu;
  std::vector<std::string> gpu_plugins;                           // in the order they first appear
  std::map<std::pair<std::string, std::string>, BestBySize> gpu;  // (plugin, timing)
};

void add_cell(Group& group, const CellResult& cell) {
  std::optional<double> kernel_ms = median_ms_of(cell.kernel);
  if (cell.status != CellStatus::ok || !kernel_ms) return;
  const std::uint64_t n = cell.shape.n;
  if (cell.memory_space == MemorySpace::host) {
    keep_faster(group.cpu, n, *kernel_ms, cell);
    return;
  }
  if (cell.memory_space != MemorySpace::device) return;
  if (std::find(group.gpu_plugins.begin(), group.gpu_plugins.end(), cell.plugin) ==
      group.gpu_plugins.end()) {
    group.gpu_plugins.push_back(cell.plugin);
  }
  keep_faster(group.gpu[{cell.plugin, "kernel"}], n, *kernel_ms, cell);
  for (const TransferResult& transfer : cell.transfers) {
    std::optional<double> round_trip_ms = median_ms_of(transfer.end_to_end);
    if (round_trip_ms && (transfer.host_memory == "pageable" || transfer.host_memory == "pinned")) {
      keep_faster(group.gpu[{cell.plugin, "end_to_end_" + transfer.host_memory}], n, *round_trip_ms,
                  cell);
    }
  }
}

// Where the GPU stays ahead: the first point from which it wins at every larger size.
void locate(Crossover& crossover) {
  std::size_t from = crossover.series.size();
  while (from > 0 && crossover.series[from - 1].gpu_ms < crossover.series[from - 1].cpu_ms) --from;
  if (from == crossover.series.size()) {
    crossover.where = "above_range";
  } else {
    crossover.where = from == 0 ? "below_range" : "within";
    crossover.n = crossover.series[from].n;
  }
}

std::string crossover_text(const Crossover& crossover) {
  if (crossover.where == "above_range") {
    return "> " + describe_count(crossover.series.back().n);
  }
  std::string size = describe_count(*crossover.n);
  return crossover.where == "below_range" ? "<= " + size : size;
}

}  // namespace

std::vector<Crossover> find_crossovers(const std::vector<CellResult>& cells) {
  std::vector<Group> groups;
  for (const CellResult& cell : cells) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.workload == cell.workload && g.distribution == cell.distribution;
    });
    if (group == groups.end()) {
      groups.push_back({cell.workload, cell.distribution, {}, {}, {}});
      group = std::prev(groups.end());
    }
    add_cell(*group, cell);
  }
  std::vector<Crossover> crossovers;
  for (const Group& group : groups) {
    for (const std::string& plugin : group.gpu_plugins) {
      for (const char* timing : kTimings) {
        auto gpu = group.gpu.find({plugin, timing});
        if (gpu == group.gpu.end()) continue;
        Crossover crossover{group.workload, group.distribution, plugin, timing, "", {}, {}};
        for (const auto& [n, best] : gpu->second) {
          auto cpu = group.cpu.find(n);
          if (cpu == group.cpu.end()) continue;
          crossover.series.push_back(
              {n, best.ms, best.variant, cpu->second.ms, cpu->second.plugin, cpu->second.variant});
        }
        if (crossover.series.empty()) continue;
        locate(crossover);
        crossovers.push_back(std::move(crossover));
      }
    }
  }
  return crossovers;
}

nlohmann::json crossover_json(const std::vector<Crossover>& crossovers) {
  nlohmann::json entries = nlohmann::json::array();
  for (const Crossover& crossover : crossovers) {
    nlohmann::json series = nlohmann::json::array();
    for (const CrossoverPoint& point : crossover.series) {
      series.push_back({{"n", point.n},
                        {"gpu_ms", point.gpu_ms},
                        {"gpu_variant", point.gpu_variant},
                        {"cpu_ms", point.cpu_ms},
                        {"cpu_plugin", point.cpu_plugin},
                        {"cpu_variant", point.cpu_variant}});
    }
    entries.push_back({{"workload", crossover.workload},
                       {"distribution", crossover.distribution},
                       {"plugin", crossover.plugin},
                       {"timing", crossover.timing},
                       {"where", crossover.where},
                       {"n", crossover.n ? nlohmann::json(*crossover.n) : nlohmann::json(nullptr)},
                       {"series", series}});
  }
  return entries;
}

TextTable crossover_table(const std::vector<Crossover>& crossovers) {
  TextTable table;
  table.title = "crossover: the size from which each GPU plugin beats the best CPU plugin";
  table.columns = {{"workload", "workload", true},          {"distribution", "distribution", true},
                   {"GPU plugin", "plugin", true},          {"kernel only", "kernel"},
                   {"e2e pageable", "end_to_end_pageable"}, {"e2e pinned", "end_to_end_pinned"}};
  for (const Crossover& crossover : crossovers) {
    bool same_row = !table.rows.empty() && table.rows.back().cells[0] == crossover.workload &&
                    table.rows.back().cells[1] == crossover.distribution &&
                    table.rows.back().cells[2] == crossover.plugin;
    if (!same_row) {
      table.rows.push_back(
          {{crossover.workload, crossover.distribution, crossover.plugin, "", "", ""}, ""});
    }
    auto timing = std::find(std::begin(kTimings), std::end(kTimings), crossover.timing);
    table.rows.back().cells[3 + (timing - std::begin(kTimings))] = crossover_text(crossover);
  }
  table.notes = {
      "n: the smallest size from which the GPU plugin's fastest variant beats the fastest CPU cell "
      "at every larger size measured; '<= n': faster already at the smallest size, '> n': not "
      "faster at the largest.",
      "e2e: copy in + kernel + copy out (pageable or pinned host memory), against the CPU kernel "
      "alone (its data is in host memory already)."};
  return table;
}

std::vector<Crossover> report_crossover(const std::vector<CellResult>& cells, std::ostream& out,
                                        OutputFormat format) {
  std::vector<Crossover> crossovers = find_crossovers(cells);
  if (!crossovers.empty()) TableWriter(out, format).write(crossover_table(crossovers));
  return crossovers;
}

}  // namespace plugbench
