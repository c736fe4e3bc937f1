// harness_app.cpp: the harness program: parse the options, then list, plan, dry-run, check a
// plugin, or run the matrix.
#include "cli/harness_app.hpp"

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"
#include "load/plugin_loader.hpp"
#include "plan/matrix.hpp"
#include "record/report_table.hpp"
#include "record/results_json.hpp"
#include "run/check_plugin.hpp"
#include "run/matrix_run.hpp"

#include <csignal>
#include <iostream>

namespace plugbench {

int run_harness(int argc, const char* const* argv) {
  // A reader that goes away (harness ... | head -1) must not end the run before its results file
  // is written: writes to it fail with EPIPE instead, and the run goes on. Workers get the default
  // back (isolate/worker_pool.cpp).
  std::signal(SIGPIPE, SIG_IGN);
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
  if (options.write_json && !options.json_path.empty()) {
    if (std::string problem = results_path_problem(options.json_path); !problem.empty()) {
      std::cerr << "harness: " << problem << "\n";
      return kExitUsage;
    }
  }
  if (matrix.cells_to_run() == 0 && matrix.problems.empty()) {
    std::cerr << "harness: nothing to run (no available plugin implements the selected "
                 "workloads; see harness --list)\n";
    return kExitUsage;
  }
  return run_matrix(options, plugins, matrix);
}

}  // namespace plugbench
