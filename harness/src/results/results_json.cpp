// results_json.cpp: results as JSON. Numbers that do not exist are null, never NaN.
#include "results/results_json.hpp"

#include "base/host_facts.hpp"
#include "base/json_integer.hpp"
#include "base/safe_text.hpp"
#include "load/kernel_flags.hpp"
#include "load/plugin_text.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace plugbench {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

nlohmann::json finite(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nullptr;
}

nlohmann::json flag_names(std::uint32_t flags) {
  nlohmann::json names = nlohmann::json::array();
  for (const KernelFlagName& flag : kKernelFlagNames) {
    if (flags & flag.bit) names.push_back(flag.json);
  }
  return names;
}

std::uint32_t flags_from_names(const nlohmann::json& names) {
  std::uint32_t flags = 0;
  for (const nlohmann::json& name : names) {
    for (const KernelFlagName& flag : kKernelFlagNames) {
      if (name == flag.json) flags |= flag.bit;
    }
  }
  return flags;
}

// A figure the writer wrote as a number, or null where it had none (finite()). Anything else
// ("fast") is no figure: refused (std::invalid_argument naming the field), never shown or
// exported as a missing time.
double number_or_nan(const nlohmann::json& value, const char* name = "a figure") {
  if (value.is_null()) return std::nan("");
  if (!value.is_number()) {
    throw std::invalid_argument(std::string(name) + " is " + value.type_name() +
                                ", not a number or null");
  }
  return value.get<double>();
}

double figure_at(const nlohmann::json& j, const char* key) {
  return number_or_nan(j.at(key), key);
}

