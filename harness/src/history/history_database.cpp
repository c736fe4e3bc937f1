// history_database.cpp: opening, migrating, adding to and querying the results history.
#include "history/history_database.hpp"

#include "history/sha256.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

namespace plugbench {
namespace {

// How long a writer waits for another's transaction before giving up (nightly runs finishing at
// once take turns; an add holds the lock for well under a second).
constexpr int kBusyTimeout_ms = 60000;

// The step from version v to v + 1, keyed by v. A change to the tables raises
// kHistorySchemaVersion and adds a step here, so that an older history is migrated in place.
const std::map<int, const char*>& migrations() {
  static const std::map<int, const char*> steps = {{0, R"sql(
CREATE TABLE machines (
  machine_id    INTEGER PRIMARY KEY,
  host          TEXT NOT NULL,
  cpu           TEXT NOT NULL,
  gpus          TEXT NOT NULL,
  logical_cores INTEGER,
  memory_bytes  INTEGER,
  os            TEXT NOT NULL,
  UNIQUE (host, cpu, gpus));
CREATE TABLE runs (
  run_id          INTEGER PRIMARY KEY,
  digest          TEXT NOT NULL UNIQUE,
  source_file     TEXT NOT NULL,
  added_at        TEXT NOT NULL,
  run_time        TEXT NOT NULL,
  git_commit      TEXT NOT NULL,
  harness_version TEXT NOT NULL,
  command_line    TEXT NOT NULL,
  complete        INTEGER NOT NULL,
  schema_version  INTEGER NOT NULL,
  machine_id      INTEGER NOT NULL REFERENCES machines (machine_id),
  context         TEXT NOT NULL);
CREATE INDEX runs_by_time ON runs (run_time);
CREATE TABLE peaks (
  run_id       INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  memory_space TEXT NOT NULL,
  device       TEXT NOT NULL,
  pattern      TEXT NOT NULL,
  gbps         REAL,
  measured_by  TEXT NOT NULL);
CREATE TABLE cells (
  cell_id         INTEGER PRIMARY KEY,
  run_id          INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  workload        TEXT NOT NULL,
  distribution    TEXT NOT NULL,
  n               INTEGER NOT NULL,
  size            TEXT NOT NULL,
  plugin          TEXT NOT NULL,
  variant         TEXT NOT NULL,
  rank            INTEGER,
  status          TEXT NOT NULL,
  message         TEXT NOT NULL,
  memory_space    TEXT NOT NULL,
  median_ms       REAL,
  q1_ms           REAL,
  q3_ms           REAL,
  cv              REAL,
  e2e_median_ms   REAL,
  gbps            REAL,
  percent_of_peak REAL);
CREATE INDEX cells_by_run ON cells (run_id);
CREATE INDEX cells_by_key ON cells (workload, plugin, variant, distribution, n);
CREATE TABLE samples (
  cell_id    INTEGER NOT NULL REFERENCES cells (cell_id) ON DELETE CASCADE,
  repetition INTEGER NOT NULL,
  kernel_ms  REAL NOT NULL,
  PRIMARY KEY (cell_id, repetition)) WITHOUT ROWID;
)sql"}};
  return steps;
}

// The path, checked and with its folders made: SQLite's own errors for a folder, a device or a
// FIFO ("disk I/O error") would send the user looking at the disk.
std::string with_folder(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw HistoryError(path + ": is " +
                       (std::filesystem::is_directory(status)
                            ? std::string("a folder")
                            : std::string("not a regular file (a device, FIFO or socket)")) +
                       ", not a history database; give --history a file path");
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  error.clear();  // a path not there yet is not an error
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  if (error) {
    throw HistoryError(path + ": cannot make the folder " + parent.string() + ": " +
                       error.message());
  }
  return path;
}

std::int64_t pragma_number(SqliteConnection& connection, const std::string& name) {
  SqliteStatement statement(connection, "PRAGMA " + name);
  return statement.step() ? statement.integer(0) : 0;
}

// A transaction that rolls back unless committed: an exception anywhere in an add leaves nothing.
class Transaction {
 public:
  explicit Transaction(SqliteConnection& connection) : connection_(connection) {
    // IMMEDIATE takes the write lock now (waiting out other writers): a deferred transaction that
    // upgrades later can fail with SQLITE_BUSY without waiting.
    connection_.execute("BEGIN IMMEDIATE");
  }
  ~Transaction() {
    if (open_) sqlite3_exec(connection_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    connection_.execute("COMMIT");
    open_ = false;
  }
  void roll_back() {
    connection_.execute("ROLLBACK");
    open_ = false;
  }

 private:
  SqliteConnection& connection_;
  bool open_ = true;
};

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

// The GPUs of a run, once each (several plugins report the same device): "2x NVIDIA H200".
std::string gpus_of(const std::vector<DeviceFacts>& devices) {
  std::set<std::string> seen;
  std::map<std::string, int> counts;
  for (const DeviceFacts& device : devices) {
    std::string id = device.uuid;
    if (id.empty()) id = device.pci_bus_id + device.name;
    if (!device.name.empty() && seen.insert(id).second) ++counts[device.name];
  }
  std::string text;
  for (const auto& [name, count] : counts) {
    if (!text.empty()) text += ", ";
    text += (count > 1 ? std::to_string(count) + "x " : "") + name;
  }
  return text;
}

// A count of the host's, or NULL: the typed context holds 0 where the file has no count, and the
// harness writes 0 where it could not tell (memory).
std::optional<double> known_count(std::uint64_t count) {
  if (count == 0) return std::nullopt;
  return static_cast<double>(count);
}

std::optional<std::int64_t> integer_at(const nlohmann::json& value, const std::string& pointer) {
  std::optional<double> number = number_at(value, pointer);
  if (!number) return std::nullopt;
  return static_cast<std::int64_t>(*number);
}

// The sample quantile q by linear interpolation (R's type 7); nullopt without samples.
std::optional<double> quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  const double position = q * static_cast<double>(samples.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, samples.size() - 1);
  return samples[below] +
         (position - static_cast<double>(below)) * (samples[above] - samples[below]);
}

std::int64_t machine_of(SqliteConnection& connection, const RunContext& run) {
  const std::string& host = run.host.name;
  const std::string& cpu = run.host.cpu;
  const std::string gpus = gpus_of(run.devices);
  SqliteStatement insert(connection,
                         "INSERT INTO machines (host, cpu, gpus, logical_cores, memory_bytes, os) "
                         "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  insert.bind(1, host).bind(2, cpu).bind(3, gpus);
  insert.bind(4, known_count(run.host.logical_cores));
  insert.bind(5, known_count(run.host.memory_bytes));
  insert.bind(6, run.host.os).run();
  SqliteStatement find(connection,
                       "SELECT machine_id FROM machines WHERE host = ? AND cpu = ? AND gpus = ?");
  find.bind(1, host).bind(2, cpu).bind(3, gpus).step();
  return find.integer(0);
}

// From the JSON, not the typed context: the history keeps every peak the file holds, one without
// a rate too (NULL), where the typed context keeps only the rates the commands show.
void add_peaks(SqliteConnection& connection, std::int64_t run_id, const nlohmann::json& document) {
  const nlohmann::json* peaks = array_at(document, "/context/peaks");
  if (!peaks) return;
  SqliteStatement insert(connection,
                         "INSERT INTO peaks (run_id, memory_space, device, pattern, gbps, "
                         "measured_by) VALUES (?, ?, ?, ?, ?, ?)");
  for (const nlohmann::json& peak : *peaks) {
    insert.reset();
    insert.bind(1, run_id)
        .bind(2, text_at(peak, "/memory_space"))
        .bind(3, text_at(peak, "/device"));
    insert.bind(4, text_at(peak, "/pattern")).bind(5, number_at(peak, "/gbps"));
    insert.bind(6, text_at(peak, "/measured_by")).run();
  }
}

}  // namespace

std::string machine_label(const std::string& host, const std::string& cpu,
                          const std::string& gpus) {
  std::string label = host.empty() ? "unknown host" : host;
  std::string inside = cpu;
  if (!gpus.empty()) inside += (inside.empty() ? "" : "; ") + gpus;
  return inside.empty() ? label : label + " (" + inside + ")";
}

HistoryDatabase::HistoryDatabase(const std::string& path) : connection_(with_folder(path)) {
  sqlite3_busy_timeout(connection_.get(), kBusyTimeout_ms);
  prepare_schema();
}

HistoryDatabase::HistoryDatabase(const std::string& path, ReadOnly)
    : connection_(path, /*read_only=*/true) {
  sqlite3_busy_timeout(connection_.get(), kBusyTimeout_ms);
  check_readable();
}

void HistoryDatabase::check_readable() {
  const std::string& path = connection_.path();
  // The first read of the file: a file that is not SQLite fails here (SQLITE_NOTADB).
  if (pragma_number(connection_, "application_id") != kHistoryApplicationId) {
    throw HistoryError(path +
                       ": not a plugbench history (an empty file, or another program's "
                       "database); harness history add FILE.json --history PATH makes one");
  }
  const std::int64_t version = pragma_number(connection_, "user_version");
  if (version != kHistorySchemaVersion) {
    throw HistoryError(path + ": history schema version " + std::to_string(version) +
                       "; this harness reads version " + std::to_string(kHistorySchemaVersion) +
                       (version < kHistorySchemaVersion
                            ? " (harness history list --history PATH brings it up to date)"
                            : " (update plugbench to read it)"));
  }
}

// Switching to WAL needs the database to itself for a moment, and SQLite answers "busy" at once,
// without its busy handler, when another process holds it: two processes that make the same
// history at once meet here. Retried until the log is on (by either) or the busy timeout passes.
void HistoryDatabase::set_write_ahead_log() {
  const auto started = std::chrono::steady_clock::now();
  while (true) {
    try {
      connection_.execute("PRAGMA journal_mode = WAL");
      return;
    } catch (const HistoryError&) {
      {
        SqliteStatement mode(connection_, "PRAGMA journal_mode");
        if (mode.step() && mode.text(0) == "wal") return;
      }
      if (std::chrono::steady_clock::now() - started > std::chrono::milliseconds(kBusyTimeout_ms))
        throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

void HistoryDatabase::prepare_schema() {
  const std::string& path = connection_.path();
  // The first read of the file: a file that is not SQLite fails here (SQLITE_NOTADB).
  (void)pragma_number(connection_, "application_id");
  std::int64_t tables = 0;
  {
    SqliteStatement count(connection_, "SELECT count(*) FROM sqlite_schema");
    if (count.step()) tables = count.integer(0);
  }
  // Read again after the count: a history that another process creates meanwhile gets its tables
  // and its id in one commit, so an id read after the count is never older than the tables.
  const std::int64_t application = pragma_number(connection_, "application_id");
  if (application != kHistoryApplicationId && (application != 0 || tables > 0)) {
    throw HistoryError(path +
                       ": an SQLite database of another program, not a plugbench "
                       "history; give another --history file");
  }
  const auto check_version = [&](std::int64_t version) {
    if (version > kHistorySchemaVersion) {
      throw HistoryError(path + ": history schema version " + std::to_string(version) +
                         " was written by a newer harness; this one reads versions up to " +
                         std::to_string(kHistorySchemaVersion) +
                         " (update plugbench to use this history, or give another --history)");
    }
  };
  check_version(pragma_number(connection_, "user_version"));
  // WAL: readers never block the writer, and a crash leaves the last committed state.
  set_write_ahead_log();
  connection_.execute("PRAGMA synchronous = NORMAL");
  connection_.execute("PRAGMA foreign_keys = ON");
  if (pragma_number(connection_, "user_version") == kHistorySchemaVersion) return;
  Transaction transaction(connection_);
  // Read again under the lock: another process may have migrated meanwhile.
  std::int64_t version = pragma_number(connection_, "user_version");
  check_version(version);
  for (; version < kHistorySchemaVersion; ++version) {
    auto step = migrations().find(static_cast<int>(version));
    if (step == migrations().end()) {
      throw HistoryError(path + ": history schema version " + std::to_string(version) +
                         " cannot be migrated by this harness");
    }
    connection_.execute(step->second);
  }
  connection_.execute("PRAGMA application_id = " + std::to_string(kHistoryApplicationId));
  connection_.execute("PRAGMA user_version = " + std::to_string(kHistorySchemaVersion));
  transaction.commit();
}

AddOutcome HistoryDatabase::add_run(const ResultsFile& file, const std::string& source_name,
                                    const std::function<void(std::size_t)>& after_cell) {
  if (!file.cell_json_kept) {
    throw std::logic_error("HistoryDatabase::add_run: the file was read without its cells' JSON");
  }
  const nlohmann::json& document = file.document;
  // The document as parsed and migrated, keys sorted: the same run reformatted or copied is
  // the same digest.
  const std::string digest = sha256_hex(document.dump());
  Transaction transaction(connection_);
  AddOutcome outcome;
  {
    SqliteStatement find(connection_,
                         "SELECT run_id, source_file, added_at FROM runs WHERE digest = ?");
    if (find.bind(1, digest).step()) {
      outcome.run_id = find.integer(0);
      outcome.existing_source = find.text(1);
      outcome.existing_added_at = find.text(2);
      transaction.roll_back();
      return outcome;
    }
  }
  const std::int64_t machine_id = machine_of(connection_, file.context);
  SqliteStatement run(connection_,
                      "INSERT INTO runs (digest, source_file, added_at, run_time, git_commit, "
                      "harness_version, command_line, complete, schema_version, machine_id, "
                      "context) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  run.bind(1, digest).bind(2, source_name).bind(3, utc_now());
  run.bind(4, file.context.time);
  run.bind(5, file.context.build.git_commit);
  run.bind(6, file.context.build.harness_version);
  run.bind(7, file.context.command_line);
  run.bind(8, std::int64_t{file.context.complete ? 1 : 0});
  run.bind(9, std::int64_t{document["schema_version"].get<std::int64_t>()});
  run.bind(10, machine_id);
  run.bind(11, document.contains("context") ? document["context"].dump() : std::string("{}"));
  run.run();
  outcome.run_id = sqlite3_last_insert_rowid(connection_.get());
  add_peaks(connection_, outcome.run_id, document);

  SqliteStatement cell(connection_,
                       "INSERT INTO cells (run_id, position, workload, distribution, n, size, "
                       "plugin, variant, rank, status, message, memory_space, median_ms, q1_ms, "
                       "q3_ms, cv, e2e_median_ms, gbps, percent_of_peak) VALUES (?, ?, ?, ?, ?, ?, "
                       "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  SqliteStatement sample(connection_,
                         "INSERT INTO samples (cell_id, repetition, kernel_ms) VALUES (?, ?, ?)");
  std::size_t position = 0;
  for (const nlohmann::json& entry : file.document.at("results")) {
    const std::vector<double> samples = numbers_at(entry, "/time/kernel/samples_ms");
    cell.reset();
    cell.bind(1, outcome.run_id).bind(2, static_cast<std::int64_t>(position));
    cell.bind(3, text_at(entry, "/workload")).bind(4, text_at(entry, "/distribution"));
    cell.bind(5, static_cast<std::int64_t>(entry["n"].get<std::uint64_t>()));
    cell.bind(6, text_at(entry, "/size")).bind(7, text_at(entry, "/plugin"));
    cell.bind(8, text_at(entry, "/variant"));
    std::optional<std::int64_t> rank = integer_at(entry, "/rank");
    if (rank) {
      cell.bind(9, *rank);
    } else {
      cell.bind(9, std::optional<double>());
    }
    cell.bind(10, text_at(entry, "/status")).bind(11, text_at(entry, "/message"));
    cell.bind(12, text_at(entry, "/memory_space"));
    cell.bind(13, number_at(entry, "/time/kernel/median_ms"));
    cell.bind(14, quantile(samples, 0.25)).bind(15, quantile(samples, 0.75));
    cell.bind(16, number_at(entry, "/time/kernel/cv"));
    cell.bind(17, number_at(entry, "/time/end_to_end/median_ms"));
    cell.bind(18, number_at(entry, "/gbps")).bind(19, number_at(entry, "/percent_of_peak"));
    cell.run();
    const std::int64_t cell_id = sqlite3_last_insert_rowid(connection_.get());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      sample.reset();
      sample.bind(1, cell_id)
          .bind(2, static_cast<std::int64_t>(i))
          .bind(3, std::optional<double>(samples[i]))
          .run();
    }
    ++position;
    if (after_cell) after_cell(position);
  }
  transaction.commit();
  outcome.added = true;
  return outcome;
}

std::vector<RunSummary> HistoryDatabase::runs() {
  SqliteStatement query(connection_,
                        "SELECT r.run_id, r.run_time, m.host, m.cpu, m.gpus, r.git_commit, "
                        "count(c.cell_id), coalesce(sum(c.status = 'ok'), 0), r.complete, "
                        "r.source_file, r.added_at FROM runs r JOIN machines m USING (machine_id) "
                        "LEFT JOIN cells c USING (run_id) GROUP BY r.run_id "
                        "ORDER BY r.run_time, r.run_id");
  std::vector<RunSummary> runs;
  while (query.step()) {
    RunSummary run;
    run.run_id = query.integer(0);
    run.run_time = query.text(1);
    run.machine = machine_label(query.text(2), query.text(3), query.text(4));
    run.git_commit = query.text(5);
    run.cells = query.integer(6);
    run.cells_ok = query.integer(7);
    run.complete = query.integer(8) != 0;
    run.source_file = query.text(9);
    run.added_at = query.text(10);
    runs.push_back(run);
  }
  return runs;
}

std::string HistoryDatabase::run_context(std::int64_t run_id) {
  SqliteStatement query(connection_, "SELECT context FROM runs WHERE run_id = ?");
  query.bind(1, run_id);
  return query.step() ? query.text(0) : std::string("{}");
}

std::vector<CellPoint> HistoryDatabase::cells(const CellFilter& filter) {
  std::string sql =
      "SELECT r.run_id, r.run_time, r.source_file, r.git_commit, m.machine_id, m.host, m.cpu, "
      "m.gpus, c.workload, c.distribution, c.size, c.plugin, c.variant, c.status, c.n, "
      "c.median_ms, c.q1_ms, c.q3_ms, c.gbps, c.percent_of_peak FROM cells c "
      "JOIN runs r USING (run_id) JOIN machines m USING (machine_id) "
      "WHERE (c.rank IS NULL OR c.rank = 0)";
  std::vector<std::string> values;
  for (const auto& [key, value] : filter.fields) {
    if (key == "size") {
      sql += " AND (c.size = ? OR CAST(c.n AS TEXT) = ?)";
      values.push_back(value);
    } else if (key == "machine") {
      sql += " AND m.host = ?";
    } else {
      sql += " AND c." + key + " = ?";  // key is one of parse_cell_filter's names
    }
    values.push_back(value);
  }
  sql +=
      " ORDER BY m.machine_id, c.workload, c.distribution, c.n, c.plugin, c.variant, "
      "r.run_time, r.run_id, c.position";
  SqliteStatement query(connection_, sql);
  for (std::size_t i = 0; i < values.size(); ++i) query.bind(static_cast<int>(i + 1), values[i]);
  std::vector<CellPoint> points;
  while (query.step()) {
    CellPoint p;
    p.run_id = query.integer(0);
    p.run_time = query.text(1);
    p.source_file = query.text(2);
    p.git_commit = query.text(3);
    p.machine_id = query.integer(4);
    p.machine = machine_label(query.text(5), query.text(6), query.text(7));
    p.workload = query.text(8);
    p.distribution = query.text(9);
    p.size = query.text(10);
    p.plugin = query.text(11);
    p.variant = query.text(12);
    p.status = status_read(query.text(13));
    p.n = query.integer(14);
    p.median_ms = query.real(15);
    p.q1_ms = query.real(16);
    p.q3_ms = query.real(17);
    p.gbps = query.real(18);
    p.percent_of_peak = query.real(19);
    // A size listed twice in one run: its first cell stands for the run.
    if (!points.empty()) {
      const CellPoint& last = points.back();
      if (last.run_id == p.run_id && last.workload == p.workload &&
          last.distribution == p.distribution && last.n == p.n && last.plugin == p.plugin &&
          last.variant == p.variant) {
        continue;
      }
    }
    points.push_back(std::move(p));
  }
  return points;
}

std::string machine_label_of(const RunContext& run) {
  return machine_label(run.host.name, run.host.cpu, gpus_of(run.devices));
}

}  // namespace plugbench
