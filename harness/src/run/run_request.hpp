// run_request.hpp: what a run is asked to do: its plan, how its cells are measured, ordered and
// isolated, how its ranks meet and are judged, and where its results go. The command line fills
// it (cli/options.hpp); each stage's settings are that stage's own struct, with its defaults.
#pragma once

#include "cells/isolation_settings.hpp"
#include "distribute/distributed_settings.hpp"
#include "measure/run_settings.hpp"
#include "plan/plan_settings.hpp"
#include "ranks/rank_settings.hpp"
#include "render/text_table.hpp"
#include "results/export_format.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace plugbench {

// Where a run's tables and results go and how they are written.
struct RunOutputSettings {
  OutputFormat format = OutputFormat::console;  // --format: the tables as console, md or csv
  std::optional<ExportFormat> export_format;    // --format gbench|bmf|gab: stdout holds it
  bool quiet = false;                           // --quiet: no progress line
  std::string json_path;                        // --json; empty: results/<host>-<time>.json
  bool write_json = true;                       // --no-json: false
  std::string history_path;  // --history DB: the finished results file is added there
};

struct RunRequest {
  PlanSettings plan;  // -p, -w, -d, -v, -s, --baseline
  // -r, --min-time, --warmup, --cell-budget, --throttle-threshold, --cache, --host-memory
  RunSettings measure;
  MeasurementOrder order = MeasurementOrder::interleaved;
  std::optional<std::uint64_t> order_seed;  // --order-seed; empty: a fresh one, recorded
  // --isolation, --device, --timeout, --max-restarts, --plugin-output-to-stderr
  IsolationSettings isolation;
  DistributedSettings distributed;  // --scaling, --mpi-staging
  // --mpi-sync, --rank-cpus, --per-rank, --outlier-threshold, --fail-on-slow-rank
  RankSettings mpi;
  RunOutputSettings output;  // --format, --quiet, --json, --no-json, --history
  std::string command_line;
};

}  // namespace plugbench