std::optional<double> optional_from(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

// A list of integers; empty for anything else.
std::vector<int> int_list(const nlohmann::json& j) {
  std::vector<int> list;
  if (!j.is_array()) return list;
  for (const nlohmann::json& item : j) {
    if (!item.is_number_integer()) return {};
    const auto value = item.get<std::int64_t>();
    if (value < 0 || value > std::numeric_limits<int>::max()) return {};
    list.push_back(static_cast<int>(value));
  }
  return list;
}

std::optional<PairedFigure> paired_figure_from(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  std::optional<double> median = optional_from(j, "median"), low = optional_from(j, "low"),
                        high = optional_from(j, "high"),
                        confidence = optional_from(j, "confidence"),
                        pairs = optional_from(j, "pairs");
  if (!median || !low || !high || !confidence || !pairs) return std::nullopt;
  // Like a missing field, a count that is no count (2.5, 1e10) leaves the figure out.
  if (std::trunc(*pairs) != *pairs || *pairs < 0 || *pairs > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return PairedFigure{*median, *low, *high, *confidence, static_cast<int>(*pairs)};
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return optional_number(value);
}

nlohmann::json to_json(const SamplingRecord& record) {
  return {{"start", start_text(record)},
          {"sm_clock",
           {{"samples", record.clock_samples},
            {"mean_mhz", optional_json(record.clock_mean_mhz)},
            {"min_mhz", optional_json(record.clock_min_mhz)},
            {"window_min_ms", optional_json(record.clock_window_min_ms)},
            {"default_mhz", finite(record.default_clock_mhz)}}},
          {"throttle",
           {{"threshold", finite(record.throttle_threshold)},
            {"dropped", record.dropped_throttled},
            {"kept_below_threshold", record.kept_throttled}}}};
}

SamplingRecord sampling_from_json(const nlohmann::json& j) {
  SamplingRecord record;
  const std::string start = j.at("start").get<std::string>();
  record.start = value_named(kSampleStartTexts, start);
  if (!record.start) record.unnamed_start = start;
  const nlohmann::json& clock = j.at("sm_clock");
  record.clock_samples = json_integer<int>(clock.at("samples"));
  record.clock_mean_mhz = optional_from(clock, "mean_mhz");
  record.clock_min_mhz = optional_from(clock, "min_mhz");
  record.clock_window_min_ms = optional_from(clock, "window_min_ms");
  record.default_clock_mhz = number_or_nan(clock.at("default_mhz"));
  const nlohmann::json& throttle = j.at("throttle");
  record.throttle_threshold = number_or_nan(throttle.at("threshold"));
  record.dropped_throttled = json_integer<int>(throttle.at("dropped"));
  record.kept_throttled = json_integer<int>(throttle.at("kept_below_threshold"));
  return record;
}

}  // namespace

nlohmann::json to_json(const std::optional<PairedFigure>& figure) {
  if (!figure) return nullptr;
  return {{"median", finite(figure->median)},
          {"low", finite(figure->low)},
          {"high", finite(figure->high)},
          {"confidence", finite(figure->confidence)},
          {"pairs", figure->pairs}};
}

nlohmann::json to_json(const TimeStats& stats) {
  nlohmann::json samples = nlohmann::json::array();
  for (double sample : stats.samples_ms) samples.push_back(finite(sample));
  return {{"median_ms", finite(stats.median_ms)},
          {"mean_ms", finite(stats.mean_ms)},
          {"min_ms", finite(stats.min_ms)},
          {"max_ms", finite(stats.max_ms)},
          {"stddev_ms", finite(stats.stddev_ms)},
          {"cv", finite(stats.cv)},
          {"repetitions", stats.repetitions},
          {"iterations", stats.iterations},
          {"samples_ms", samples}};
}

nlohmann::json to_json(const CellResult& cell) {
  nlohmann::json j;
  j["workload"] = cell.workload;
  j["plugin"] = cell.plugin;
  j["variant"] = cell.variant;
  j["n"] = cell.shape.n;
  j["shape"] = {{"width", cell.shape.width}, {"height", cell.shape.height}};
  j["size"] = cell.size_text;
  j["distribution"] = cell.distribution;
  j["status"] = to_string(cell.status);
  j["message"] = cell.message;
  j["flags"] = flag_names(cell.flags);
  j["memory_space"] = to_string(cell.memory_space);
  j["workspace_bytes"] = cell.workspace_bytes;
  nlohmann::json time = nlohmann::json::object();
  time["kernel"] = cell.kernel ? to_json(*cell.kernel) : nlohmann::json(nullptr);
  time["end_to_end"] = cell.end_to_end ? to_json(*cell.end_to_end) : nlohmann::json(nullptr);
  j["time"] = time;
  j["transfers"] = nlohmann::json::array();
  for (const TransferResult& transfer : cell.transfers) {
    j["transfers"].push_back({{"host_memory", transfer.host_memory},
                              {"copy_in", to_json(transfer.copy_in)},
                              {"copy_out", to_json(transfer.copy_out)},
                              {"end_to_end", to_json(transfer.end_to_end)}});
  }
  if (cell.traffic) {
    j["traffic"] = {
        {"bytes_read", cell.traffic->bytes_read},
        {"bytes_written", cell.traffic->bytes_written},
        {"work", cell.traffic->work},
        {"work_unit", cell.traffic->work_unit.empty() ? "elements" : cell.traffic->work_unit},
        {"pattern", to_string(cell.traffic->pattern)}};
  } else {
    j["traffic"] = nullptr;
  }
  j["gbps"] = optional_number(cell.gbps);
  j["percent_of_peak"] = optional_number(cell.percent_of_peak);
  j["peak_pattern"] =
      cell.peak_pattern.empty() ? nlohmann::json(nullptr) : nlohmann::json(cell.peak_pattern);
  j["work_rate"] = optional_number(cell.work_rate);
  j["speedup"] = optional_number(cell.speedup);
  j["speedup_end_to_end"] = optional_number(cell.speedup_end_to_end);
  j["baseline"] = cell.baseline.empty() ? nlohmann::json(nullptr) : nlohmann::json(cell.baseline);
  if (cell.rank >= 0) j["rank"] = cell.rank;
  j["suspect"] = cell.suspect.empty() ? nlohmann::json(nullptr) : nlohmann::json(cell.suspect);
  if (cell.verification) {
    const Verification& v = *cell.verification;
    j["verification"] = {{"passed", v.passed},
                         {"compared", v.compared},
                         {"error_measure", v.error_measure},
                         {"error", finite(v.error)},
                         {"tolerance", finite(v.tolerance)},
                         {"detail", v.detail}};
  } else {
    j["verification"] = nullptr;
  }
  j["sampling"] = cell.sampling ? to_json(*cell.sampling) : nlohmann::json(nullptr);
  j["telemetry"] = cell.telemetry ? to_json(*cell.telemetry) : nlohmann::json(nullptr);
  j["team"] = cell.team ? nlohmann::json{{"threads", cell.team->threads},
                                         {"binding", cell.team->binding},
                                         {"places", cell.team->places}}
                        : nlohmann::json(nullptr);
  if (cell.machine_load) {
    const MachineLoad& load = *cell.machine_load;
    j["machine_load"] = {{"others_cpu_share", load.others_share},
                         {"steal_share", load.steal_share},
                         {"load_average", load.load_average},
                         {"judged", load.judged},
                         {"busy", load.busy}};
  }
  if (cell.rounds) {
    const SampleRounds& rounds = *cell.rounds;
    nlohmann::json reference_ms = nlohmann::json::array();
    for (double ms : rounds.reference_ms) reference_ms.push_back(finite(ms));
    j["rounds"] = {{"round", rounds.round}, {"position", rounds.position}};
    if (rounds.apart) j["rounds"]["apart"] = true;
    if (!rounds.reference_pattern.empty()) {
      j["rounds"]["reference"] = {{"pattern", rounds.reference_pattern},
                                  {"loop", rounds.reference_loop},
                                  {"bytes_moved", rounds.reference_bytes_moved},
                                  {"samples_ms", reference_ms}};
    }
  }
  if (cell.paired_speedup || cell.paired_percent_of_peak) {
    j["paired"] = {{"speedup", to_json(cell.paired_speedup)},
                   {"percent_of_peak", to_json(cell.paired_percent_of_peak)}};
  }
  // Absent when the plugin wrote nothing: the common case stays as it was.
  if (cell.output) {
    j["output"] = {{"bytes", cell.output->bytes}, {"first_lines", cell.output->first_lines}};
  }
  // Only distributed workloads' cells have it.
  if (cell.distributed) {
    const DistributedRecord& d = *cell.distributed;
    j["distributed"] = {{"ranks", d.ranks},
                        {"scaling", d.scaling ? to_string(*d.scaling) : ""},
                        {"n_total", d.n_total},
                        {"n_local", d.n_local},
                        {"staging", d.staging},
                        {"staging_reason", d.staging_reason},
                        {"local", to_json(d.local)},
                        {"exchange", to_json(d.exchange)},
                        {"bytes_sent", d.bytes_sent},
                        {"exchange_gbps", optional_number(d.exchange_gbps)},
                        {"keys_per_rank", d.keys_per_rank},
                        {"one_rank_ms", optional_number(d.one_rank_ms)},
                        {"efficiency", optional_number(d.efficiency)}};
  }
  return j;
}

nlohmann::json to_json(const PluginRecord& plugin) {
  nlohmann::json j;
  // A broken plugin's name is its file name, and paths are the file system's bytes: any of them
  // may be other than UTF-8 (the plugin-supplied text was made valid as it was read).
  j["name"] = valid_utf8(plugin.name);
  j["path"] = valid_utf8(plugin.path);
  j["found_in"] = valid_utf8(plugin.found_in);
  if (!plugin.library_checksum.empty()) j["library_checksum"] = plugin.library_checksum;
  j["status"] = to_string(plugin.state);
  j["reason"] = valid_utf8(plugin.reason);
  j["version"] = plugin.version;
  j["description"] = plugin.description;
  j["abi"] =
      plugin.table ? std::to_string(plugin.abi_major) + "." + std::to_string(plugin.abi_minor) : "";
  j["memory_space"] = to_string(plugin.memory_space);
  j["build_info"] = nlohmann::json::object();
  for (const auto& [key, value] : plugin.build_info) j["build_info"][key] = value;
  j["kernels"] = nlohmann::json::array();
  for (const KernelRecord& kernel : plugin.kernels) {
    j["kernels"].push_back({{"workload", kernel.workload},
                            {"variant", kernel.variant},
                            {"description", kernel.description},
                            {"flags", flag_names(kernel.flags)},
                            {"max_n", kernel.max_n}});
  }
  return j;
}

nlohmann::json to_json(const PeakBandwidth& peak) {
  nlohmann::json j = {{"memory_space", to_string(peak.memory_space)},
                      {"pattern", peak.pattern},
                      {"measured_by", peak.measured_by},
                      {"device", peak.device},
                      {"bytes", peak.bytes},
                      {"gbps", finite(peak.gbps)},
                      {"median_ms", finite(peak.median_ms)},
                      {"best_ms", finite(peak.best_ms)}};
  for (const PeakMethod& method : peak.methods) {
    j["methods"].push_back({{"name", method.name},
                            {"gbps", finite(method.gbps)},
                            {"best_ms", finite(method.best_ms)},
                            {"median_ms", finite(method.median_ms)}});
  }
  return j;
}

nlohmann::json to_json(const pb_device_info& device) {
  return {{"index", device.index},
          {"name", bounded_text(device.name, sizeof device.name)},
          {"architecture", bounded_text(device.architecture, sizeof device.architecture)},
          {"memory_bytes", device.memory_bytes},
          {"multiprocessors", device.multiprocessors},
          {"clock_khz", device.clock_khz},
          {"memory_clock_khz", device.memory_clock_khz},
          {"memory_bus_bits", device.memory_bus_bits},
          {"l2_bytes", device.l2_bytes},
          {"driver_version", bounded_text(device.driver_version, sizeof device.driver_version)},
          {"runtime_version", bounded_text(device.runtime_version, sizeof device.runtime_version)},
          {"uuid", bounded_text(device.uuid, sizeof device.uuid)},
          {"pci_bus_id", bounded_text(device.pci_bus_id, sizeof device.pci_bus_id)}};
}

TimeStats time_stats_from_json(const nlohmann::json& j) {
  TimeStats stats;
  stats.median_ms = figure_at(j, "median_ms");
  stats.mean_ms = figure_at(j, "mean_ms");
  stats.min_ms = figure_at(j, "min_ms");
  stats.max_ms = figure_at(j, "max_ms");
  stats.stddev_ms = figure_at(j, "stddev_ms");
  stats.cv = figure_at(j, "cv");
  stats.repetitions = json_integer<int>(j.at("repetitions"));
  stats.iterations = json_integer<std::int64_t>(j.at("iterations"));
  for (const nlohmann::json& sample : j.at("samples_ms")) {
    stats.samples_ms.push_back(number_or_nan(sample));
  }
  return stats;
}

CellResult cell_from_json(const nlohmann::json& j) {
  CellResult cell;
  cell.workload = j.at("workload").get<std::string>();
  cell.plugin = j.at("plugin").get<std::string>();
  cell.variant = j.at("variant").get<std::string>();
  cell.shape.n = json_integer<std::uint64_t>(j.at("n"));
  cell.shape.width = json_integer<std::uint64_t>(j.at("shape").at("width"));
  cell.shape.height = json_integer<std::uint64_t>(j.at("shape").at("height"));
  cell.size_text = j.at("size").get<std::string>();
  cell.distribution = j.at("distribution").get<std::string>();
  cell.status = status_read(j.at("status").get<std::string>());
  cell.message = j.at("message").get<std::string>();
  cell.flags = flags_from_names(j.at("flags"));
  cell.memory_space = value_named(kMemorySpaceNames, j.at("memory_space").get<std::string>());
  cell.workspace_bytes = json_integer<std::uint64_t>(j.at("workspace_bytes"));
  const nlohmann::json time = j.at("time");
  if (!time.at("kernel").is_null()) cell.kernel = time_stats_from_json(time["kernel"]);
  if (!time.at("end_to_end").is_null()) cell.end_to_end = time_stats_from_json(time["end_to_end"]);
  for (const nlohmann::json& transfer : j.at("transfers")) {
    cell.transfers.push_back({transfer.at("host_memory").get<std::string>(),
                              time_stats_from_json(transfer.at("copy_in")),
                              time_stats_from_json(transfer.at("copy_out")),
                              time_stats_from_json(transfer.at("end_to_end"))});
  }
  if (const nlohmann::json traffic = j.at("traffic"); !traffic.is_null()) {
    Traffic t;
    t.bytes_read = traffic.at("bytes_read").get<double>();
    t.bytes_written = traffic.at("bytes_written").get<double>();
    t.work = traffic.at("work").get<double>();
    std::string unit = traffic.at("work_unit").get<std::string>();
    t.work_unit = unit == "elements" ? "" : unit;
    t.pattern =
        traffic.value("pattern", "copy") == "read" ? MemoryPattern::read : MemoryPattern::copy;
    cell.traffic = t;
  }
  cell.gbps = optional_from(j, "gbps");
  cell.percent_of_peak = optional_from(j, "percent_of_peak");
  if (j.contains("peak_pattern") && j["peak_pattern"].is_string()) {
    cell.peak_pattern = j["peak_pattern"].get<std::string>();
  }
  cell.work_rate = optional_from(j, "work_rate");
  cell.speedup = optional_from(j, "speedup");
  cell.speedup_end_to_end = optional_from(j, "speedup_end_to_end");
  if (auto suspect = j.find("suspect"); suspect != j.end() && suspect->is_string()) {
    cell.suspect = suspect->get<std::string>();
  }
  if (j.contains("baseline") && j["baseline"].is_string()) cell.baseline = j["baseline"];
  if (auto load = j.find("machine_load"); load != j.end() && load->is_object()) {
    MachineLoad read;
    auto number = [&](const char* key) {
      auto field = load->find(key);
      return field != load->end() && field->is_number() ? field->get<double>() : 0.0;
    };
    auto flag = [&](const char* key) {
      auto field = load->find(key);
      return field != load->end() && field->is_boolean() && field->get<bool>();
    };
    read.others_share = number("others_cpu_share");
    read.steal_share = number("steal_share");
    read.load_average = number("load_average");
    read.judged = flag("judged");
    read.busy = flag("busy");
    cell.machine_load = read;
  }
  // Optional records, read where well formed and left out otherwise (a file written before them,
  // or edited by hand): what reads them checks their lengths against the samples.
  if (auto rounds = j.find("rounds"); rounds != j.end() && rounds->is_object()) {
    SampleRounds read;
    read.round = int_list(rounds->value("round", nlohmann::json()));
    read.position = int_list(rounds->value("position", nlohmann::json()));
    if (auto apart = rounds->find("apart"); apart != rounds->end() && apart->is_boolean()) {
      read.apart = apart->get<bool>();
    }
    if (auto reference = rounds->find("reference");
        reference != rounds->end() && reference->is_object()) {
      read.reference_pattern = reference->value("pattern", "");
      read.reference_loop = reference->value("loop", "");
      read.reference_bytes_moved = optional_from(*reference, "bytes_moved").value_or(0);
      if (auto samples = reference->find("samples_ms");
          samples != reference->end() && samples->is_array()) {
        for (const nlohmann::json& ms : *samples) read.reference_ms.push_back(number_or_nan(ms));
      }
    }
    cell.rounds = read;
  }
  if (auto paired = j.find("paired"); paired != j.end() && paired->is_object()) {
    cell.paired_speedup = paired_figure_from(paired->value("speedup", nlohmann::json()));
    cell.paired_percent_of_peak =
        paired_figure_from(paired->value("percent_of_peak", nlohmann::json()));
  }
  if (auto output = j.find("output"); output != j.end() && output->is_object()) {
    PluginOutput kept;
    if (auto bytes = output->find("bytes"); bytes != output->end() && bytes->is_number_unsigned())
      kept.bytes = bytes->get<std::uint64_t>();
    if (auto lines = output->find("first_lines"); lines != output->end() && lines->is_array()) {
      for (const nlohmann::json& line : *lines) {
        if (line.is_string()) kept.first_lines.push_back(line.get<std::string>());
      }
    }
    cell.output = kept;
  }
  if (j.contains("rank") && j["rank"].is_number_integer()) cell.rank = j["rank"];
  if (auto distributed = j.find("distributed");
      distributed != j.end() && distributed->is_object()) {
    const nlohmann::json& d = *distributed;
    DistributedRecord record;
    record.ranks = json_integer<int>(d.at("ranks"));
    record.scaling = value_named(kScalingNames, d.at("scaling").get<std::string>());
    record.n_total = json_integer<std::uint64_t>(d.at("n_total"));
    record.n_local = json_integer<std::uint64_t>(d.at("n_local"));
    record.staging = d.at("staging").get<std::string>();
    record.staging_reason = d.at("staging_reason").get<std::string>();
    record.local = time_stats_from_json(d.at("local"));
    record.exchange = time_stats_from_json(d.at("exchange"));
    record.bytes_sent = json_integer<std::uint64_t>(d.at("bytes_sent"));
    record.exchange_gbps = optional_from(d, "exchange_gbps");
    for (const nlohmann::json& keys : d.at("keys_per_rank")) {
      record.keys_per_rank.push_back(json_integer<std::uint64_t>(keys));
    }
    record.one_rank_ms = optional_from(d, "one_rank_ms");
    record.efficiency = optional_from(d, "efficiency");
    cell.distributed = record;
  }
  if (const nlohmann::json v = j.at("verification"); !v.is_null()) {
    cell.verification = Verification{v.at("passed").get<bool>(),
                                     v.at("compared").get<std::string>(),
                                     v.at("error_measure").get<std::string>(),
                                     number_or_nan(v.at("error")),
                                     number_or_nan(v.at("tolerance")),
                                     v.at("detail").get<std::string>()};
  }
  if (j.contains("sampling") && !j["sampling"].is_null()) {
    cell.sampling = sampling_from_json(j["sampling"]);
  }
  if (j.contains("telemetry")) cell.telemetry = gpu_telemetry_from_json(j["telemetry"]);
  if (j.contains("team") && j["team"].is_object()) {
    const nlohmann::json& team = j["team"];
    cell.team = ExecutionContext{json_integer<std::uint32_t>(team.at("threads")),
                                 team.at("binding").get<std::string>(),
                                 team.at("places").get<std::string>()};
  }
  return cell;
}

PeakBandwidth peak_from_json(const nlohmann::json& j) {
  PeakBandwidth peak;
  peak.memory_space = value_named(kMemorySpaceNames, j.at("memory_space").get<std::string>());
  peak.pattern = j.value("pattern", "copy");
  peak.measured_by = j.at("measured_by").get<std::string>();
  peak.device = j.at("device").get<std::string>();
  peak.bytes = json_integer<std::uint64_t>(j.at("bytes"));
  // A peak of an older or edited file keeps what it can: a figure that is no number is no figure
  // (NaN), the peak's other fields stay.
  const auto lenient = [](const nlohmann::json& value) {
    return value.is_number() ? value.get<double>() : std::nan("");
  };
  peak.gbps = lenient(j.at("gbps"));
  peak.median_ms = lenient(j.at("median_ms"));
  peak.best_ms = j.contains("best_ms") ? lenient(j["best_ms"]) : peak.median_ms;
  if (j.contains("methods")) {
    for (const nlohmann::json& method : j.at("methods")) {
      peak.methods.push_back({method.at("name").get<std::string>(), lenient(method.at("gbps")),
                              lenient(method.at("best_ms")), lenient(method.at("median_ms"))});
    }
  }
  return peak;
}

void write_json_atomically(const nlohmann::json& document, const std::string& path) {
  create_parent_folder(path);
  if (std::string problem = results_path_problem(path); !problem.empty()) {
    throw std::runtime_error(problem);
  }
  // Text is made valid UTF-8 where it enters the results (base/safe_text.hpp); should a byte
  // slip past, it becomes U+FFFD here rather than costing the whole file.
  write_text_atomically(
      document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", path);
}

std::string default_results_path() {
  std::string stamp = utc_timestamp();
  for (char& c : stamp) {
    if (c == ':') c = '-';
  }
  return "results/" + host_name() + "-" + stamp + ".json";
}

}  // namespace plugbench
