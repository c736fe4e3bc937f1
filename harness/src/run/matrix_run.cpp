// matrix_run.cpp: the stages of a run.
#include "run/matrix_run.hpp"

#include "cli/exit_codes.hpp"
#include "measure/cell_identity.hpp"
#include "measure/cpu_frequency.hpp"
#include "measure/derived_figures.hpp"
#include "plan/sizes.hpp"
#include "record/report_table.hpp"
#include "record/results_document.hpp"
#include "record/results_json.hpp"
#include "run/run_record.hpp"
#include "run/stop_signal.hpp"

#include <iostream>

namespace plugbench {
namespace {

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

// One problem's cells, measured or decided, in the planned order. Stops early (returning what it
// has) when a stop was asked for; the cell in flight then is dropped.
std::vector<CellResult> measure_problem(const PlannedProblem& planned, CellSource& source,
                                        const RunSettings& settings, Progress& progress) {
  const ProblemSpec& spec = planned.spec;
  const std::string label =
      spec.workload->name() + " n=" + describe_count(spec.shape.n) + " " + spec.distribution;
  std::vector<CellResult> cells;
  for (const PlannedCell& planned_cell : planned.cells) {
    if (stop_requested()) break;
    if (!planned_cell.status.empty()) {
      cells.push_back(decided_cell(spec, planned_cell));
      continue;
    }
    progress.show(label + "  " + planned_cell.plugin->name + "/" + planned_cell.kernel->variant);
    std::optional<CellResult> cell =
        source.run(*planned_cell.plugin, request_for(spec, planned_cell, settings));
    if (!cell) break;
    cells.push_back(std::move(*cell));
  }
  source.problem_done();
  for (CellResult& cell : cells) cell.size_text = spec.size_text;
  return cells;
}

}  // namespace

CellRequest request_for(const ProblemSpec& spec, const PlannedCell& planned,
                        const RunSettings& settings) {
  return {spec.workload->name(), spec.distribution, spec.shape, planned.kernel->variant, settings};
}

CellResult decided_cell(const ProblemSpec& spec, const PlannedCell& planned) {
  return unrun_cell(*planned.plugin, spec.workload->name(),
                    planned.kernel ? planned.kernel->variant : "", spec.distribution, spec.shape,
                    planned.status, planned.message);
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
  RunRecord run;
  Progress progress(options.quiet, matrix.cells_to_run());

  // Prepare: from here on a Ctrl-C still writes a results file.
  install_stop_handlers();
  warn_about_frequency_scaling(std::cerr);
  progress.note("calibrating host memory bandwidth...");
  run.add_host_peaks(calibrate_host_peaks(), matrix.plugins);
  // A device plugin's device and peak come from its first session (in its worker, by default).
  std::unique_ptr<CellSource> source = make_cell_source(
      {options.isolation, options.device, options.timeout, options.max_restarts, stop_fd(), true},
      [&run](const PluginRecord& plugin, const SessionFacts& facts) {
        run.add_session_facts(plugin, facts, std::cerr);
      });

  // Measure, problem by problem; each problem's table as soon as its cells are in.
  const RunSettings settings = run_settings_of(options);
  TableWriter tables(std::cout, options.format);
  for (const PlannedProblem& planned : matrix.problems) {
    if (stop_requested()) break;
    std::vector<CellResult> cells = measure_problem(planned, *source, settings, progress);
    derive_figures(cells, options.baseline, run.peaks_by_plugin, options.cache == CacheMode::cold);
    progress.finish();
    const ProblemSpec& spec = planned.spec;
    tables.write(problem_table(spec.workload->name(), spec.distribution, spec.shape, cells,
                               options.baseline));
    run.cells.insert(run.cells.end(), cells.begin(), cells.end());
  }
  progress.finish();
  source.reset();  // every worker closed (or, after a stop signal, already stopped)
  run.stopped_by_signal = stop_signal_number();

  // Report: with --format csv, stdout holds the cells alone, so the rest goes to stderr.
  const bool csv = options.format == OutputFormat::csv;
  std::ostream& text = csv ? std::cerr : std::cout;
  if (run.stopped_by_signal != 0) {
    std::cerr << "harness: interrupted by signal " << run.stopped_by_signal
              << "; writing the cells finished so far\n";
  }
  text << "\n" << cell_summary(run.cells) << "\n";
  std::vector<Crossover> crossovers =
      report_crossover(run.cells, text, csv ? OutputFormat::console : options.format);

  // Record.
  if (options.write_json) {
    const std::string path = options.json_path.empty() ? default_results_path() : options.json_path;
    try {
      write_json_atomically(results_document(run, options, plugins, crossovers), path);
      text << "results: " << path << "\n";
    } catch (const std::exception& e) {
      std::cerr << "harness: " << e.what() << "\n";
      return kExitOutputError;
    }
  }
  return run.stopped_by_signal != 0 ? kExitInterrupted : exit_code_for(run.cells);
}

}  // namespace plugbench
