// rank_table.cpp: the per-problem table of a run of several ranks.
#include "analyze/rank_table.hpp"

#include "analyze/report_table.hpp"
#include "base/safe_text.hpp"
#include "render/figure_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace plugbench {

std::string slow_rank_text(const SlowRank& slow, const std::map<int, std::string>& hosts) {
  // The rule in words: a bare "threshold" leaves the reader to guess which one.
  char rule[64];
  if (slow.rule == "threshold") {
    std::snprintf(rule, sizeof rule, "over the %g %% --outlier-threshold", 100 * slow.threshold);
  } else if (slow.rule == "iqr") {
    std::snprintf(rule, sizeof rule, "above Q3 + 1.5 IQR of the ranks");
  } else {
    std::snprintf(rule, sizeof rule, "%s", slow.rule.c_str());
  }
  char figures[160];
  std::snprintf(figures, sizeof figures, " %.1f %% slower (%s, U test p %.3g)",
                100 * slow.slower_by, rule, slow.p_value);
  auto host = hosts.find(slow.rank);
  return "rank " + std::to_string(slow.rank) +
         (host != hosts.end() ? " (" + host->second + ")" : "") + figures;
}

TextTable rank_spread_table(const std::string& workload, const std::string& distribution,
                            const Shape& shape, const std::vector<RankSpread>& spreads,
                            const std::map<int, std::string>& hosts) {
  TextTable table;
  const int ranks = spreads.empty() ? 0 : spreads.front().ranks;
  table.title = workload + "  n = " + shape_text(shape) + "  distribution " + distribution +
                "  over " + std::to_string(ranks) + " ranks";
  table.context = {
      {"workload", workload}, {"n", std::to_string(shape.n)}, {"distribution", distribution}};
  table.columns = {{"plugin", "plugin", true},        {"variant", "variant", true},
                   {"ranks ok", "ranks_ok"},          {"median ms", "median_of_medians_ms"},
                   {"fastest ms", "fastest_rank_ms"}, {"slowest ms", "slowest_rank_ms"},
                   {"imbalance", "imbalance"},        {"sum GB/s", "aggregate_gbps"},
                   {"slow ranks", "slow_ranks", true}};
  for (const RankSpread& spread : spreads) {
    TableRow row;
    row.cells = {spread.cell.plugin, spread.cell.variant};
    if (!spread.median_ms) {
      row.note = to_string(spread.cell.status) + ": " + spread.cell.message;
      table.rows.push_back(row);
      continue;
    }
    std::string slow;
    for (const SlowRank& s : spread.slow)
      slow += (slow.empty() ? "" : "; ") + slow_rank_text(s, hosts);
    row.cells.insert(row.cells.end(),
                     {std::to_string(spread.ranks_ok) + "/" + std::to_string(spread.ranks),
                      format_ms(spread.median_ms), format_ms(spread.min_ms),
                      format_ms(spread.max_ms), format_number(spread.imbalance, 3),
                      format_rate(spread.aggregate_gbps), slow.empty() ? "none" : slow});
    table.rows.push_back(row);
    if (spread.ranks_ok < spread.ranks) {
      table.notes.push_back(spread.cell.plugin + "/" + spread.cell.variant + ": " +
                            to_string(spread.cell.status) + " on a rank: " + spread.cell.message);
    }
  }
  return table;
}

namespace {

std::string first_gpu_uuid(const RankFacts& rank) {
  const nlohmann::json& details = rank.details;
  if (!details.contains("devices") || !details["devices"].is_array()) return "";
  for (const nlohmann::json& device : details["devices"]) {
    if (device.contains("uuid") && device["uuid"].is_string() && !device["uuid"].empty()) {
      return device["uuid"];
    }
  }
  return "";
}

// "openmp 8 threads, cpu_serial 1 thread": the teams `rank`'s host cells ran on, by plugin.
std::string rank_teams(const std::vector<CellResult>& cells, int rank) {
  std::map<std::string, std::uint32_t> threads_by_plugin;
  for (const CellResult& cell : cells) {
    if (cell.rank == rank && cell.team) {
      std::uint32_t& threads = threads_by_plugin[cell.plugin];
      threads = std::max(threads, cell.team->threads);
    }
  }
  std::string text;
  for (const auto& [plugin, threads] : threads_by_plugin) {
    text += (text.empty() ? "" : ", ") + plugin + " " + std::to_string(threads) +
            (threads == 1 ? " thread" : " threads");
  }
  return text;
}

}  // namespace

