// results_reader.hpp: reads a results file back (for harness compare and the crossover), refusing
// with a message that names the file and the problem: unreadable, not JSON, cut short, not a
// results file, or a schema version this harness cannot read.
#pragma once

#include "measure/cell_result.hpp"
#include "results/run_context.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

class ResultsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether a reader keeps each cell's JSON beside its typed form. Kept, a parsed file takes about
// 25 times its size in memory; dropped (show, compare, export, report), about 5 times: a cell's
// JSON exists only while it is turned into a CellResult.
enum class CellJson { dropped, kept };

struct ResultsFile {
  std::string path;
  // At kSchemaVersion (an older file is migrated, where a step exists). "results" holds the cells'
  // JSON only where the file was read with CellJson::kept, and is an empty array otherwise.
  nlohmann::json document;
  RunContext context;             // the document's context, typed
  std::vector<CellResult> cells;  // every cell, typed, in the file's order
  bool cell_json_kept = false;
};

// The largest results file show and compare read unless told otherwise (--max-file-mib).
inline constexpr std::uint64_t kDefaultMaxResultsBytes = std::uint64_t{64} << 20;
// The largest --max-file-mib (1 TiB): the bound keeps the byte count from overflowing.
inline constexpr std::uint64_t kMaxFileMibLimit = std::uint64_t{1} << 20;
// Throws UsageError unless --max-file-mib is from 1 to kMaxFileMibLimit.
void check_max_file_mib(std::uint64_t max_file_mib);

// Throws ResultsFileError: "<path>: <problem>", for a file that is not a regular file, is larger
// than `max_bytes`, or cannot be read as a results file.
// A cell that cannot be read as a CellResult is refused too, naming it: a report with a hole would
// misreport the run.
ResultsFile read_results_file(const std::string& path,
                              std::uint64_t max_bytes = kDefaultMaxResultsBytes,
                              CellJson cell_json = CellJson::dropped);
// The same checks on text already in memory; `path` names it in messages.
ResultsFile parse_results_text(const std::string& text, const std::string& path,
                               CellJson cell_json = CellJson::dropped);

// The file's cells, in its order.
inline const std::vector<CellResult>& cells_of(const ResultsFile& file) {
  return file.cells;
}

// A value inside a document by JSON pointer ("/time/kernel/median_ms"): nullopt (or "") where it
// is absent, null or of another type.
std::optional<double> number_at(const nlohmann::json& value, const std::string& pointer);
std::string text_at(const nlohmann::json& value, const std::string& pointer);
// The array at `pointer`, or null where there is none.
const nlohmann::json* array_at(const nlohmann::json& value, const std::string& pointer);
// The numbers of an array (nulls skipped); empty where absent.
std::vector<double> numbers_at(const nlohmann::json& value, const std::string& pointer);

}  // namespace plugbench
