// exports.hpp: a results file in the formats other tools read. Each export holds only figures
// the file holds: a cell without repetitions has no per-repetition entries, and a cell that did
// not end ok is left out (an error entry on request for gbench), never a time.
//   gbench  Google Benchmark's JSON (json_schema_version 1), read by its tools/compare.py
//   bmf     Bencher Metric Format: per cell latency, throughput and bandwidth, with bounds
//   gab     github-action-benchmark's custom formats: a list of times (smaller is better, the
//           default) or a list of rates (bigger is better)
#pragma once

#include "results/export_format.hpp"
#include "results/results_json.hpp"
#include "results/results_reader.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// The benchmark name of a cell: "workload/distribution/n/plugin/variant" (WIDTHxHEIGHT for n where
// the shape has two dimensions), "/rank:R" in a run of several ranks.
std::string export_name(const CellResult& cell);

// `error_entries`: a cell that did not end ok is an entry with error_occurred and no time; else
// (the default of export and of a run's --format) it is left out: Google Benchmark's compare.py
// reads a time from every entry that is not an aggregate, and stops at one without.
nlohmann::json gbench_document(const ResultsFile& file, bool error_entries);
// The same text as gbench_document(...).dump(2) and a newline, handed to `put` an entry at a time:
// with an entry per repetition the export can be many times the file, too much to hold at once.
void write_gbench(const ResultsFile& file, bool error_entries, const TextSink& put);
nlohmann::json bmf_document(const ResultsFile& file);
// {"smaller_is_better": [...], "bigger_is_better": [...]}: each list is what the action reads.
nlohmann::json gab_document(const ResultsFile& file);

// The key of the bandwidth measure in BMF: Bencher creates a measure of that name, so its unit
// shows (latency and throughput are Bencher's built-in measures, in ns and operations/s).
inline constexpr const char* kBmfBandwidth = "bandwidth (GB/s)";

// The export of `file` in `format`, as a run's --format writes it: gbench without error entries,
// gab the list of times (customSmallerIsBetter).
nlohmann::json export_document(const ResultsFile& file, ExportFormat format);

// The cells left out of an export (not ok), as "name: status: message" lines.
std::vector<std::string> cells_left_out(const ResultsFile& file);
// The exported cells whose rate is SUSPECT (above the measured peak), as "name: reason" lines.
std::vector<std::string> cells_suspect(const ResultsFile& file);

}  // namespace plugbench
