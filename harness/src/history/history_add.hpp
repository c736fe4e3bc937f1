// history_add.hpp: a results file added to the results history (docs/history.md): by `harness
// history add`, and by `harness --history DB` after a run.
#pragma once

#include "history/history_database.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {

// Exit codes of harness history: 0 done; 1 `changes` found a slowdown (as compare's regression);
// 2 a usage error or a results file that cannot be read; 3 a run already in the history (the
// other files are added); 4 the database cannot be used (corrupt, newer schema, another program's,
// locked too long, not writable), or stdout could not be written (as show's and compare's 4).
enum HistoryExitCode {
  kHistoryDone = 0,
  kHistorySlowdown = 1,
  kHistoryInputError = 2,
  kHistoryDuplicate = 3,
  kHistoryDatabaseError = 4,
  kHistoryOutputError = 4
};

// Adds one file; says what happened. Throws HistoryError (the database), never ResultsFileError.
// `who` starts each message ("harness history add", "harness: --history"). `added`, where given,
// gets the context of the run added.
int add_results_file(HistoryDatabase& history, const std::string& path, std::uint64_t max_bytes,
                     const std::string& who, std::ostream& out, std::ostream& err,
                     RunContext* added = nullptr);

// Each run added by `history add`, once all are stored, against its machine's other runs in the
// history (those added with it included, as `history list` judges it): "FILE: host memory: ...".
// The runs are stored by then, so a history that cannot be read for the lines costs the lines only.
void say_memory_levels(HistoryDatabase& history,
                       const std::vector<std::pair<std::string, RunContext>>& added,
                       std::ostream& out, std::ostream& err);

// Adds a finished run's results (read back from `results_path`) to the history at `database`;
// says what it did on `out`, and then the run's host memory against the machine's other runs in
// the history (memory_level_line), a problem on `err`. Returns a HistoryExitCode.
int add_results_to_history(const std::string& database, const std::string& results_path,
                           std::ostream& out, std::ostream& err);

}  // namespace plugbench
