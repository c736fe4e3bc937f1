// run_record.hpp: what a run collects while it runs: the peaks it calibrated, the facts each
// plugin's first session reported, the cells, and whether a signal stopped it. The results
// document and the end-of-run report are made from it.
#pragma once

#include "analyze/rank_spread.hpp"
#include "cells/session_cells.hpp"
#include "load/plugin_loader.hpp"
#include "measure/calibration.hpp"
#include "measure/cell_result.hpp"
#include "measure/own_threads_quiet.hpp"
#include "results/run_context.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace plugbench {

struct RunRecord {
  std::vector<PeakBandwidth> peaks;  // every peak measured: the host's, then each device's
  std::map<std::string, std::vector<PeakBandwidth>> peaks_by_plugin;  // the peaks a cell is held to
  std::map<std::string, nlohmann::json> process_by_plugin;  // the CPUs its cells could use
  std::vector<DeviceFacts> devices;                         // as reported by each device plugin
  std::vector<CellResult> cells;  // in a run of several ranks: every rank's, with its rank
  int stopped_by_signal = 0;      // 0: the run reached its end
  std::size_t planned_cells = 0;  // every rank's: the summary of a cut run says "N of M cells"
  // A run of several ranks: each rank's facts as gathered (context.mpi.ranks; empty for a run of
  // one rank, or where a rank was lost before the gather) and each cell's spread.
  std::vector<RankFacts> ranks;
  std::vector<RankSpread> spreads;
  bool ranks_lost = false;       // a rank stopped answering: the file holds what the root had
  std::string started_at;        // UTC, as the run began: the file's context.time
  std::string run_id;            // random, one per run: the file's context.run_id
  std::uint64_t order_seed = 0;  // of the interleaved rounds' random order
  QuietTally quiet;              // the rounds' waits for the harness's threads to go quiet

  // The host's peaks, held to by every available host plugin among `plugins`.
  void add_host_peaks(const std::vector<PeakBandwidth>& host_peaks,
                      const std::vector<const PluginRecord*>& plugins);
  // A plugin's first session: its process, its device and that device's peaks. A device plugin
  // that could not be calibrated is said on `warnings`.
  void add_session_facts(const PluginRecord& plugin, const SessionFacts& facts,
                         std::ostream& warnings);
};

}  // namespace plugbench
