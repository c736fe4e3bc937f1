// run_request.hpp: what a run is asked to do: its plan, how its cells are measured, ordered and
// isolated, how its ranks meet and are judged, and where its results go. The command line fills
// it (cli/options.hpp); each stage's settings are that stage's own struct, with its defaults.
#pragma once

#include "cells/isolation_settings.hpp"
#include "measure/run_settings.hpp"
#include "plan/plan_settings.hpp"
#include "render/text_table.hpp"
#include "results/export_format.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace plugbench {

struct RunRequest {
  PlanSettings plan;  // -p, -w, -d, -v, -s, --baseline
  // -r, --min-time, --warmup, --cell-budget, --throttle-threshold, --cache, --host-memory
  RunSettings measure;
  MeasurementOrder order = MeasurementOrder::interleaved;
  std::optional<std::uint64_t> order_seed;  // --order-seed; empty: a fresh one, recorded
  // --isolation, --device, --timeout, --max-restarts, --plugin-output-to-stderr
  IsolationSettings isolation;
  Scaling scaling = Scaling::weak;                 // distributed workloads: n per rank or in total
  MpiStaging mpi_staging = MpiStaging::automatic;  // how device buffers reach MPI
  bool mpi_lockstep = true;         // --mpi-sync lockstep: the ranks start each cell together
  bool per_rank = false;            // --per-rank: every rank's table too
  double outlier_threshold = 0.10;  // a rank this much slower than the median is slow
  bool fail_on_slow_rank = false;   // --fail-on-slow-rank: a slow rank makes the exit code 6
  OutputFormat format = OutputFormat::console;  // --format: the tables as console, md or csv
  std::optional<ExportFormat> export_format;    // --format gbench|bmf|gab: stdout holds it
  bool quiet = false;
  std::string json_path;  // empty: results/<host>-<time>.json
  bool write_json = true;
  std::string history_path;  // --history DB: the finished results file is added there
  std::string command_line;
};

}  // namespace plugbench
