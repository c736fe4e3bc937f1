// exports.cpp: Google Benchmark JSON, Bencher Metric Format and github-action-benchmark lists.
#include "results/exports.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <utility>

namespace plugbench {
namespace {

// Google Benchmark's tools print times as integers of their unit: microseconds keep a GPU
// kernel's figure readable.
constexpr double kMicrosecondsPerMs = 1e3;

// The bytes a kernel call moves, where the workload counts them in bytes.
std::optional<double> bytes_moved(const CellResult& cell) {
  if (!cell.traffic || !cell.traffic->work_unit.empty()) return std::nullopt;
  return cell.traffic->bytes();
}

bool exported(const CellResult& cell) {
  return cell.status == CellStatus::ok && cell.kernel;
}

nlohmann::json gbench_context(const RunContext& run, const std::vector<CellResult>& cells) {
  // The typed context was read leniently: a field of another type in a crafted file is empty
  // here, not an exception that would end the export as an internal error.
  nlohmann::json out = {
      {"date", run.time},
      {"host_name", run.host.name},
      {"executable", "plugbench harness"},
      {"num_cpus", run.host.logical_cores < 1e9 ? static_cast<long>(run.host.logical_cores) : 0},
      {"caches", nlohmann::json::array()},
      {"library_version", run.build.harness_version},
      {"library_build_type", run.build.assertions == "on" ? "debug" : "release"},
      {"json_schema_version", 1},
      {"plugbench_git_commit", run.build.git_commit},
      {"plugbench_command_line", run.command_line},
      {"cpu", run.host.cpu}};
  // Only what the file knows: no clock figure is recorded for the host's CPUs.
  const nlohmann::json& frequency_scaling = run.host.frequency_scaling;
  if (frequency_scaling.is_object()) {
    if (const auto scaling = frequency_scaling.find("scaling");
        scaling != frequency_scaling.end() && scaling->is_boolean()) {
      out["cpu_scaling_enabled"] = *scaling;
    }
  }
  if (!run.devices.empty()) {
    const DeviceFacts& gpu = run.devices.front();
    out["gpu"] = gpu.name;
    out["gpu_driver"] = gpu.driver_version;
    out["cuda_runtime"] = gpu.runtime_version;
  }
  // CCCL's version only where a plugin built with it ran: a CUDA plugin that was built but found
  // no device, or that the run's selection left out, says nothing about this run.
  std::set<std::string> ran;
  for (const CellResult& cell : cells) ran.insert(cell.plugin);
  for (const PluginFacts& plugin : run.plugins) {
    if (plugin.status != "available" || plugin.name.empty() || ran.count(plugin.name) == 0) {
      continue;
    }
    const nlohmann::json::json_pointer cccl("/cccl");
    if (plugin.build_info.contains(cccl)) out["cccl"] = plugin.build_info.at(cccl);
  }
  return out;
}

// The cell's figures at its median time, as counters of the entry that stands for it.
void median_counters(const CellResult& cell, nlohmann::json& entry) {
  if (cell.gbps) entry["GB/s"] = *cell.gbps;
  if (cell.percent_of_peak) entry["percent_of_peak"] = *cell.percent_of_peak;
  if (cell.work_rate) entry["items_per_second"] = *cell.work_rate;
}

nlohmann::json gbench_entry(const std::string& name, std::size_t family, const CellResult& cell) {
  nlohmann::json entry = {{"name", name},
                          {"family_index", family},
                          {"per_family_instance_index", 0},
                          {"run_name", name},
                          {"threads", cell.team ? cell.team->threads : 1}};
  return entry;
}

}  // namespace

std::string export_name(const CellResult& cell) {
  // A shape of two dimensions by its sides: histogram 64x16, 16x64 and 1024 are three problems
  // with the same n, and one name would merge them (BMF keeps one, compare.py pairs by order).
  // A count laid out in rows with a short last one (histogram -s 2^20: rows of 7680) is named by
  // its count and row: its sides are those of a larger image (7680x137).
  const bool flat = cell.shape.height == 1 && cell.shape.width == cell.shape.n;
  const std::string size =
      flat ? std::to_string(cell.shape.n)
      : !cell.shape.rectangular()
          ? std::to_string(cell.shape.n) + "_rows_of_" + std::to_string(cell.shape.width)
          : std::to_string(cell.shape.width) + "x" + std::to_string(cell.shape.height);
  // No empty part: a cell of a plugin that did not load has no variant ("-", as in the tables).
  const auto part = [](const std::string& text) { return text.empty() ? std::string("-") : text; };
  return part(cell.workload) + "/" + part(cell.distribution) + "/" + size + "/" +
         part(cell.plugin) + "/" + part(cell.variant) +
         (cell.rank >= 0 ? "/rank:" + std::to_string(cell.rank) : "");
}

nlohmann::json export_document(const ResultsFile& file, ExportFormat format) {
  switch (format) {
    case ExportFormat::gbench:
      return gbench_document(file, false);
    case ExportFormat::bmf:
      return bmf_document(file);
    case ExportFormat::gab:
      break;
  }
  return gab_document(file)["smaller_is_better"];
}

std::vector<std::string> cells_suspect(const ResultsFile& file) {
  std::vector<std::string> suspect;
  for (const CellResult& cell : cells_of(file)) {
    if (exported(cell) && !cell.suspect.empty()) {
      suspect.push_back(export_name(cell) + ": " + cell.suspect);
    }
  }
  return suspect;
}

std::vector<std::string> cells_left_out(const ResultsFile& file) {
  std::vector<std::string> left;
  for (const CellResult& cell : cells_of(file)) {
    if (!exported(cell))
      left.push_back(export_name(cell) + ": " + to_string(cell.status) + ": " + cell.message);
  }
  return left;
}

namespace {

// Each entry of the gbench export's "benchmarks", in order, handed to `take`.
void for_each_gbench_entry(const ResultsFile& file, bool error_entries,
                           const std::function<void(nlohmann::json&&)>& take) {
  std::size_t family = 0;
  for (const CellResult& cell : cells_of(file)) {
    const std::string name = export_name(cell);
    if (!exported(cell)) {
      if (!error_entries) continue;
      // An error entry without times: nothing can mistake it for a measurement.
      nlohmann::json entry = gbench_entry(name, family++, cell);
      entry["run_type"] = "iteration";
      entry["error_occurred"] = true;
      entry["error_message"] =
          to_string(cell.status) + (cell.message.empty() ? "" : ": " + cell.message);
      take(std::move(entry));
      continue;
    }
    const TimeStats& kernel = *cell.kernel;
    const std::optional<double> bytes = bytes_moved(cell);
    // cpu_time is the end-to-end time (copies included) where the cell has one.
    const TimeStats& end_to_end = cell.end_to_end ? *cell.end_to_end : kernel;
    const std::size_t repetitions = kernel.samples_ms.size();
    for (std::size_t i = 0; i < repetitions; ++i) {
      nlohmann::json entry = gbench_entry(name, family, cell);
      entry["run_type"] = "iteration";
      entry["repetitions"] = repetitions;
      entry["repetition_index"] = i;
      entry["iterations"] = kernel.iterations;
      entry["real_time"] = kernel.samples_ms[i] * kMicrosecondsPerMs;
      entry["cpu_time"] =
          (i < end_to_end.samples_ms.size() ? end_to_end.samples_ms[i] : kernel.samples_ms[i]) *
          kMicrosecondsPerMs;
      entry["time_unit"] = "us";
      if (bytes && kernel.samples_ms[i] > 0) {
        entry["bytes_per_second"] = *bytes / (kernel.samples_ms[i] / 1e3);
      }
      if (repetitions == 1) median_counters(cell, entry);  // no median entry to carry them
      take(std::move(entry));
    }
    // Google Benchmark writes no aggregates for one repetition: a stddev and cv of 0 would read as
    // a perfectly steady time.
    if (repetitions < 2) {
      ++family;
      continue;
    }
    struct Aggregate {
      const char* name;
      double kernel_value, end_to_end_value;
      const char* unit;
    };
    const Aggregate aggregates[] = {{"mean", kernel.mean_ms, end_to_end.mean_ms, "time"},
                                    {"median", kernel.median_ms, end_to_end.median_ms, "time"},
                                    {"stddev", kernel.stddev_ms, end_to_end.stddev_ms, "time"},
                                    {"cv", kernel.cv, end_to_end.cv, "percentage"}};
    for (const Aggregate& aggregate : aggregates) {
      nlohmann::json entry = gbench_entry(name + "_" + aggregate.name, family, cell);
      entry["run_name"] = name;
      entry["run_type"] = "aggregate";
      entry["repetitions"] = kernel.repetitions;
      entry["aggregate_name"] = aggregate.name;
      entry["aggregate_unit"] = aggregate.unit;
      entry["iterations"] = kernel.repetitions;
      // The cv is a ratio, the others times.
      const double scale = std::string(aggregate.unit) == "time" ? kMicrosecondsPerMs : 1;
      entry["real_time"] = aggregate.kernel_value * scale;
      entry["cpu_time"] = aggregate.end_to_end_value * scale;
      entry["time_unit"] = "us";
      if (std::string(aggregate.name) == "median") median_counters(cell, entry);
      take(std::move(entry));
    }
    ++family;
  }
}

// `text` with `indent` spaces before each line but the first.
std::string indented_after_first(const std::string& text, const std::string& indent) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace

nlohmann::json gbench_document(const ResultsFile& file, bool error_entries) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for_each_gbench_entry(file, error_entries,
                        [&](nlohmann::json&& entry) { benchmarks.push_back(std::move(entry)); });
  return {{"context", gbench_context(file.context, file.cells)},
          {"benchmarks", std::move(benchmarks)}};
}

void write_gbench(const ResultsFile& file, bool error_entries, const TextSink& put) {
  // nlohmann's dump(2) of the whole document, key order included ("benchmarks" < "context").
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  put("{\n  \"benchmarks\": [");
  bool first = true;
  for_each_gbench_entry(file, error_entries, [&](nlohmann::json&& entry) {
    put(first ? "\n    " : ",\n    ");
    put(indented_after_first(entry.dump(2, ' ', false, kReplace), "    "));
    first = false;
  });
  put(first ? "],\n  \"context\": " : "\n  ],\n  \"context\": ");
  put(indented_after_first(gbench_context(file.context, file.cells).dump(2, ' ', false, kReplace),
                           "  "));
  put("\n}\n");
}

nlohmann::json bmf_document(const ResultsFile& file) {
  nlohmann::json document = nlohmann::json::object();
  for (const CellResult& cell : cells_of(file)) {
    if (!exported(cell)) continue;
    const TimeStats& kernel = *cell.kernel;
    nlohmann::json measures;
    // Bencher's built-in latency is in nanoseconds, its throughput in operations per second; BMF
    // has no unit field, so the measure Bencher makes for the bandwidth carries it in its name.
    measures["latency"] = {{"value", kernel.median_ms * 1e6},
                           {"lower_value", kernel.min_ms * 1e6},
                           {"upper_value", kernel.max_ms * 1e6}};
    if (cell.traffic && kernel.median_ms > 0 && kernel.min_ms > 0 && kernel.max_ms > 0) {
      const double work = cell.traffic->work;  // elements (or iterations) per call
      measures["throughput"] = {{"value", work / (kernel.median_ms / 1e3)},
                                {"lower_value", work / (kernel.max_ms / 1e3)},
                                {"upper_value", work / (kernel.min_ms / 1e3)}};
      if (const std::optional<double> bytes = bytes_moved(cell)) {
        measures[kBmfBandwidth] = {{"value", *bytes / kernel.median_ms / 1e6},
                                   {"lower_value", *bytes / kernel.max_ms / 1e6},
                                   {"upper_value", *bytes / kernel.min_ms / 1e6}};
      }
    }
    document[export_name(cell)] = measures;
  }
  return document;
}

nlohmann::json gab_document(const ResultsFile& file) {
  nlohmann::json smaller = nlohmann::json::array(), bigger = nlohmann::json::array();
  for (const CellResult& cell : cells_of(file)) {
    if (!exported(cell)) continue;
    const TimeStats& kernel = *cell.kernel;
    // The action shows `range` as text beside the value: the fastest to the slowest repetition.
    char range[64];
    std::snprintf(range, sizeof range, "%.4g .. %.4g", kernel.min_ms, kernel.max_ms);
    smaller.push_back({{"name", export_name(cell)},
                       {"unit", "ms"},
                       {"value", kernel.median_ms},
                       {"range", range},
                       {"extra", kernel.repetitions < 2
                                     // One repetition has no spread: no cv of 0 that reads steady.
                                     ? std::to_string(kernel.repetitions) + " repetition"
                                     : std::to_string(kernel.repetitions) + " repetitions, cv " +
                                           std::to_string(kernel.cv)}});
    if (cell.gbps && std::isfinite(*cell.gbps)) {
      bigger.push_back({{"name", export_name(cell)}, {"unit", "GB/s"}, {"value", *cell.gbps}});
    }
  }
  return {{"smaller_is_better", smaller}, {"bigger_is_better", bigger}};
}

}  // namespace plugbench
