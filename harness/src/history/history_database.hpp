// history_database.hpp: the results history, an SQLite file of runs, their machines, cells,
// samples and peaks (schema in docs/history.md): opened with WAL and a busy timeout so that runs
// may add at once, versioned with PRAGMA user_version and migrated step by step like the results
// file, each run added in one transaction and known by the SHA-256 of its document.
#pragma once

#include "history/cell_filter.hpp"
#include "history/sqlite_handle.hpp"
#include "measure/cell_result.hpp"
#include "results/results_reader.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// The schema this harness writes; a database of a higher version is refused.
inline constexpr int kHistorySchemaVersion = 1;
// PRAGMA application_id of a plugbench history ("PBHi"): another program's database is refused.
inline constexpr std::int32_t kHistoryApplicationId = 0x50424869;

struct AddOutcome {
  bool added = false;
  std::int64_t run_id = 0;        // the new run, or the one already there
  std::string existing_source;    // where the run already there was added from
  std::string existing_added_at;  // and when
};

struct RunSummary {
  std::int64_t run_id = 0;
  std::string run_time;  // the run's own time (UTC, ISO 8601)
  std::string machine;
  std::string git_commit;
  std::int64_t cells = 0;
  std::int64_t cells_ok = 0;
  bool complete = true;
  std::string source_file;
  std::string added_at;
};

// One cell of one run, with the run and machine it belongs to.
struct CellPoint {
  std::int64_t run_id = 0;
  std::string run_time;
  std::string source_file;
  std::string git_commit;
  std::int64_t machine_id = 0;
  std::string machine;
  std::string workload, distribution, size, plugin, variant;
  StatusText status;  // as stored: the file's text, a status this build lacks kept as read
  std::int64_t n = 0;
  std::optional<double> median_ms, q1_ms, q3_ms, gbps, percent_of_peak;
};

class HistoryDatabase {
 public:
  // Opens (creating the file and its folders where missing) and migrates. Throws HistoryError: a
  // newer schema, another program's database, a corrupt file, a lock held too long.
  explicit HistoryDatabase(const std::string& path);
  // Opens an existing history to read it only (compare --history): nothing is created, migrated or
  // switched; a file that is not a plugbench history of this schema is refused (HistoryError).
  struct ReadOnly {};
  HistoryDatabase(const std::string& path, ReadOnly);

  // Adds a run, all of it or nothing. A run already there (same digest) is not added again.
  // `file` must be read with CellJson::kept (the digest and the rows are made from its JSON).
  // `after_cell` (tests) is called after each cell's rows are written, inside the transaction.
  AddOutcome add_run(const ResultsFile& file, const std::string& source_name,
                     const std::function<void(std::size_t)>& after_cell = {});

  std::vector<RunSummary> runs();
  // Cells matching the filter (first rank only, first occurrence per run), ordered by machine,
  // cell, then run time: each (machine, cell) is one series, oldest first.
  std::vector<CellPoint> cells(const CellFilter& filter);
  // The run's context as its file held it (JSON text; "{}" where the file had none).
  std::string run_context(std::int64_t run_id);

  SqliteConnection& connection() { return connection_; }

 private:
  void prepare_schema();
  void check_readable();
  void set_write_ahead_log();
  SqliteConnection connection_;
};

// A machine's name in the history: "host (cpu; gpus)".
std::string machine_label(const std::string& host, const std::string& cpu, const std::string& gpus);

// The name the history gives the machine a run was made on (CellPoint::machine's).
std::string machine_label_of(const RunContext& run);

}  // namespace plugbench
