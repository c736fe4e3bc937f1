// history_command.hpp: `harness history add|list|trend|machines|changes` on the results history
// (docs/history.md), and the add that `harness --history DB` does after a run.
#pragma once

#include "results/results_reader.hpp"

#include <ostream>
#include <string>

namespace plugbench {

// Exit codes of harness history: 0 done; 1 `changes` found a slowdown (as compare's regression);
// 2 a usage error or a results file that cannot be read; 3 a run already in the history (the
// other files are added); 4 the database cannot be used (corrupt, newer schema, another program's,
// locked too long, not writable).
enum HistoryExitCode {
  kHistoryDone = 0,
  kHistorySlowdown = 1,
  kHistoryInputError = 2,
  kHistoryDuplicate = 3,
  kHistoryDatabaseError = 4
};

// argv[0] is "history".
int run_history(int argc, const char* const* argv);

// Adds a finished run's results (read back from `results_path`) to the history at `database`;
// says what it did on `out`, a problem on `err`. Returns a HistoryExitCode.
int add_results_to_history(const std::string& database, const std::string& results_path,
                           std::ostream& out, std::ostream& err);

}  // namespace plugbench
