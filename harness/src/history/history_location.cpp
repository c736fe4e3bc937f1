// history_location.cpp: the default history path from the environment.
#include "history/history_location.hpp"

#include "base/output_path.hpp"
#include "base/safe_text.hpp"
#include "base/usage_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace plugbench {

std::string default_history_path() {
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const char* data_home = std::getenv("XDG_DATA_HOME");
  if (data_home && data_home[0] == '/') return std::string(data_home) + "/plugbench/history.sqlite";
  const char* home = std::getenv("HOME");
  if (home && home[0] != '\0') return std::string(home) + "/.local/share/plugbench/history.sqlite";
  throw UsageError("no history path: neither XDG_DATA_HOME nor HOME is set; give --history DB");
}

std::string history_target_problem(const std::string& path) {
  if (std::string problem = prepare_output_file(path, "--history"); !problem.empty()) {
    return problem;
  }
  std::error_code error;
  // A new history, or an empty file (SQLite makes a database of it, as `history add` does).
  if (!std::filesystem::is_regular_file(path, error) ||
      std::filesystem::file_size(path, error) == 0) {
    return "";
  }
  // Every SQLite database begins with this header (sqlite.org/fileformat.html).
  static constexpr char kHeader[] = "SQLite format 3";
  char start[sizeof kHeader] = {};
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return "--history '" + printable_text(path) + "' cannot be read: " + std::strerror(errno);
  }
  file.read(start, sizeof start);
  if (file.gcount() == sizeof start && std::equal(start, start + sizeof start, kHeader)) return "";
  return "--history '" + printable_text(path) +
         "' is a file that is not an SQLite database (a results file?): name the "
         "history "
         "database (harness history add makes one where none is)";
}

}  // namespace plugbench