std::vector<SharedGpu> shared_gpus(const std::vector<RankFacts>& ranks) {
  std::map<std::pair<std::string, std::string>, std::vector<int>> by_gpu;
  for (const RankFacts& rank : ranks) {
    if (std::string uuid = first_gpu_uuid(rank); !uuid.empty()) {
      by_gpu[{rank.host, uuid}].push_back(rank.rank.value_or(0));
    }
  }
  std::vector<SharedGpu> shared;
  for (const auto& [where, sharing] : by_gpu) {
    if (sharing.size() >= 2) shared.push_back({where.first, where.second, sharing});
  }
  return shared;
}

void describe_rank_sharing(const std::vector<RankFacts>& ranks, bool lockstep,
                           const std::vector<CellResult>& cells, std::ostream& out) {
  std::map<std::string, int> per_host;
  for (const RankFacts& rank : ranks) ++per_host[rank.host];
  out << "ranks: " << ranks.size() << " on " << per_host.size()
      << (per_host.size() == 1 ? " host" : " hosts") << ", "
      << (lockstep ? "in lock-step (each cell started together)"
                   : "each on its own (--mpi-sync none)")
      << "\n";
  for (const RankFacts& rank : ranks) {
    const nlohmann::json& details = rank.details;
    // A device's UUID is a plugin's text; a host name the system's: escaped for the terminal.
    out << "  rank " << rank.rank.value_or(0) << ": " << printable_text(rank.host) << ", CPUs "
        << printable_text(details.value("cpus", ""));
    if (std::string teams = rank_teams(cells, rank.rank.value_or(0)); !teams.empty()) {
      out << " (" << printable_text(teams) << ")";
    }
    // A device only where a device plugin reported one: a CPU-only run has none to name.
    const bool used_a_device =
        details.contains("devices") && details["devices"].is_array() && !details["devices"].empty();
    if (used_a_device) {
      out << ", device " << details.value("device", 0);
      if (std::string uuid = first_gpu_uuid(rank); !uuid.empty()) {
        out << " (" << printable_text(uuid) << ")";
      }
    }
    out << "\n";
  }
  for (const SharedGpu& gpu : shared_gpus(ranks)) {
    out << "  ranks";
    for (int rank : gpu.ranks) out << " " << rank;
    out << " share GPU " << printable_text(gpu.uuid) << " on " << printable_text(gpu.host)
        << ": their figures are those of a shared GPU, and their sum GB/s adds rates measured in "
           "turn, not at once\n";
  }
}

bool report_slow_ranks(const std::vector<RankSpread>& spreads,
                       const std::map<int, std::string>& hosts, std::ostream& out) {
  bool any = false;
  for (const RankSpread& spread : spreads) {
    for (const SlowRank& slow : spread.slow) {
      if (!any) {
        out << "slow ranks (a rank's median kernel time slower than the other ranks' median by "
               "more than --outlier-threshold, or with five ranks or more above Q3 + 1.5 IQR of "
               "their medians; and its samples slower by a Mann-Whitney U test, p < 0.05):\n";
      }
      any = true;
      // Names and hosts may come from a results file: escaped for the terminal.
      out << "  "
          << printable_text(spread.cell.workload + " " + spread.cell.distribution +
                            " n=" + std::to_string(spread.cell.shape.n) + " " + spread.cell.plugin +
                            "/" + spread.cell.variant + ": " + slow_rank_text(slow, hosts))
          << "\n";
    }
  }
  return any;
}

nlohmann::json rank_identity(const std::vector<RankFacts>& ranks, int rank) {
  nlohmann::json identity = {{"host", nullptr}, {"gpu_uuid", nullptr}, {"device", nullptr}};
  for (const RankFacts& entry : ranks) {
    if (entry.rank.value_or(-1) != rank) continue;
    identity["host"] = entry.host;
    identity["device"] = entry.details.value("device", 0);
    if (std::string uuid = first_gpu_uuid(entry); !uuid.empty()) identity["gpu_uuid"] = uuid;
  }
  return identity;
}

}  // namespace plugbench
