// history_add.cpp: a results file read and stored in the history, said in one line (after a run,
// a second: its host memory against the machine's usual).
#include "history/history_add.hpp"

#include "base/safe_text.hpp"
#include "history/memory_level.hpp"
#include "results/results_reader.hpp"

namespace plugbench {

int add_results_file(HistoryDatabase& history, const std::string& path, std::uint64_t max_bytes,
                     const std::string& who, std::ostream& out, std::ostream& err,
                     RunContext* added) {
  ResultsFile file;
  try {
    file = read_results_file(path, max_bytes, CellJson::kept);
  } catch (const ResultsFileError& e) {
    err << who << ": " << printable_text(e.what()) << " (not added)\n";
    return kHistoryInputError;
  }
  AddOutcome outcome;
  try {
    outcome = history.add_run(file, path);
  } catch (const nlohmann::json::exception& e) {
    // A field of an unexpected type that the results reader lets through: the transaction has
    // rolled back, nothing of the file is stored.
    err << who << ": " << printable_text(path) << ": cannot be stored (" << printable_text(e.what())
        << "); not added\n";
    return kHistoryInputError;
  }
  if (!outcome.added) {
    err << who << ": " << printable_text(path) << ": this run is already in the history (run "
        << outcome.run_id << ", added from " << printable_text(outcome.existing_source) << " at "
        << outcome.existing_added_at << "); not added again\n";
    return kHistoryDuplicate;
  }
  out << "added " << printable_text(path) << " as run " << outcome.run_id << " ("
      << file.cells.size() << " cells) to " << printable_text(history.connection().path()) << "\n";
  if (added) *added = file.context;
  return kHistoryDone;
}

void say_memory_levels(HistoryDatabase& history,
                       const std::vector<std::pair<std::string, RunContext>>& added,
                       std::ostream& out, std::ostream& err) {
  if (added.empty()) return;
  try {
    const MemoryLevels levels(history);
    for (const auto& [path, run] : added) {
      const std::string line = memory_level_line(levels.of(run, {run_identity(run)}));
      if (!line.empty()) out << printable_text(path) << ": " << line << "\n";
    }
  } catch (const HistoryError& e) {
    err << "harness history add: the runs were added, but their memory could not be set against "
           "their machines' other runs: "
        << printable_text(e.what()) << "\n";
  }
}

int add_results_to_history(const std::string& database, const std::string& results_path,
                           std::ostream& out, std::ostream& err) {
  try {
    HistoryDatabase history(database);
    RunContext run;
    const int code = add_results_file(history, results_path, kMaxFileMibLimit << 20,
                                      "harness: --history", out, err, &run);
    if (code != kHistoryDone) return code;
    // Just added, the run would be its own baseline: it is left out of its machine's usual. The
    // run is stored by now, so a history that cannot be read for the line costs the line only.
    try {
      const std::string line =
          memory_level_line(MemoryLevels(history).of(run, {run_identity(run)}));
      if (!line.empty()) out << line << "\n";
    } catch (const HistoryError& e) {
      err << "harness: --history: the run was added, but its memory could not be set against "
             "the machine's other runs: "
          << printable_text(e.what()) << "\n";
    }
    return code;
  } catch (const HistoryError& e) {
    err << "harness: --history: " << printable_text(e.what()) << "\n";
    return kHistoryDatabaseError;
  }
}

}  // namespace plugbench
