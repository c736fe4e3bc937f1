// main.cpp: the harness executable: a run, `harness compare`, `show`, `export`, `report` and
// `history` on results files, or (hidden) a worker process of a run.
#include "base/exit_codes.hpp"
#include "cells/worker_process.hpp"
#include "cli/compare_command.hpp"
#include "cli/export_command.hpp"
#include "cli/harness_app.hpp"
#include "cli/history_command.hpp"
#include "cli/report_command.hpp"
#include "cli/show_command.hpp"
#include "ranks/rank_placement.hpp"

#include <csignal>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace {

// A results file the size limit admits can still need more memory than this process may have (a
// crafted file of tiny cells takes about 30 times its size, ulimit -v may be low): the
// commands that read them say so, with the exit code of a file they cannot read, instead of an
// internal error.
int read_results_command(const char* name, int (*command)(int, const char* const*), int argc,
                         char** argv) {
  // A reader that goes away (harness show big.json | head -1) fails the writes, which the
  // command reports (exit 4), instead of ending it silently with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return command(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr
        << "harness " << name
        << ": out of memory: the results files need more memory than this process may use "
           "(up to about 32 times their size; see ulimit -v); read fewer or smaller files, or "
           "allow more memory\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Outside the try: an exception on one rank must end the whole job (MPI_Abort), not finalize
  // MPI while the other ranks wait for it in a collective.
  std::unique_ptr<plugbench::RankGroup> ranks;
  try {
    if (argc > 1 && std::string_view(argv[1]) == plugbench::kWorkerFlag) {
      return plugbench::run_worker(argc > 2 ? argv[2] : nullptr);
    }
    using Command = int (*)(int, const char* const*);
    for (const auto& [name, command] :
         {std::pair<const char*, Command>{"compare", plugbench::run_compare},
          {"export", plugbench::run_export},
          {"history", plugbench::run_history},
          {"report", plugbench::run_report},
          {"show", plugbench::run_show}}) {
      if (argc > 1 && std::string_view(argv[1]) == name) {
        return read_results_command(name, command, argc - 1, argv + 1);
      }
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
