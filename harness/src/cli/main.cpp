// main.cpp: the harness executable: a run, `harness compare`, `show`, `export`, `report` and
// `history` on results files, or (hidden) a worker process of a run.
#include "analyze/compare_command.hpp"
#include "analyze/export_command.hpp"
#include "analyze/report_command.hpp"
#include "analyze/show_command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/harness_app.hpp"
#include "history/history_command.hpp"
#include "isolate/worker_process.hpp"
#include "ranks/rank_placement.hpp"

#include <exception>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  // Outside the try: an exception on one rank must end the whole job (MPI_Abort), not finalize
  // MPI while the other ranks wait for it in a collective.
  std::unique_ptr<plugbench::RankGroup> ranks;
  try {
    if (argc > 1 && std::string_view(argv[1]) == plugbench::kWorkerFlag) {
      return plugbench::run_worker(argc > 2 ? argv[2] : nullptr);
    }
    if (argc > 1 && std::string_view(argv[1]) == "compare") {
      return plugbench::run_compare(argc - 1, argv + 1);
    }
    if (argc > 1 && std::string_view(argv[1]) == "export") {
      return plugbench::run_export(argc - 1, argv + 1);
    }
    if (argc > 1 && std::string_view(argv[1]) == "report") {
      return plugbench::run_report(argc - 1, argv + 1);
    }
    if (argc > 1 && std::string_view(argv[1]) == "history") {
      return plugbench::run_history(argc - 1, argv + 1);
    }
    if (argc > 1 && std::string_view(argv[1]) == "show") {
      return plugbench::run_show(argc - 1, argv + 1);
    }
    plugbench::restart_on_rank_share(argc, argv);
    try {
      ranks = plugbench::join_rank_group(&argc, &argv);
    } catch (const std::runtime_error& e) {
      std::cerr << "harness: " << e.what() << "\n";
      return plugbench::kExitUsage;
    }
    return plugbench::run_harness(argc, argv, *ranks);
  } catch (const std::exception& e) {
    std::cerr << "harness: internal error"
              << (ranks && !ranks->alone() ? " on rank " + std::to_string(ranks->place().rank)
                                           : std::string())
              << ": " << e.what() << "\n";
    if (ranks && !ranks->alone()) ranks->abort_job(plugbench::kExitOutputError);
    return plugbench::kExitOutputError;
  }
}
