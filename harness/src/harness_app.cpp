// harness_app.cpp: discovery, the matrix, calibration, the cells, derived figures, the output.
#include "harness_app.hpp"

#include "calibration.hpp"
#include "cell_executor.hpp"
#include "check_plugin.hpp"
#include "cpu_frequency.hpp"
#include "crossover.hpp"
#include "host_info.hpp"
#include "matrix.hpp"
#include "problem_store.hpp"
#include "report_table.hpp"
#include "results_json.hpp"
#include "sizes.hpp"
#include "worker_pool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <map>
#include <memory>

namespace plugbench {
namespace {

// Set by SIGINT / SIGTERM: the run stops (the workers are stopped, the cell in flight is dropped)
// and writes what it has. The handler also writes a byte into a pipe that the harness polls while
// a worker runs a cell, so that a signal never waits for the cell's end.
volatile std::sig_atomic_t g_stop_signal = 0;
int g_stop_pipe[2] = {-1, -1};

extern "C" void request_stop(int signal_number) {
  g_stop_signal = signal_number;
  std::signal(signal_number, SIG_DFL);  // a second Ctrl-C ends the process at once
  const char byte = 1;
  if (g_stop_pipe[1] >= 0 && ::write(g_stop_pipe[1], &byte, 1) < 0) {
  }
}

void install_stop_handlers() {
  if (g_stop_pipe[0] < 0 && ::pipe2(g_stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    g_stop_pipe[0] = g_stop_pipe[1] = -1;  // polling then misses a signal until the cell ends
  }
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stop_requested() {
  return g_stop_signal != 0;
}

// --isolation none: sessions opened in the harness itself, once per plugin on first use, kept for
// the whole run; one problem cache shared by all plugins.
class InProcessCells {
 public:
  InProcessCells(int device, FactsCallback on_facts)
      : device_(device), on_facts_(std::move(on_facts)) {}

  CellResult run(const PluginRecord& plugin, const CellRequest& request) {
    auto it = runners_.find(plugin.name);
    if (it == runners_.end()) {
      Entry entry;
      try {
        entry.runner = std::make_unique<PluginCellRunner>(plugin, device_, problems_);
        on_facts_(plugin, entry.runner->facts(true));
      } catch (const PluginCallError& e) {
        entry.why = e.what();
      }
      it = runners_.emplace(plugin.name, std::move(entry)).first;
    }
    if (!it->second.runner) return unrun_cell(plugin, request, status::unavailable, it->second.why);
    return it->second.runner->run(request);
  }

 private:
  struct Entry {
    std::unique_ptr<PluginCellRunner> runner;
    std::string why;
  };
  int device_;
  FactsCallback on_facts_;
  ProblemCache problems_;
  std::map<std::string, Entry> runners_;
};

class Progress {
 public:
  Progress(bool quiet, std::size_t total) : quiet_(quiet), total_(total) {}
  void show(const std::string& what) {
    if (quiet_) return;
    ++done_;
    std::cerr << "\r\033[K[" << done_ << "/" << total_ << "] " << what << std::flush;
  }
  void note(const std::string& what) {
    if (!quiet_) std::cerr << "\r\033[K" << what << std::flush;
  }
  void finish() {
    if (!quiet_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  bool quiet_;
  std::size_t total_;
  std::size_t done_ = 0;
};

// GB/s, % of peak, work rate and speedups, once every cell of a problem has run.
void derive_figures(std::vector<CellResult>& cells, const std::string& baseline,
                    const std::map<std::string, std::vector<PeakBandwidth>>& peaks_by_plugin) {
  const CellResult* base = nullptr;
  for (const CellResult& cell : cells) {
    if (cell.plugin == baseline && cell.status == status::ok && cell.kernel) {
      base = &cell;
      break;
    }
  }
  for (CellResult& cell : cells) {
    if (!cell.kernel || !cell.traffic || cell.kernel->median_ms <= 0) continue;
    double seconds = cell.kernel->median_ms / 1e3;
    const Traffic& traffic = *cell.traffic;
    if (traffic.work_unit.empty()) {
      cell.gbps = traffic.bytes() / seconds / 1e9;
      if (auto peaks = peaks_by_plugin.find(cell.plugin); peaks != peaks_by_plugin.end()) {
        if (const PeakBandwidth* peak =
                peak_for(peaks->second, cell.memory_space, traffic.pattern)) {
          cell.percent_of_peak = 100 * *cell.gbps / peak->gbps;
          cell.peak_pattern = peak->pattern;
        }
      }
    }
    cell.work_rate = (traffic.work > 0 ? traffic.work : double(cell.shape.n)) / seconds;
    if (base) {
      cell.baseline = base->plugin + "/" + base->variant;
      cell.speedup = base->kernel->median_ms / cell.kernel->median_ms;
      if (base->end_to_end && cell.end_to_end && cell.end_to_end->median_ms > 0) {
        cell.speedup_end_to_end = base->end_to_end->median_ms / cell.end_to_end->median_ms;
      }
    }
  }
}

CellResult decided_cell(const ProblemSpec& spec, const PlannedCell& planned) {
  CellResult cell;
  cell.workload = spec.workload->name();
  cell.plugin = planned.plugin->name;
  cell.variant = planned.kernel ? planned.kernel->variant : "";
  cell.distribution = spec.distribution;
  cell.shape = spec.shape;
  cell.status = planned.status;
  cell.message = planned.message;
  cell.memory_space = planned.plugin->memory_space == PB_MEMORY_DEVICE ? "device" : "host";
  return cell;
}

RunSettings settings_from(const Options& options) {
  RunSettings settings;
  settings.cache = options.cache;
  settings.host_memory = options.host_memory;
  settings.repetitions = options.repetitions;
  settings.min_time = options.min_time;
  settings.warmup = options.warmup;
  settings.cell_budget = options.cell_budget;
  settings.throttle_threshold = options.throttle_threshold;
  return settings;
}

nlohmann::json run_settings_json(const Options& options) {
  return {{"cache", options.cache == CacheMode::cold ? "cold" : "warm"},
          {"host_memory", options.host_memory == HostMemoryMode::pageable ? "pageable"
                          : options.host_memory == HostMemoryMode::pinned ? "pinned"
                                                                          : "both"},
          {"repetitions", options.repetitions ? nlohmann::json(*options.repetitions)
                                              : nlohmann::json("automatic")},
          {"min_time_s", options.min_time},
          {"warmup", options.warmup},
          {"cell_budget_s", options.cell_budget},
          {"throttle_threshold", options.throttle_threshold},
          {"baseline", options.baseline},
          {"device", options.device},
          {"isolation", options.isolation == IsolationMode::process ? "process" : "none"},
          {"timeout_s", options.timeout},
          {"max_restarts", options.max_restarts}};
}

int exit_code_for(const std::vector<CellResult>& cells) {
  bool failed = false, errored = false;
  for (const CellResult& cell : cells) {
    failed = failed || cell.status == status::failed;
    errored = errored || cell.counts_as_error();
  }
  if (errored) return kExitCellError;
  if (failed) return kExitVerificationFailed;
  return kExitOk;
}

int run_matrix(const Options& options, const std::vector<PluginRecord>& plugins,
               const Matrix& matrix) {
  Progress progress(options.quiet, matrix.cells_to_run());
  std::vector<PeakBandwidth> peaks;
  std::map<std::string, std::vector<PeakBandwidth>> peaks_by_plugin;
  std::map<std::string, nlohmann::json> process_by_plugin;  // CPUs its cells could use
  nlohmann::json devices = nlohmann::json::array();

  install_stop_handlers();  // before calibration: a Ctrl-C from here on still writes a results file
  warn_about_frequency_scaling(std::cerr);
  progress.note("calibrating host memory bandwidth...");
  peaks = calibrate_host_peaks();
  for (const PluginRecord* plugin : matrix.plugins) {
    if (plugin->state == PluginState::available && plugin->memory_space == PB_MEMORY_HOST) {
      peaks_by_plugin[plugin->name] = peaks;
    }
  }
  // A device plugin's device and peak come from its first session (in its worker, by default).
  auto record_facts = [&](const PluginRecord& plugin, const SessionFacts& facts) {
    if (!facts.process.is_null()) process_by_plugin[plugin.name] = facts.process;
    if (!facts.device.is_null()) {
      nlohmann::json device = facts.device;
      device["reported_by"] = plugin.name;
      devices.push_back(device);
    }
    if (!facts.peaks.empty()) {
      peaks.insert(peaks.end(), facts.peaks.begin(), facts.peaks.end());
      peaks_by_plugin[plugin.name] = facts.peaks;
    } else if (!facts.calibration_error.empty()) {
      std::cerr << "harness: could not calibrate " << plugin.name << ": " << facts.calibration_error
                << "\n";
    }
  };
  std::unique_ptr<WorkerPool> workers;
  std::unique_ptr<InProcessCells> in_process;
  if (options.isolation == IsolationMode::process) {
    IsolationSettings isolation;
    isolation.timeout_s = options.timeout;
    isolation.max_restarts = options.max_restarts;
    isolation.device = options.device;
    remove_abandoned_problem_stores();
    workers = std::make_unique<WorkerPool>(isolation, g_stop_pipe[0], record_facts);
  } else {
    in_process = std::make_unique<InProcessCells>(options.device, record_facts);
  }

  RunSettings settings = settings_from(options);
  TableWriter tables(std::cout, options.format);
  // With --format csv, stdout holds the cells alone: the summary and the crossover go to stderr.
  bool csv = options.format == OutputFormat::csv;
  std::ostream& text = csv ? std::cerr : std::cout;
  std::vector<CellResult> all_cells;
  for (const PlannedProblem& planned : matrix.problems) {
    if (stop_requested()) break;
    const ProblemSpec& spec = planned.spec;
    std::string label =
        spec.workload->name() + " n=" + describe_count(spec.shape.n) + " " + spec.distribution;

    std::vector<CellResult> cells;
    for (const PlannedCell& planned_cell : planned.cells) {
      if (stop_requested()) break;
      if (!planned_cell.status.empty()) {
        cells.push_back(decided_cell(spec, planned_cell));
        continue;
      }
      progress.show(label + "  " + planned_cell.plugin->name + "/" + planned_cell.kernel->variant);
      CellRequest request{spec.workload->name(), spec.distribution, spec.shape,
                          planned_cell.kernel->variant, settings};
      if (workers) {
        std::optional<CellResult> cell = workers->run(*planned_cell.plugin, request);
        if (!cell) break;  // interrupted: the cell in flight is dropped
        cells.push_back(std::move(*cell));
      } else {
        cells.push_back(in_process->run(*planned_cell.plugin, request));
      }
    }
    if (workers) workers->release_problems();
    for (CellResult& cell : cells) cell.size_text = spec.size_text;
    derive_figures(cells, options.baseline, peaks_by_plugin);
    progress.finish();
    tables.write(problem_table(spec.workload->name(), spec.distribution, spec.shape, cells,
                               options.baseline));
    all_cells.insert(all_cells.end(), cells.begin(), cells.end());
  }
  progress.finish();
  workers.reset();  // every worker closed (or, after a stop signal, already stopped)
  in_process.reset();

  int code = stop_requested() ? kExitInterrupted : exit_code_for(all_cells);
  if (stop_requested()) {
    std::cerr << "harness: interrupted by signal " << g_stop_signal
              << "; writing the cells finished so far\n";
  }
  text << "\n" << cell_summary(all_cells) << "\n";
  nlohmann::json crossover =
      report_crossover(all_cells, text, csv ? OutputFormat::console : options.format);

  if (options.write_json) {
    nlohmann::json document;
    document["schema_version"] = kSchemaVersion;
    document["complete"] = !stop_requested();
    if (stop_requested()) document["interrupted_by_signal"] = static_cast<int>(g_stop_signal);
    document["context"]["time"] = utc_timestamp();
    document["context"]["command_line"] = options.command_line;
    document["context"]["host"] = host_description();
    document["context"]["build"] = build_description();
    document["context"]["settings"] = run_settings_json(options);
    document["context"]["devices"] = devices;
    document["context"]["peaks"] = nlohmann::json::array();
    for (const PeakBandwidth& peak : peaks) document["context"]["peaks"].push_back(to_json(peak));
    document["context"]["plugins"] = nlohmann::json::array();
    for (const PluginRecord& plugin : plugins) {
      nlohmann::json entry = to_json(plugin);
      if (auto it = peaks_by_plugin.find(plugin.name); it != peaks_by_plugin.end()) {
        const std::string space = plugin.memory_space == PB_MEMORY_DEVICE ? "device" : "host";
        if (const PeakBandwidth* copy = peak_for(it->second, space, MemoryPattern::copy)) {
          entry["peak_gbps"] = copy->gbps;
        }
        if (const PeakBandwidth* read = peak_for(it->second, space, MemoryPattern::read)) {
          entry["peak_read_gbps"] = read->gbps;
        }
      }
      if (auto it = process_by_plugin.find(plugin.name); it != process_by_plugin.end()) {
        entry["process"] = it->second;
      }
      document["context"]["plugins"].push_back(entry);
    }
    document["results"] = nlohmann::json::array();
    for (const CellResult& cell : all_cells) document["results"].push_back(to_json(cell));
    document["crossover"] = crossover;
    std::string path = options.json_path.empty() ? default_results_path() : options.json_path;
    try {
      write_json_atomically(document, path);
      text << "results: " << path << "\n";
    } catch (const std::exception& e) {
      std::cerr << "harness: " << e.what() << "\n";
      return kExitOutputError;
    }
  }
  return code;
}

}  // namespace

int run_harness(int argc, const char* const* argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "harness: " << e.what() << "\n";
    return kExitUsage;
  }
  if (options.help) {
    std::cout << usage_text();
    return kExitOk;
  }
  if (options.version) {
    std::cout << "plugbench harness " << PLUGBENCH_VERSION << " (plugin ABI " << PB_ABI_MAJOR << "."
              << PB_ABI_MINOR << ")\n";
    return kExitOk;
  }
  if (!options.check_plugin.empty()) return check_plugin(options, std::cout, std::cerr);
  std::vector<PluginFolder> folders = plugin_search_path(options.plugin_dirs);
  std::vector<PluginRecord> plugins;
  try {
    plugins = discover_plugins(folders);
  } catch (const PluginFolderError& e) {
    std::cerr << "harness: " << e.what() << "\n";
    return kExitUsage;
  }
  if (options.list) {
    print_listing(std::cout, folders, plugins);
    return kExitOk;
  }
  for (const PluginRecord& plugin : plugins) {
    if (plugin.state == PluginState::broken && !options.quiet) {
      std::cerr << "harness: ignoring " << plugin.path << ": " << plugin.reason << "\n";
    }
  }
  Matrix matrix;
  try {
    matrix = plan_matrix(options, plugins);
  } catch (const UsageError& e) {
    std::cerr << "harness: " << e.what() << "\n";
    return kExitUsage;
  }
  if (options.dry_run) {
    print_dry_run(std::cout, matrix);
    return kExitOk;
  }
  if (matrix.cells_to_run() == 0 && matrix.problems.empty()) {
    std::cerr << "harness: nothing to run (no available plugin implements the selected "
                 "workloads; see harness --list)\n";
    return kExitUsage;
  }
  return run_matrix(options, plugins, matrix);
}

}  // namespace plugbench
