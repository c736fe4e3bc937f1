// options.hpp: the command line (Boost.Program_options), parsed into one plain struct.
#pragma once

#include "base/usage_error.hpp"
#include "measure/run_settings.hpp"
#include "render/text_table.hpp"
#include "results/export_format.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

struct Options {
  bool help = false;
  bool version = false;
  bool list = false;
  bool dry_run = false;
  bool quiet = false;
  OutputFormat format = OutputFormat::console;  // --format: the tables as console, md or csv
  std::optional<ExportFormat> export_format;    // --format gbench|bmf|gab: stdout holds it
  std::vector<std::string> plugins = {"all"};
  std::vector<std::string> workloads = {"all"};
  std::vector<std::string> distributions;  // empty: each workload's default
  std::vector<std::string> variants = {"all"};
  // One entry per -s: "SIZES" for every workload, or "WORKLOAD[,WORKLOAD...]=SIZES" for those;
  // none: each workload's default sizes.
  std::vector<std::string> sizes;
  std::optional<int> repetitions;  // empty: automatic (see kDefaultRepetitions)
  double min_time = 0;             // seconds per repetition; 0: one call per sample
  int warmup = 1;
  double cell_budget = 2.0;          // seconds of samples per cell when automatic
  double throttle_threshold = 0.75;  // fraction of the default GPU clock; 0: off
  CacheMode cache = CacheMode::cold;
  MeasurementOrder order = MeasurementOrder::interleaved;
  std::optional<std::uint64_t> order_seed;  // --order-seed; empty: a fresh one, recorded
  HostMemoryMode host_memory = HostMemoryMode::pageable;
  std::vector<std::string> plugin_dirs;
  // --check-plugin PATH: check that one plugin file, and run nothing else.
  std::string check_plugin;
  std::string json_path;  // empty: results/<host>-<time>.json
  bool write_json = true;
  std::string history_path;  // --history DB: the finished results file is added there
  std::string baseline = "cpu_serial";
  bool baseline_given = false;  // named by the user: then it must exist
  int device = 0;
  bool device_given = false;  // --device named: every rank uses it (else one GPU per local rank)
  bool mpi_lockstep = true;   // --mpi-sync lockstep: the ranks start each cell together
  bool per_rank = false;      // --per-rank: every rank's table too
  bool keep_launcher_cpus = false;  // --rank-cpus launcher: no share of the host's CPUs
  double outlier_threshold = 0.10;
  bool fail_on_slow_rank = false;   // --fail-on-slow-rank: a slow rank makes the exit code 6
  Scaling scaling = Scaling::weak;  // distributed workloads: n per rank or in total
  MpiStaging mpi_staging = MpiStaging::automatic;  // how device buffers reach MPI
  IsolationMode isolation = IsolationMode::process;
  double timeout = 300;  // seconds per cell in a worker; 0: no limit
  int max_restarts = 3;  // worker replacements per plugin after crashes and timeouts
  bool plugin_output_to_stderr = false;  // copy what workers write to stderr as it comes
  std::string command_line;
};

// What the options say about measuring a cell.
RunSettings run_settings_of(const Options& options);

// Parses argv; throws UsageError. The help text comes from usage_text().
Options parse_options(int argc, const char* const* argv);
std::string usage_text();

}  // namespace plugbench
