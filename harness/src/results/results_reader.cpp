// results_reader.cpp: loading, checking and migrating results files.
#include "results/results_reader.hpp"

#include "base/safe_text.hpp"
#include "base/usage_error.hpp"
#include "results/results_json.hpp"
#include "results/streamed_results.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <utility>

namespace plugbench {
namespace {

// A step that rewrites a file of version v as version v + 1, keyed by v: the document without its
// cells, and each cell. When a field changes meaning, kSchemaVersion goes up and a step from the
// old version is added here, so that old files stay comparable.
struct Migration {
  void (*document)(nlohmann::json& document);
  void (*cell)(nlohmann::json& cell);
};
const std::map<int, Migration>& migrations() {
  // 1 -> 2: a version 1 file is a run of one rank, which version 2 writes the same way.
  static const std::map<int, Migration> steps = {
      {1, {[](nlohmann::json&) {}, [](nlohmann::json&) {}}}};
  return steps;
}

[[noreturn]] void refuse(const std::string& path, const std::string& problem) {
  throw ResultsFileError(printable_text(path) + ": " + problem);
}

// A results file nests six levels or so; nlohmann copies and prints a value recursively, so a
// file nested a million deep would overflow the stack in the first copy.
constexpr std::size_t kMaxNesting = 64;
// What a message quotes of a value from the file: enough to recognise it, never megabytes.
constexpr std::size_t kMaxQuotedBytes = 80;

// Where `text` nests arrays and objects deeper than kMaxNesting: the byte, or npos. Brackets in
// strings do not count.
std::size_t too_deep_at(const std::string& text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string::npos;
}

// A value from the file as a message quotes it: its JSON cut short, control characters escaped.
std::string quoted(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMaxQuotedBytes) {
    text = valid_utf8_prefix(text, kMaxQuotedBytes) + "... (" + std::to_string(text.size()) +
           " bytes)";
  }
  return printable_text(text);
}

// The types the commands rely on outside the cells; a field that is absent is fine, one of
// another type is refused here, naming it, rather than failing later as an internal error.
enum class Kind { object, array, objects, string, number, boolean };
struct ExpectedField {
  const char* pointer;
  Kind kind;
};
constexpr ExpectedField kContextFields[] = {
    {"/complete", Kind::boolean},          {"/interrupted_by_signal", Kind::number},
    {"/planned_cells", Kind::number},      {"/context", Kind::object},
    {"/context/host", Kind::object},       {"/context/host/frequency_scaling", Kind::object},
    {"/context/build", Kind::object},      {"/context/settings", Kind::object},
    {"/context/time", Kind::string},       {"/context/command_line", Kind::string},
    {"/context/devices", Kind::objects},   {"/context/plugins", Kind::objects},
    {"/context/peaks", Kind::objects},     {"/context/mpi", Kind::object},
    {"/context/mpi/ranks", Kind::objects},
};

const char* kind_text(Kind kind) {
  switch (kind) {
    case Kind::object:
      return "an object";
    case Kind::array:
      return "an array";
    case Kind::objects:
      return "an array of objects";
    case Kind::string:
      return "a string";
    case Kind::number:
      return "a number";
    case Kind::boolean:
      return "true or false";
  }
  return "";
}

bool is_kind(const nlohmann::json& value, Kind kind) {
  switch (kind) {
    case Kind::object:
      return value.is_object();
    case Kind::array:
      return value.is_array();
    case Kind::objects:
      return value.is_array() && std::all_of(value.begin(), value.end(),
                                             [](const auto& item) { return item.is_object(); });
    case Kind::string:
      return value.is_string();
    case Kind::number:
      return value.is_number();
    case Kind::boolean:
      return value.is_boolean();
  }
  return false;
}

void check_context(const nlohmann::json& document, const std::string& path) {
  for (const ExpectedField& field : kContextFields) {
    const nlohmann::json::json_pointer where(field.pointer);
    // A parent of another type is reported for the parent, which comes first in the table.
    if (!document.contains(where)) continue;
    const nlohmann::json& value = document.at(where);
    if (!is_kind(value, field.kind)) {
      refuse(path, std::string(field.pointer + 1) + " is " + quoted(value) + ", not " +
                       kind_text(field.kind) + " (not a results file this harness wrote?)");
    }
  }
  if (document.contains("/context/mpi"_json_pointer) &&
      !document.contains("/context/mpi/ranks"_json_pointer)) {
    refuse(path, "context/mpi has no 'ranks' array (not a results file this harness wrote?)");
  }
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix, cut short (it quotes
// the token it stopped in, which may be a string of megabytes) with control characters escaped.
std::string parse_message(const char* what) {
  constexpr std::size_t kMaxMessageBytes = 300;
  std::string message = what;
  if (std::size_t end = message.find("] ");
      message.rfind("[json.exception", 0) == 0 && end != std::string::npos) {
    message.erase(0, end + 2);
  }
  if (message.size() > kMaxMessageBytes) {
    message = valid_utf8_prefix(message, kMaxMessageBytes) + "...";
  }
  return printable_text(message);
}

void migrate(nlohmann::json& document, const std::string& path) {
  const nlohmann::json& field = document["schema_version"];
  if (!field.is_number_integer()) {
    refuse(path, "schema_version is " + quoted(field) + ", not an integer");
  }
  // Past int64's range (18446744073709551615) is newer too, not -1.
  if (field.is_number_unsigned() && field.get<std::uint64_t>() > std::uint64_t{INT64_MAX}) {
    refuse(path, "schema_version " + quoted(field) +
                     " was written by a newer harness; this one reads version " +
                     std::to_string(kSchemaVersion) + " (update plugbench to compare it)");
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
    migration->second.document(document);
    document["schema_version"] = step + 1;
  }
}

// The version the cells are migrated from, where `version` is one this harness reads: the file is
// refused otherwise (by migrate, once parsed), and its cells are not read.
std::optional<std::int64_t> readable_version(const std::optional<nlohmann::json>& version) {
  if (!version || !version->is_number_integer()) return std::nullopt;
  if (version->is_number_unsigned() && version->get<std::uint64_t>() > std::uint64_t{INT64_MAX}) {
    return std::nullopt;
  }
  const auto value = version->get<std::int64_t>();
  if (value > kSchemaVersion) return std::nullopt;
  for (auto step = value; step < kSchemaVersion; ++step) {
    if (migrations().count(static_cast<int>(step)) == 0) return std::nullopt;
  }
  return value;
}

// What is wrong with the shape of the cell at `index`, or "".
std::string cell_shape_problem(const nlohmann::json& cell, std::size_t index) {
  const std::string where = "results[" + std::to_string(index) + "] ";
  if (!cell.is_object()) return where + "is not an object";
  for (const char* key : {"workload", "plugin", "variant", "distribution", "status"}) {
    if (!cell.contains(key) || !cell[key].is_string()) {
      return where + "has no '" + key + "' string";
    }
  }
  if (!cell.contains("n") || !cell["n"].is_number_unsigned()) {
    return where + "has no 'n' (a count)";
  }
  return "";
}

// Turns the cells into CellResults one at a time, as the parser hands them on; keeps the first
// problem of each kind for after the document's own checks.
class CellReader {
 public:
  CellReader(std::optional<std::int64_t> version, CellJson cell_json)
      : version_(version), cell_json_(cell_json) {}

  void read(nlohmann::json&& cell) {
    const std::size_t index = count_++;
    if (!shape_problem_.empty()) return;
    if (std::string problem = cell_shape_problem(cell, index); !problem.empty()) {
      shape_problem_ = problem;
      return;
    }
    if (!version_ || !conversion_problem_.empty()) return;
    for (auto step = *version_; step < kSchemaVersion; ++step) {
      migrations().at(static_cast<int>(step)).cell(cell);
    }
    try {
      cells_.push_back(cell_from_json(cell));
    } catch (const nlohmann::json::exception& e) {
      conversion_problem_ =
          "cell " + std::to_string(index) + " cannot be read: " + parse_message(e.what());
      return;
    } catch (const std::invalid_argument& e) {
      conversion_problem_ =
          "cell " + std::to_string(index) + " cannot be read: " + parse_message(e.what());
      return;
    }
    if (cell_json_ == CellJson::kept) cell_documents_.push_back(std::move(cell));
  }

  void restart() { *this = CellReader(version_, cell_json_); }

  // Throws ResultsFileError for the first problem found.
  void check(const std::string& path) const {
    if (!shape_problem_.empty()) refuse(path, shape_problem_);
    if (!conversion_problem_.empty()) {
      throw ResultsFileError(printable_text(path) + ": " + conversion_problem_);
    }
  }

  std::vector<CellResult> take_cells() { return std::move(cells_); }
  nlohmann::json take_cell_documents() { return std::move(cell_documents_); }

 private:
  std::optional<std::int64_t> version_;
  CellJson cell_json_;
  std::size_t count_ = 0;
  std::string shape_problem_;
  std::string conversion_problem_;
  std::vector<CellResult> cells_;
  nlohmann::json cell_documents_ = nlohmann::json::array();
};

}  // namespace

namespace {

// Each cell's baseline_library: its baseline plugin's library checksum as the run recorded it,
// from the plugin records that loaded (an ignored duplicate of a name ran nothing); none where two
// loaded records share the name.
void note_baseline_libraries(const RunContext& context, std::vector<CellResult>& cells) {
  std::map<std::string, std::string> checksums;  // plugin name -> checksum ("" if ambiguous)
  for (const PluginFacts& plugin : context.plugins) {
    if (plugin.status == "broken") continue;
    const auto found = plugin.details.find("library_checksum");
    const std::string checksum =
        found != plugin.details.end() && found->is_string() ? found->get<std::string>() : "";
    const auto [entry, added] = checksums.emplace(plugin.name, checksum);
    if (!added) entry->second.clear();
  }
  for (CellResult& cell : cells) {
    const auto found = checksums.find(cell.baseline.substr(0, cell.baseline.find('/')));
    if (!cell.baseline.empty() && found != checksums.end()) cell.baseline_library = found->second;
  }
}

}  // namespace

ResultsFile parse_results_text(const std::string& text, const std::string& path,
                               CellJson cell_json) {
  if (text.empty()) refuse(path, "the file is empty, not a results file");
  if (const std::size_t at = too_deep_at(text); at != std::string::npos) {
    refuse(path, "arrays and objects nest more than " + std::to_string(kMaxNesting) +
                     " deep at byte " + std::to_string(at) + ": not a results file");
  }
  // The version first (a file this harness writes has it after the cells: keys are sorted), so
  // that each cell is migrated and typed as soon as it is parsed.
  CellReader cell_reader(readable_version(top_level_scalar(text, "schema_version")), cell_json);
  nlohmann::json document;
  try {
    document = parse_streaming_results(
        text, [&](nlohmann::json&& cell) { cell_reader.read(std::move(cell)); },
        [&] { cell_reader.restart(); });
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
  check_context(document, path);
  if (!document["results"].is_array()) {
    refuse(path, "not a plugbench results file: 'results' is not an array");
  }
  cell_reader.check(path);
  // Read, never indexed: operator[] would add a "context": null to a file without one, and the
  // history knows a file again by the digest of this document.
  RunContext context = run_context_from_document(document);
  std::vector<CellResult> cells = cell_reader.take_cells();
  note_baseline_libraries(context, cells);
  ResultsFile file{path, std::move(document), std::move(context), std::move(cells),
                   cell_json == CellJson::kept};
  if (file.cell_json_kept) file.document["results"] = cell_reader.take_cell_documents();
  return file;
}

namespace {

// Whether a file of `bytes` can be read under this process's address-space limit (ulimit -v).
// Checked before the work: the cells are parsed one at a time, but one JSON value of the file (its
// context, a cell) may be most of it, and nlohmann::json takes up to about 30 times the text it
// parsed and frees a large value with a stack of its own: running out of memory there ends in
// std::terminate, not in a message.
bool room_to_read(std::uint64_t bytes) {
  constexpr std::uint64_t kBytesPerFileByte = 32;
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return true;
  std::uint64_t used = 0;  // this process's address space now: the first field of statm, in pages
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    unsigned long long pages = 0;
    if (std::fscanf(statm, "%llu", &pages) == 1)
      used = pages * std::uint64_t(sysconf(_SC_PAGESIZE));
    std::fclose(statm);
  }
  const std::uint64_t cap = limit.rlim_cur;
  return used < cap && bytes <= (cap - used) / kBytesPerFileByte;
}

}  // namespace

ResultsFile read_results_file(const std::string& path, std::uint64_t max_bytes,
                              CellJson cell_json) {
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
  if (!room_to_read(static_cast<std::uint64_t>(info.st_size))) {
    ::close(fd);
    throw std::bad_alloc();  // the commands say so: out of memory, with what to do
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
  return parse_results_text(text, path, cell_json);
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

void check_max_file_mib(std::uint64_t max_file_mib) {
  if (max_file_mib < 1 || max_file_mib > kMaxFileMibLimit) {
    throw UsageError("--max-file-mib must be from 1 to " + std::to_string(kMaxFileMibLimit));
  }
}

}  // namespace plugbench
