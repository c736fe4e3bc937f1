// harness_app.cpp: the harness program: parse the options, then list, plan, dry-run, check a
// plugin, or run the matrix.
#include "cli/harness_app.hpp"

#include "analyze/report_table.hpp"
#include "base/exit_codes.hpp"
#include "base/host_facts.hpp"
#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "cli/check_plugin_command.hpp"
#include "cli/options.hpp"
#include "history/history_location.hpp"
#include "load/plugin_loader.hpp"
#include "plan/matrix.hpp"
#include "results/results_json.hpp"
#include "run/matrix_run.hpp"

#include "ranks/rank_placement.hpp"

#include <nlohmann/json.hpp>

#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

namespace {

// The root's command line, on every rank: every rank runs what rank 0 was asked to run. The
// arguments travel as they are (NUL-separated: a path need not be UTF-8).
std::vector<std::string> root_arguments(RankGroup& ranks, int argc, const char* const* argv) {
  std::string mine;
  for (int i = 0; i < argc; ++i) mine.append(argv[i]).push_back('\0');
  const std::string root = ranks.broadcast(mine);
  std::vector<std::string> arguments;
  for (std::size_t begin = 0; begin < root.size();) {
    const std::size_t end = root.find('\0', begin);
    arguments.push_back(root.substr(begin, end - begin));
    begin = end + 1;
  }
  return arguments;
}

// How long the ranks wait for each other to finish discovering and planning.
constexpr double kSetupAgreement_s = 600;

// Discovers the plugins and plans the matrix: nullopt and the matrix, or the exit code of a
// listing, a dry run, or a usage error (said on stderr).
std::optional<int> discover_and_plan(const Options& options, std::vector<PluginRecord>& plugins,
                                     Matrix& matrix) {
  std::vector<PluginFolder> folders = plugin_search_path(options.plugin_dirs);
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
    if (plugin.state == PluginState::broken && !options.output.quiet) {
      std::cerr << "harness: ignoring " << printable_text(plugin.path) << ": "
                << printable_text(plugin.reason) << "\n";
    }
  }
  try {
    matrix = plan_matrix(options.plan, plugins);
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
  return std::nullopt;
}

// The results file's path, and the history's it is added to, checked (and their folders made)
// before the first cell, at the root (which alone writes them): nullopt, or the usage error's
// exit code (said on stderr).
std::optional<int> prepare_results_path(const Options& options) {
  if (!options.output.write_json) return std::nullopt;
  // The default name holds the time it is written at; its folder is the same.
  const std::string path =
      options.output.json_path.empty() ? default_results_path() : options.output.json_path;
  if (std::string problem = prepare_output_file(path, "--json"); !problem.empty()) {
    std::cerr << "harness: " << problem << "\n";
    return kExitUsage;
  }
  const std::string& history = options.output.history_path;
  if (history.empty()) return std::nullopt;
  std::string problem = history_target_problem(history);
  // Neither may exist yet: same_file compares their spellings then (./run.json, run.json).
  if (problem.empty() && same_file(history, path)) {
    problem = "--history '" + printable_text(history) +
              "' is the run's results file (--json); name the history database";
  }
  if (!problem.empty()) {
    std::cerr << "harness: " << problem << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

// Distributed workloads (their table has columns of its own) beside others ('all' is others).
bool mixes_distributed_workloads(const std::vector<std::string>& names) {
  bool distributed = false, other = false;
  for (const std::string& name : names) {
    const Workload* workload = WorkloadRegistry::instance().find(name);
    (workload && workload->distributed() ? distributed : other) = true;
  }
  return distributed && other;
}

int run_one_rank(const std::vector<std::string>& arguments, RankGroup& ranks) {
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  Options options;
  try {
    options = parse_options(static_cast<int>(argv.size()), argv.data());
  } catch (const UsageError& e) {
    // Every rank parsed the same command line: the root says it once.
    if (ranks.is_root()) std::cerr << "harness: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!ranks.alone() && options.mpi.per_rank && options.output.format == OutputFormat::csv) {
    if (ranks.is_root()) {
      std::cerr << "harness: --per-rank with --format csv would mix two tables under one header; "
                   "the results file holds every rank's cells (harness show FILE --format csv)\n";
    }
    return kExitUsage;
  }
  if (options.output.format == OutputFormat::csv &&
      mixes_distributed_workloads(options.plan.workloads)) {
    if (ranks.is_root()) {
      std::cerr << "harness: --format csv with distributed and other workloads would mix two "
                   "tables under one header; run dist_reduce and dist_sort apart\n";
    }
    return kExitUsage;
  }
  if (options.help) {
    std::cout << usage_text();
    return kExitOk;
  }
  if (options.version) {
    std::cout << "plugbench harness " << PLUGBENCH_VERSION << " (plugin ABI " << PB_ABI_MAJOR << "."
              << PB_ABI_MINOR << ")" << (built_with_mpi() ? ", MPI" : "") << "\n";
    return kExitOk;
  }
  // Before the first parallel region (the host's calibration), which would crash in libgomp.
  if (std::string problem = openmp_threads_problem(); !problem.empty()) {
    if (ranks.is_root()) std::cerr << "harness: " << problem << "\n";
    return kExitUsage;
  }
  if (!options.check_plugin.empty()) {
    // One check is enough: under a launcher the root checks and the other ranks leave.
    return ranks.is_root() ? check_plugin(options, std::cout, std::cerr) : kExitOk;
  }
  std::vector<PluginRecord> plugins;
  Matrix matrix;
  std::optional<int> done = discover_and_plan(options, plugins, matrix);
  const bool informational = options.list || options.dry_run;
  if (!done && ranks.is_root()) done = prepare_results_path(options);
  if (!ranks.alone() && !informational) {
    // Every rank takes part from here: all go on only when each could plan its run.
    std::optional<int> failed = ranks.agree_max(done ? 1 : 0, kSetupAgreement_s);
    if (!failed) {
      std::cerr << "harness: rank " << ranks.place().rank << " waited " << kSetupAgreement_s
                << " s for the other ranks to plan their run; ending the job\n";
      ranks.abort_job(kExitUsage);
    }
    if (*failed != 0) return done.value_or(kExitUsage);
  }
  if (done) return *done;
  std::optional<int> requested_device;
  if (options.device_given) requested_device = options.isolation.device;
  const nlohmann::json rank_facts = place_rank(
      ranks, requested_device, options.mpi.cpus == RankCpus::launcher, options.isolation.device);
  return run_matrix(options, plugins, matrix, ranks, rank_facts);
}

}  // namespace

int run_harness(int argc, const char* const* argv, RankGroup& ranks) {
  // A reader that goes away (harness ... | head -1) must not end the run before its results file
  // is written: writes to it fail with EPIPE instead, and the run goes on. Workers get the default
  // back (cells/worker_pool.cpp).
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::string> arguments = root_arguments(ranks, argc, argv);
  if (ranks.alone()) return run_one_rank(arguments, ranks);
  // Only the root speaks on stdout; the other ranks' tables and listings would repeat it.
  if (!ranks.is_root()) std::cout.setstate(std::ios::badbit);
  return run_one_rank(arguments, ranks);
}

}  // namespace plugbench
