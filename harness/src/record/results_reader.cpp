// results_reader.cpp: loading, checking and migrating results files.
#include "record/results_reader.hpp"

#include "record/results_json.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace plugbench {
namespace {

// A step that rewrites a document of version v as version v + 1, keyed by v. When a field changes
// meaning, kSchemaVersion goes up and a step from the old version is added here, so that old files
// stay comparable.
using Migration = void (*)(nlohmann::json& document);
const std::map<int, Migration>& migrations() {
  // 1 -> 2: a version 1 file is a run of one rank, which version 2 writes the same way.
  static const std::map<int, Migration> steps = {{1, [](nlohmann::json&) {}}};
  return steps;
}

[[noreturn]] void refuse(const std::string& path, const std::string& problem) {
  throw ResultsFileError(path + ": " + problem);
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string parse_message(const char* what) {
  std::string message = what;
  if (std::size_t end = message.find("] ");
      message.rfind("[json.exception", 0) == 0 && end != std::string::npos) {
    message.erase(0, end + 2);
  }
  return message;
}

void migrate(nlohmann::json& document, const std::string& path) {
  const nlohmann::json& field = document["schema_version"];
  if (!field.is_number_integer()) {
    refuse(path, "schema_version is " + field.dump() + ", not an integer");
  }
  const auto version = field.get<std::int64_t>();
  if (version > kSchemaVersion) {
    refuse(path, "schema_version " + std::to_string(version) +
                     " was written by a newer harness; this one reads version " +
                     std::to_string(kSchemaVersion) + " (update plugbench to compare it)");
  }
  for (auto step = version; step < kSchemaVersion; ++step) {
    auto migration = migrations().find(static_cast<int>(step));
    if (migration == migrations().end()) {
      refuse(path, "schema_version " + std::to_string(version) +
                       " is older than any this harness reads (it reads versions 1 to " +
                       std::to_string(kSchemaVersion) + ")");
    }
    migration->second(document);
    document["schema_version"] = step + 1;
  }
}

void check_cells(const nlohmann::json& cells, const std::string& path) {
  if (!cells.is_array()) refuse(path, "not a plugbench results file: 'results' is not an array");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const nlohmann::json& cell = cells[i];
    std::string where = "results[" + std::to_string(i) + "] ";
    if (!cell.is_object()) refuse(path, where + "is not an object");
    for (const char* key : {"workload", "plugin", "variant", "distribution", "status"}) {
      if (!cell.contains(key) || !cell[key].is_string()) {
        refuse(path, where + "has no '" + key + "' string");
      }
    }
    if (!cell.contains("n") || !cell["n"].is_number_unsigned()) {
      refuse(path, where + "has no 'n' (a count)");
    }
  }
}

}  // namespace

ResultsFile parse_results_text(const std::string& text, const std::string& path) {
  if (text.empty()) refuse(path, "the file is empty, not a results file");
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    if (e.byte > text.size()) {  // nlohmann counts the end of input as one byte past it
      refuse(path, "truncated JSON: the text ends at byte " + std::to_string(text.size()) +
                       " before the document is complete (" + parse_message(e.what()) + ")");
    }
    refuse(path,
           "malformed JSON at byte " + std::to_string(e.byte) + ": " + parse_message(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // Well-formed text nlohmann cannot hold, such as a number beyond a double's range (1e400).
    refuse(path, "unreadable JSON: " + parse_message(e.what()));
  }
  if (!document.is_object() || !document.contains("schema_version") ||
      !document.contains("results")) {
    refuse(path, "not a plugbench results file (it has no schema_version and results)");
  }
  migrate(document, path);
  check_cells(document["results"], path);
  return {path, std::move(document)};
}

ResultsFile read_results_file(const std::string& path, std::uint64_t max_bytes) {
  // Opened without blocking (a FIFO would wait for a writer) and checked before a byte is read: a
  // device such as /dev/zero never ends, and a huge file would take minutes and gigabytes.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse(path, std::string("cannot read: ") + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    refuse(path, std::string("cannot read: ") + std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    refuse(path, S_ISDIR(info.st_mode) ? "is a folder, not a results file"
                                       : "is not a regular file (a device, a FIFO or a socket), "
                                         "not a results file");
  }
  if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    ::close(fd);
    refuse(path, "is " + std::to_string(info.st_size) + " bytes, more than the " +
                     std::to_string(max_bytes >> 20) +
                     " MiB a results file may have here (raise the limit with --max-file-mib)");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char chunk[65536];
  while (text.size() <= max_bytes) {  // a file that grows while read stops at the limit too
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      refuse(path, std::string("cannot read: ") + std::strerror(error));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (text.size() > max_bytes) {
    refuse(path, "grew past the " + std::to_string(max_bytes >> 20) +
                     " MiB a results file may have here while it was read");
  }
  return parse_results_text(text, path);
}

std::optional<double> number_at(const nlohmann::json& value, const std::string& pointer) {
  nlohmann::json::json_pointer where(pointer);
  if (!value.contains(where)) return std::nullopt;
  const nlohmann::json& found = value.at(where);
  if (!found.is_number()) return std::nullopt;
  return found.get<double>();
}

std::string text_at(const nlohmann::json& value, const std::string& pointer) {
  nlohmann::json::json_pointer where(pointer);
  if (!value.contains(where) || !value.at(where).is_string()) return "";
  return value.at(where).get<std::string>();
}

const nlohmann::json* array_at(const nlohmann::json& value, const std::string& pointer) {
  nlohmann::json::json_pointer where(pointer);
  if (!value.contains(where) || !value.at(where).is_array()) return nullptr;
  return &value.at(where);
}

std::vector<double> numbers_at(const nlohmann::json& value, const std::string& pointer) {
  std::vector<double> numbers;
  if (const nlohmann::json* array = array_at(value, pointer)) {
    for (const nlohmann::json& item : *array) {
      if (item.is_number()) numbers.push_back(item.get<double>());
    }
  }
  return numbers;
}

std::vector<CellResult> cells_of(const ResultsFile& file) {
  std::vector<CellResult> cells;
  std::size_t index = 0;
  for (const nlohmann::json& entry : file.cells()) {
    try {
      cells.push_back(cell_from_json(entry));
    } catch (const nlohmann::json::exception& e) {
      throw ResultsFileError(file.path + ": cell " + std::to_string(index) +
                             " cannot be read: " + e.what());
    }
    ++index;
  }
  return cells;
}

}  // namespace plugbench
