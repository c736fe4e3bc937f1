// matrix_run.cpp: the stages of a run.
#include "run/matrix_run.hpp"

#include "analyze/distributed_table.hpp"
#include "analyze/rank_table.hpp"
#include "analyze/report_table.hpp"
#include "base/cpu_frequency.hpp"
#include "base/exit_codes.hpp"
#include "base/host_facts.hpp"
#include "base/output_check.hpp"
#include "base/safe_text.hpp"
#include "base/stop_signal.hpp"
#include "distribute/distributed_source.hpp"
#include "distribute/scaling.hpp"
#include "history/history_add.hpp"
#include "measure/cell_identity.hpp"
#include "measure/derived_figures.hpp"
#include "measure/machine_load.hpp"
#include "plan/sizes.hpp"
#include "ranks/rank_steps.hpp"
#include "results/exports.hpp"
#include "results/results_json.hpp"
#include "results/results_reader.hpp"
#include "run/interleaved_rounds.hpp"
#include "run/progress.hpp"
#include "run/results_document.hpp"
#include "run/run_record.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>

namespace plugbench {
namespace {

// How long ranks wait for each other around the host calibration at the start of a run.
constexpr double kCalibrationBound_s = 600;

// One problem's cells, measured or decided, in the planned order. Stops early (returning what it
// has) when this rank or (lock-step) another was told to stop; the cell in flight then is
// dropped. `stop` is the signal that stopped a rank (0: none).
std::vector<CellResult> measure_problem(const PlannedProblem& planned, CellSource& source,
                                        const RunSettings& settings, Progress& progress,
                                        RankMeetings& meetings, int& stop) {
  const ProblemSpec& spec = planned.spec;
  const std::string label =
      spec.workload->name() + " n=" + describe_count(spec.shape.n) + " " + spec.distribution;
  std::vector<CellResult> cells;
  for (const PlannedCell& planned_cell : planned.cells) {
    if (!planned_cell.to_run()) {
      cells.push_back(decided_cell(spec, planned_cell));
      continue;
    }
    // A distributed cell is run by every rank together: they meet before it even without
    // lock-step, so that a rank that stops does not leave the others in its collectives.
    stop = meetings.before_cell(std::max(stop, stop_signal_number()), spec.workload->distributed());
    if (stop != 0 || meetings.lost()) break;
    progress.start_cell(label + "  " + planned_cell.plugin->name + "/" +
                        planned_cell.kernel->variant);
    const std::optional<CpuTimes> before = cpu_times_now();
    std::optional<CellResult> cell =
        source.run(*planned_cell.plugin, request_for(spec, planned_cell, settings));
    if (cell && before) {
      if (const std::optional<CpuTimes> after = cpu_times_now()) {
        cell->machine_load = load_between(*before, *after, load_average_now());
      }
    }
    if (!cell) {
      stop = std::max(stop_signal_number(), 1);
      if (meetings.lockstep()) continue;  // the next meeting tells the other ranks
      break;
    }
    progress.finish_cell();
    cells.push_back(std::move(*cell));
  }
  source.problem_done();
  for (CellResult& cell : cells) cell.size_text = spec.size_text;
  return cells;
}

std::size_t cells_to_run(const PlannedProblem& planned) {
  std::size_t count = 0;
  for (const PlannedCell& cell : planned.cells) count += cell.to_run() ? 1 : 0;
  return count;
}

// rank -> host, from the ranks' facts.
std::map<int, std::string> hosts_of(const std::vector<RankFacts>& ranks) {
  std::map<int, std::string> hosts;
  for (const RankFacts& rank : ranks) {
    if (rank.rank) hosts[*rank.rank] = rank.host;
  }
  return hosts;
}

// The root's tables for one problem of a run of several ranks: the spread, then (--per-rank)
// each rank's own table.
void write_rank_tables(TableWriter& tables, const PlannedProblem& planned,
                       const std::vector<CellResult>& cells, const std::vector<RankSpread>& spreads,
                       const RunRequest& options, const std::map<int, std::string>& hosts,
                       const std::string& cut_note) {
  const ProblemSpec& spec = planned.spec;
  TextTable spread =
      spec.workload->distributed()
          ? distributed_table(spec.workload->name(), spec.distribution, spec.shape, cells)
          : rank_spread_table(spec.workload->name(), spec.distribution, spec.shape, spreads, hosts);
  if (!cut_note.empty()) spread.notes.push_back(cut_note);
  tables.write(spread);
  if (!options.mpi.per_rank) return;
  std::map<int, std::vector<CellResult>> by_rank;
  for (const CellResult& cell : cells) by_rank[cell.rank].push_back(cell);
  for (const auto& [rank, rank_cells] : by_rank) {
    TextTable table = problem_table(spec.workload->name(), spec.distribution, spec.shape,
                                    rank_cells, options.plan.baseline);
    table.title += "  rank " + std::to_string(rank);
    table.context.push_back({"rank", std::to_string(rank)});
    tables.write(table);
  }
}

// The note under a problem's table when the run stopped before the problem's last cell ("" when
// it has them all): a short table must not read as the whole problem.
std::string cut_table_note(std::size_t measured, std::size_t planned) {
  if (measured >= planned) return "";
  return "(interrupted: " + std::to_string(measured) + " of this problem's " +
         std::to_string(planned) + " cells were measured)";
}

std::size_t planned_cells(const Matrix& matrix) {
  std::size_t count = 0;
  for (const PlannedProblem& problem : matrix.problems) count += problem.cells.size();
  return count;
}

}  // namespace

CellRequest request_for(const ProblemSpec& spec, const PlannedCell& planned,
                        const RunSettings& settings) {
  return {spec.workload->name(), spec.distribution, spec.shape, planned.kernel->variant, settings};
}

CellResult decided_cell(const ProblemSpec& spec, const PlannedCell& planned) {
  return unrun_cell(*planned.plugin, spec.workload->name(),
                    planned.kernel ? planned.kernel->variant : "", spec.distribution, spec.shape,
                    *planned.status, planned.message);
}

int exit_code_for(const std::vector<CellResult>& cells) {
  bool failed = false, errored = false;
  for (const CellResult& cell : cells) {
    failed = failed || cell.status == CellStatus::failed;
    errored = errored || cell.counts_as_error();
  }
  if (errored) return kExitCellError;
  if (failed) return kExitVerificationFailed;
  return kExitOk;
}

namespace {

// The end of a run, at the root: the summary, the slow ranks, the crossover, the results file.
int report_and_record(RunRecord& run, const RunRequest& options,
                      const std::vector<PluginRecord>& plugins,
                      const std::map<int, std::string>& hosts) {
  const bool several_ranks = !run.ranks.empty();
  // With --format csv (or an export format), stdout holds the cells alone: the rest to stderr.
  const bool csv =
      options.output.format == OutputFormat::csv || options.output.export_format.has_value();
  std::ostream& text = csv ? std::cerr : std::cout;
  if (run.stopped_by_signal != 0) {
    std::cerr << "harness: interrupted by signal " << run.stopped_by_signal
              << "; writing the cells finished so far\n";
  }
  if (run.ranks_lost) {
    std::cerr << "harness: a rank stopped answering; writing the cells this rank has\n";
  }
  text << "\n"
       << cell_summary(run.cells, run.planned_cells)
       << (several_ranks ? " (every rank's cells)" : "") << "\n"
       << busy_summary(run.cells);
  bool slow_ranks = false;
  if (several_ranks) {
    describe_rank_sharing(run.ranks, options.mpi.lockstep(), run.cells, text);
    slow_ranks = report_slow_ranks(run.spreads, hosts, text);
    // A slow rank is a finding, not a failure: a non-zero exit makes mpirun say the job was
    // aborted after a run that succeeded. CI asks for exit 6 with --fail-on-slow-rank.
    if (slow_ranks && !options.mpi.fail_on_slow_rank) {
      text << "(a slow rank is reported, not failed: the exit code stays 0; --fail-on-slow-rank "
              "makes it 6, for CI)\n";
    }
  }
  std::vector<Crossover> crossovers =
      report_crossover(several_ranks ? collapse_ranks(run.cells) : run.cells, text,
                       csv ? OutputFormat::console : options.output.format);

  int exit_code = run.stopped_by_signal != 0 ? kExitInterrupted : exit_code_for(run.cells);
  if (exit_code == kExitOk && run.ranks_lost) exit_code = kExitCellError;
  if (exit_code == kExitOk && slow_ranks && options.mpi.fail_on_slow_rank)
    exit_code = kExitSlowRank;
  const RunContext context = run_context_of(run, options, plugins);
  const nlohmann::json document = results_document(context, run, crossovers);
  if (options.output.export_format) {
    // The export reads the typed context and cells the file is written from.
    ResultsFile file;
    file.path = "this run";
    file.context = context;
    file.cells = run.cells;
    std::cout << export_document(file, *options.output.export_format).dump(2) << "\n";
    // The export is the run's answer on stdout (the tables went to stderr): lost, it is exit 4.
    if (!output_written(std::cout, "harness")) exit_code = kExitOutputError;
  }
  if (options.output.write_json) {
    const std::string path =
        options.output.json_path.empty() ? default_results_path() : options.output.json_path;
    try {
      write_json_atomically(document, path);
      text << "results: " << printable_text(path) << "\n";
    } catch (const std::exception& e) {
      std::cerr << "harness: " << e.what() << "\n";
      return kExitOutputError;
    }
    // The file as written is what the history keeps, so that `history add` of it later is
    // known as the same run.
    if (!options.output.history_path.empty() &&
        add_results_to_history(options.output.history_path, path, text, std::cerr) !=
            kHistoryDone &&
        exit_code == kExitOk) {
      exit_code = kExitOutputError;
    }
  }
  return exit_code;
}

// The host peaks the run's host cells are held to: a run of read-only workloads calibrates no
// copy, a run of device plugins none (the calibration is the most of a small run's start).
std::vector<MemoryPattern> host_peak_patterns(const Matrix& matrix) {
  std::vector<MemoryPattern> patterns;
  for (const PlannedProblem& problem : matrix.problems) {
    const std::optional<MemoryPattern> pattern = problem.spec.workload->peak_pattern();
    if (!pattern || std::find(patterns.begin(), patterns.end(), *pattern) != patterns.end()) {
      continue;
    }
    for (const PlannedCell& cell : problem.cells) {
      if (cell.to_run() && cell.plugin->memory_space != MemorySpace::device) {
        patterns.push_back(*pattern);
        break;
      }
    }
  }
  return patterns;
}

// 64 random bits as 16 hex digits: what tells this run from another that began in the same second.
std::string random_run_id() {
  std::random_device device;
  const std::uint64_t bits = (std::uint64_t{device()} << 32) | device();
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
  return text;
}

}  // namespace

int run_matrix(const RunRequest& options, const std::vector<PluginRecord>& plugins,
               const Matrix& matrix, RankGroup& ranks, const nlohmann::json& rank_facts) {
  RunRecord run;
  run.started_at = utc_timestamp();
  run.run_id = random_run_id();
  const bool root = ranks.is_root();
  if (!ranks.alone()) {
    if (std::string difference = plan_difference(ranks, matrix); !difference.empty()) {
      if (root) {
        std::cerr << "harness: the ranks planned different matrices (every rank must see the "
                     "same plugins and kernels; check each host's plugin folders):\n"
                  << difference;
      }
      return kExitUsage;
    }
  }
  Progress progress(std::cerr,
                    root ? Progress::style_for_stderr(options.output.quiet) : Progress::Style::off,
                    matrix.cells_to_run());
  run.planned_cells = planned_cells(matrix) * static_cast<std::size_t>(ranks.place().ranks);

  // Prepare: from here on a Ctrl-C still writes a results file.
  install_stop_handlers();
  if (root) warn_about_frequency_scaling(std::cerr);
  // Interleaved rounds keep the reference loops (and their buffers) for a pass in each round.
  const bool interleaved = options.order == MeasurementOrder::interleaved;
  (void)build_description();  // read now, not when a stopped run has a second left to write
  const std::vector<MemoryPattern> patterns = host_peak_patterns(matrix);
  if (!patterns.empty()) progress.note("calibrating host memory bandwidth...");
  std::unique_ptr<HostReference> reference;
  if (interleaved && !patterns.empty()) {
    reference = std::make_unique<HostReference>(patterns);
    run.add_host_peaks(reference->peaks(), matrix.plugins);
  } else if (!patterns.empty()) {
    run.add_host_peaks(calibrate_host_peaks(patterns), matrix.plugins);
  }
  // The rounds' order: one seed for the run, the same on every rank, recorded.
  // 53 bits: exact in every JSON reader.
  run.order_seed = options.order_seed.value_or(
      (std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32)) >> 11);
  if (!ranks.alone()) run.order_seed = std::stoull(ranks.broadcast(std::to_string(run.order_seed)));
  RoundOrder order(run.order_seed);
  // A device plugin's device and peak come from its first session (in its worker, by default);
  // a plugin whose first session is the rank's own (distributed workloads) says its device there,
  // and is calibrated only if a worker opens a session later.
  const auto on_facts = [&run](const PluginRecord& plugin, const SessionFacts& facts) {
    if (!run.process_by_plugin.count(plugin.name)) {
      run.add_session_facts(plugin, facts, std::cerr);
    } else if (!facts.peaks.empty() && !run.peaks_by_plugin.count(plugin.name)) {
      SessionFacts peaks_only;  // the plugin's second session: its device is listed already
      peaks_only.peaks = facts.peaks;
      run.add_session_facts(plugin, peaks_only, std::cerr);
    }
  };
  std::unique_ptr<CellSource> source = make_cell_source(options.isolation, stop_fd(), on_facts);
  // Distributed cells run in this process: MPI between the plugin's calls, on its buffers.
  DistributedSource in_rank(ranks, options.distributed, options.isolation, on_facts);

