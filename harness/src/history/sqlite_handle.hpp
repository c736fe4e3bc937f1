// sqlite_handle.hpp: thin RAII over the SQLite C API (a connection, a prepared statement), turning
// every failed call into a HistoryError that names the database file and what SQLite said.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace plugbench {

// The history database cannot be used: the message names the file, the problem and what to do.
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SqliteConnection {
 public:
  // Opens or creates; read-only: opens an existing file and never writes it. Throws HistoryError.
  explicit SqliteConnection(const std::string& path, bool read_only = false);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  void execute(const std::string& sql);  // statements without results
  [[noreturn]] void fail(const std::string& doing, int code) const;
  sqlite3* get() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class SqliteStatement {
 public:
  SqliteStatement(SqliteConnection& connection, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  SqliteStatement& bind(int index, const std::string& text);
  SqliteStatement& bind(int index, std::int64_t number);
  SqliteStatement& bind(int index, std::optional<double> number);  // nullopt binds NULL
  // True while a row is there to read; false when done.
  bool step();
  void run() { step(); }  // a statement without rows
  void reset();           // again, with the same bindings

  std::string text(int column) const;
  std::int64_t integer(int column) const;
  std::optional<double> real(int column) const;

 private:
  SqliteConnection& connection_;
  sqlite3_stmt* statement_ = nullptr;
  std::string sql_;
};

}  // namespace plugbench
