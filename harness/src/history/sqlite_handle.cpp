// sqlite_handle.cpp: SQLite calls with their errors turned into messages a user can act on.
#include "history/sqlite_handle.hpp"

namespace plugbench {

SqliteConnection::SqliteConnection(const std::string& path, bool read_only) : path_(path) {
  const int access = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  int code = sqlite3_open_v2(path.c_str(), &db_, access | SQLITE_OPEN_NOMUTEX, nullptr);
  if (code != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    sqlite3_close(db_);
    db_ = nullptr;
    throw HistoryError(path + ": cannot open the history database: " + message +
                       " (check the path and its folder's permissions)");
  }
  sqlite3_extended_result_codes(db_, 1);
}

SqliteConnection::~SqliteConnection() {
  sqlite3_close_v2(db_);
}

void SqliteConnection::fail(const std::string& doing, int code) const {
  const int primary = code & 0xff;
  std::string what = sqlite3_errmsg(db_);
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) {
    throw HistoryError(path_ + ": not a readable history database (" + what + ", while " + doing +
                       "); the file is damaged or is not an SQLite database: restore it from a "
                       "backup, or give another --history file and add the results files again");
  }
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    throw HistoryError(path_ + ": the history database stayed locked by another process (" + what +
                       ", while " + doing + "); try again when that process is done");
  }
  if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM) {
    throw HistoryError(path_ + ": cannot write the history database (" + what + ", while " + doing +
                       "); check the file's and its folder's permissions");
  }
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR) {
    throw HistoryError(path_ + ": the history database could not be written (" + what + ", while " +
                       doing + "); check the disk");
  }
  throw HistoryError(path_ + ": history database error while " + doing + ": " + what);
}

void SqliteConnection::execute(const std::string& sql) {
  char* message = nullptr;
  int code = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (code != SQLITE_OK) fail("running \"" + sql.substr(0, 60) + "\"", code);
}

SqliteStatement::SqliteStatement(SqliteConnection& connection, const std::string& sql)
    : connection_(connection), sql_(sql) {
  int code = sqlite3_prepare_v2(connection.get(), sql.c_str(), -1, &statement_, nullptr);
  if (code != SQLITE_OK) connection_.fail("preparing \"" + sql.substr(0, 60) + "\"", code);
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(int index, const std::string& text) {
  int code = sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()),
                               SQLITE_TRANSIENT);
  if (code != SQLITE_OK) connection_.fail("binding a value", code);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t number) {
  int code = sqlite3_bind_int64(statement_, index, number);
  if (code != SQLITE_OK) connection_.fail("binding a value", code);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<double> number) {
  int code = number ? sqlite3_bind_double(statement_, index, *number)
                    : sqlite3_bind_null(statement_, index);
  if (code != SQLITE_OK) connection_.fail("binding a value", code);
  return *this;
}

bool SqliteStatement::step() {
  int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  connection_.fail("running \"" + sql_.substr(0, 60) + "\"", code);
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
}

std::string SqliteStatement::text(int column) const {
  const unsigned char* value = sqlite3_column_text(statement_, column);
  return value ? reinterpret_cast<const char*>(value) : "";
}

std::int64_t SqliteStatement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

std::optional<double> SqliteStatement::real(int column) const {
  if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(statement_, column);
}

}  // namespace plugbench