  // Measure, problem by problem; each problem's table (at the root) as soon as its cells are in.
  const RunSettings& settings = options.measure;
  TableWriter tables(options.output.export_format ? std::cerr : std::cout, options.output.format);
  RankMeetings meetings(ranks, options.mpi.lockstep(), options.isolation.timeout_s);
  // Each meeting's bound past the longest cell; the first waits for the others' calibration.
  const double gather_bound_s =
      options.isolation.timeout_s > 0 ? options.isolation.timeout_s + kCalibrationBound_s : 0;
  std::map<int, std::string> hosts;
  int stop = 0;
  if (!ranks.alone()) {
    stop = meetings.before_gather(stop_signal_number(), kCalibrationBound_s);
    if (!meetings.lost()) {
      run.ranks = rank_facts_from_json(gather_facts(ranks, rank_facts));
      hosts = hosts_of(run.ranks);
    }
  }
  for (const PlannedProblem& planned : matrix.problems) {
    if (stop != 0 || meetings.lost()) break;
    const bool distributed = planned.spec.workload->distributed();
    // A distributed cell's ranks meet in every call: its samples cannot wait between others'.
    std::vector<CellResult> cells =
        interleaved && !distributed
            ? measure_in_rounds(planned, *source, settings, progress, meetings, stop, order,
                                reference.get(), run.quiet)
            : measure_problem(planned, distributed ? in_rank : *source, settings, progress,
                              meetings, stop);
    derive_figures(cells, options.plan.baseline, run.peaks_by_plugin,
                   options.measure.cache == CacheMode::cold);
    progress.clear();
    const std::string cut_note = cut_table_note(cells.size(), planned.cells.size());
    stop = meetings.after_problem(std::max(stop, stop_signal_number()), cells_to_run(planned));
    if (!ranks.alone()) {
      for (CellResult& cell : cells) cell.rank = ranks.place().rank;
      // A lost rank's cells are out of reach: the root keeps its own.
      if (!meetings.lost()) cells = gather_cells(ranks, cells);
    }
    if (distributed && root) apply_scaling(cells);
    if (root && !cells.empty()) {
      const ProblemSpec& spec = planned.spec;
      if (ranks.alone()) {
        TextTable table = distributed ? distributed_table(spec.workload->name(), spec.distribution,
                                                          spec.shape, cells)
                                      : problem_table(spec.workload->name(), spec.distribution,
                                                      spec.shape, cells, options.plan.baseline);
        if (!cut_note.empty()) table.notes.push_back(cut_note);
        tables.write(table);
      } else {
        std::vector<RankSpread> spreads =
            spread_over_ranks(cells, options.mpi.outlier_threshold, ranks.place().ranks);
        // A distributed cell's ranks wait for each other in every sample: no rank is slow alone.
        if (distributed) {
          for (RankSpread& spread : spreads) spread.slow.clear();
        }
        write_rank_tables(tables, planned, cells, spreads, options, hosts, cut_note);
        run.spreads.insert(run.spreads.end(), spreads.begin(), spreads.end());
      }
      // Each table out as its problem ends, also into a pipe or a file (`| tee`, a CI log).
      (options.output.export_format ? std::cerr : std::cout).flush();
    }
    run.cells.insert(run.cells.end(), cells.begin(), cells.end());
  }
  progress.clear();
  source.reset();  // every worker closed (or, after a stop signal, already stopped)
  // The signal that stopped any rank stops the run on every rank: the file says so.
  run.stopped_by_signal = std::max(stop, stop_signal_number());
  if (!ranks.alone()) {
    stop = meetings.before_gather(run.stopped_by_signal, gather_bound_s);
    run.stopped_by_signal = stop;
  }
  run.ranks_lost = meetings.lost();
  if (!ranks.alone() && !run.ranks_lost) {
    // Each rank's devices and peaks, known once its plugins' sessions opened.
    nlohmann::json measured = {{"devices", nlohmann::json::array()},
                               {"peaks", nlohmann::json::array()}};
    for (const DeviceFacts& device : run.devices) measured["devices"].push_back(to_json(device));
    for (const PeakBandwidth& peak : run.peaks) measured["peaks"].push_back(to_json(peak));
    nlohmann::json all = gather_facts(ranks, measured);
    if (root) {
      for (std::size_t r = 0; r < all.size() && r < run.ranks.size(); ++r) {
        run.ranks[r].details["devices"] = all[r]["devices"];
        run.ranks[r].details["peaks"] = all[r]["peaks"];
      }
    }
  }
  int exit_code = root ? report_and_record(run, options, plugins, hosts) : kExitOk;
  if (run.ranks_lost) ranks.abort_job(exit_code);
  // Every rank ends with the root's verdict, so that the launcher's exit status is the run's.
  if (!ranks.alone()) exit_code = std::stoi(ranks.broadcast(std::to_string(exit_code)));
  return exit_code;
}

}  // namespace plugbench
