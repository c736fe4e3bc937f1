// run_context.cpp: the typed context of a results file, to and from its JSON.
#include "results/run_context.hpp"

#include "results/results_json.hpp"
#include "results/results_reader.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <utility>

namespace plugbench {
namespace {

// A count: a non-negative whole number (JSON may hold it as a float).
std::optional<std::uint64_t> count_of(const nlohmann::json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!(value >= 0) || value > 9.007199254740992e15 || std::floor(value) != value) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(value);
}

// A whole number of either sign, or 0 (a setting's count, as the file has it).
std::int64_t whole_or_zero(const nlohmann::json& object, const char* key) {
  const std::optional<double> value = number_at(object, std::string("/") + key);
  if (!value || std::trunc(*value) != *value || std::fabs(*value) > 9.007199254740992e15) return 0;
  return static_cast<std::int64_t>(*value);
}

double number_or_zero(const nlohmann::json& object, const char* key) {
  return number_at(object, std::string("/") + key).value_or(0);
}

// A number as the harness writes it: a whole one (a signal, a count) as an integer.
nlohmann::json number_json(double value) {
  if (std::trunc(value) == value && std::fabs(value) <= 9.007199254740992e15) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

// The keys of `object` other than `typed`: what a part carries as JSON beside its typed fields.
nlohmann::json details_of(const nlohmann::json& object, std::initializer_list<const char*> typed) {
  nlohmann::json details = nlohmann::json::object();
  for (const auto& [key, value] : object.items()) {
    if (std::find(typed.begin(), typed.end(), key) == typed.end()) details[key] = value;
  }
  return details;
}

const nlohmann::json& object_of(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  const auto found = object.find(key);
  return found != object.end() && found->is_object() ? *found : empty;
}

const nlohmann::json& array_of(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  const auto found = object.find(key);
  return found != object.end() && found->is_array() ? *found : empty;
}

HostFacts host_from_json(const nlohmann::json& j) {
  HostFacts host;
  host.name = text_at(j, "/name");
  host.cpu = text_at(j, "/cpu");
  host.logical_cores = count_of(j, "logical_cores").value_or(0);
  host.openmp_threads = count_of(j, "openmp_threads").value_or(0);
  host.memory_bytes = count_of(j, "memory_bytes").value_or(0);
  host.os = text_at(j, "/os");
  host.kernel = text_at(j, "/kernel");
  host.architecture = text_at(j, "/architecture");
  for (const auto& [variable, value] : object_of(j, "environment").items()) {
    if (value.is_string()) host.environment[variable] = value.get<std::string>();
  }
  if (const auto found = j.find("frequency_scaling"); found != j.end()) {
    host.frequency_scaling = *found;
  }
  return host;
}

BuildFacts build_from_json(const nlohmann::json& j) {
  return {text_at(j, "/harness_version"), text_at(j, "/git_commit"),
          text_at(j, "/git_commit_at_build"), text_at(j, "/compiler"), text_at(j, "/assertions")};
}

// A row's value as a file has it, by the row's form (a missing or mistyped one is "" or 0).
nlohmann::json setting_as_read(const nlohmann::json& j, const SettingField& field) {
  switch (field.form) {
    case SettingForm::number:
      return number_or_zero(j, field.key);
    case SettingForm::whole:
      return whole_or_zero(j, field.key);
    case SettingForm::count_or_text:
      if (const auto count = count_of(j, field.key)) return *count;
      break;
    case SettingForm::name:
      break;
  }
  return text_at(j, std::string("/") + field.key);
}

SettingsFacts settings_from_json(const nlohmann::json& j) {
  SettingsFacts settings;
  for (const SettingField& field : kRunSettingFields) {
    nlohmann::json as_read = setting_as_read(j, field);
    if (!field.read(as_read, settings.measure)) settings.unread[field.key] = std::move(as_read);
  }
  settings.order = text_at(j, "/order");
  settings.order_seed = count_of(j, "order_seed");
  settings.baseline = text_at(j, "/baseline");
  settings.device = whole_or_zero(j, "device");
  settings.isolation = text_at(j, "/isolation");
  settings.timeout_s = number_or_zero(j, "timeout_s");
  settings.max_restarts = whole_or_zero(j, "max_restarts");
  settings.mpi_sync = text_at(j, "/mpi_sync");
  settings.outlier_threshold = number_at(j, "/outlier_threshold");
  settings.test_scale = text_at(j, "/test_scale");
  return settings;
}

nlohmann::json to_json(const SettingsFacts& settings) {
  nlohmann::json j = {
      {"order", settings.order},
      {"order_seed", settings.order_seed ? nlohmann::json(*settings.order_seed) : nlohmann::json()},
      {"baseline", settings.baseline},
      {"device", settings.device},
      {"isolation", settings.isolation},
      {"timeout_s", settings.timeout_s},
      {"max_restarts", settings.max_restarts},
      {"mpi_sync", settings.mpi_sync}};
  if (settings.outlier_threshold) j["outlier_threshold"] = *settings.outlier_threshold;
  if (!settings.test_scale.empty()) j["test_scale"] = settings.test_scale;
  j.update(to_json(settings.measure));
  for (const auto& [key, as_read] : settings.unread) j[key] = as_read;
  return j;
}

// A peak as the run wrote it; a peak of an older or edited file keeps what it can of it.
PeakBandwidth peak_read(const nlohmann::json& peak, double gbps) {
  PeakBandwidth read;
  try {
    read = peak_from_json(peak);
  } catch (const nlohmann::json::exception&) {
    read = PeakBandwidth{};
  }
  read.memory_space = value_named(kMemorySpaceNames, text_at(peak, "/memory_space"));
  read.pattern = text_at(peak, "/pattern");  // "": a file from before peaks had patterns
  // How it was calibrated (threads, quick), which the history reads from the JSON alike.
  read.measured_by = text_at(peak, "/measured_by");
  read.gbps = gbps;
  return read;
}

nlohmann::json to_json(const PluginFacts& plugin) {
  nlohmann::json j = plugin.details;
  j["name"] = plugin.name;
  j["status"] = plugin.status;
  j["memory_space"] = to_string(plugin.memory_space);
  if (!plugin.build_info.is_null()) j["build_info"] = plugin.build_info;
  if (plugin.peak_gbps) j["peak_gbps"] = *plugin.peak_gbps;
  if (plugin.peak_read_gbps) j["peak_read_gbps"] = *plugin.peak_read_gbps;
  if (plugin.cpus || plugin.openmp_threads) {
    nlohmann::json& process = j["process"] = nlohmann::json::object();
    if (plugin.cpus) process["cpus"] = *plugin.cpus;
    if (plugin.openmp_threads) process["openmp_threads"] = *plugin.openmp_threads;
  }
  return j;
}

QuietFacts quiet_from_json(const nlohmann::json& j) {
  QuietFacts quiet;
  quiet.waits = count_of(j, "waits").value_or(0);
  quiet.waited_s = number_or_zero(j, "waited_s");
  quiet.over_limit = count_of(j, "over_limit").value_or(0);
  quiet.limit_ms = number_or_zero(j, "limit_ms");
  if (const auto found = j.find("available"); found != j.end() && found->is_boolean()) {
    quiet.available = found->get<bool>();
  }
  return quiet;
}

nlohmann::json to_json(const QuietFacts& quiet) {
  return {{"waits", quiet.waits},
          {"waited_s", quiet.waited_s},
          {"over_limit", quiet.over_limit},
          {"limit_ms", quiet.limit_ms},
          {"available", quiet.available}};
}

nlohmann::json to_json(const RankFacts& rank) {
  nlohmann::json j = rank.details;
  if (rank.rank) j["rank"] = *rank.rank;
  j["host"] = rank.host;
  return j;
}

nlohmann::json to_json(const MpiFacts& mpi) {
  nlohmann::json j = {{"ranks", nlohmann::json::array()},
                      {"sync", mpi.sync},
                      {"rank_count", mpi.rank_count},
                      {"shared_gpus", nlohmann::json::array()}};
  for (const RankFacts& rank : mpi.ranks) j["ranks"].push_back(to_json(rank));
  for (const SharedGpu& gpu : mpi.shared_gpus) {
    j["shared_gpus"].push_back({{"host", gpu.host}, {"uuid", gpu.uuid}, {"ranks", gpu.ranks}});
  }
  return j;
}

// A rank number: a count from 0 to INT_MAX; anything else (a string, -1, 1e300) names no rank.
std::optional<int> rank_number(const nlohmann::json& value, const std::string& pointer) {
  const std::optional<double> number = number_at(value, pointer);
  if (number && *number >= 0 && *number <= INT_MAX) return static_cast<int>(*number);
  return std::nullopt;
}

}  // namespace

std::string run_identity(const RunContext& run) {
  const std::optional<std::uint64_t>& seed = run.settings.order_seed;
  return run.time + " run " + run.run_id + " seed " + (seed ? std::to_string(*seed) : "none");
}

std::string setting_text(const SettingsFacts& settings, const char* key) {
  const auto row =
      std::find_if(std::begin(kRunSettingFields), std::end(kRunSettingFields),
                   [key](const SettingField& field) { return field.key == std::string(key); });
  if (row == std::end(kRunSettingFields)) return "";
  const auto unread = settings.unread.find(key);
  const nlohmann::json value =
      unread != settings.unread.end() ? unread->second : row->write(settings.measure);
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

nlohmann::json to_json(const HostFacts& host) {
  nlohmann::json j = {{"name", host.name},
                      {"cpu", host.cpu},
                      {"logical_cores", host.logical_cores},
                      {"openmp_threads", host.openmp_threads},
                      {"memory_bytes", host.memory_bytes},
                      {"os", host.os},
                      {"kernel", host.kernel},
                      {"architecture", host.architecture},
                      {"frequency_scaling", host.frequency_scaling}};
  if (!host.environment.empty()) j["environment"] = host.environment;
  return j;
}

nlohmann::json to_json(const BuildFacts& build) {
  return {{"harness_version", build.harness_version},
          {"git_commit", build.git_commit},
          {"git_commit_at_build", build.git_commit_at_build},
          {"compiler", build.compiler},
          {"assertions", build.assertions}};
}

nlohmann::json to_json(const DeviceFacts& device) {
  nlohmann::json j = device.details;
  j["name"] = device.name;
  j["driver_version"] = device.driver_version;
  j["runtime_version"] = device.runtime_version;
  j["uuid"] = device.uuid;
  j["pci_bus_id"] = device.pci_bus_id;
  j["reported_by"] = device.reported_by;
  return j;
}

nlohmann::json to_json(const RunContext& run) {
  nlohmann::json context = {{"time", run.time},
                            {"command_line", run.command_line},
                            {"host", to_json(run.host)},
                            {"build", to_json(run.build)},
                            {"settings", to_json(run.settings)},
                            {"devices", nlohmann::json::array()},
                            {"peaks", nlohmann::json::array()},
                            {"plugins", nlohmann::json::array()}};
  for (const DeviceFacts& device : run.devices) context["devices"].push_back(to_json(device));
  for (const PeakBandwidth& peak : run.peaks) context["peaks"].push_back(to_json(peak));
  for (const PluginFacts& plugin : run.plugins) context["plugins"].push_back(to_json(plugin));
  if (!run.run_id.empty()) context["run_id"] = run.run_id;
  if (run.own_threads_quiet) context["own_threads_quiet"] = to_json(*run.own_threads_quiet);
  if (run.mpi) context["mpi"] = to_json(*run.mpi);
  nlohmann::json j = {{"complete", run.complete}, {"context", std::move(context)}};
  if (run.interrupted_by_signal)
    j["interrupted_by_signal"] = number_json(*run.interrupted_by_signal);
  if (!run.complete && run.planned_cells) j["planned_cells"] = *run.planned_cells;
  return j;
}

DeviceFacts device_facts_from_json(const nlohmann::json& device) {
  DeviceFacts read;
  read.name = text_at(device, "/name");
  read.driver_version = text_at(device, "/driver_version");
  read.runtime_version = text_at(device, "/runtime_version");
  read.uuid = text_at(device, "/uuid");
  read.pci_bus_id = text_at(device, "/pci_bus_id");
  read.reported_by = text_at(device, "/reported_by");
  read.details = details_of(
      device, {"name", "driver_version", "runtime_version", "uuid", "pci_bus_id", "reported_by"});
  return read;
}

void read_process(const nlohmann::json& process, PluginFacts& plugin) {
  plugin.cpus = count_of(process, "cpus");
  plugin.openmp_threads = count_of(process, "openmp_threads");
}

PluginFacts plugin_facts_from_json(const nlohmann::json& plugin) {
  PluginFacts read;
  read.name = text_at(plugin, "/name");
  read.status = text_at(plugin, "/status");
  read.memory_space = value_named(kMemorySpaceNames, text_at(plugin, "/memory_space"));
  read_process(object_of(plugin, "process"), read);
  read.peak_gbps = number_at(plugin, "/peak_gbps");
  read.peak_read_gbps = number_at(plugin, "/peak_read_gbps");
  if (const auto found = plugin.find("build_info"); found != plugin.end()) {
    read.build_info = *found;
  }
  read.details = details_of(plugin, {"name", "status", "memory_space", "process", "peak_gbps",
                                     "peak_read_gbps", "build_info"});
  return read;
}

std::vector<RankFacts> rank_facts_from_json(const nlohmann::json& ranks) {
  std::vector<RankFacts> facts;
  if (!ranks.is_array()) return facts;
  for (const nlohmann::json& rank : ranks) {
    RankFacts read;
    read.rank = rank_number(rank, "/rank");
    read.host = text_at(rank, "/host");
    read.details = details_of(rank, {"rank", "host"});
    facts.push_back(std::move(read));
  }
  return facts;
}

MpiFacts mpi_facts_from_json(const nlohmann::json& mpi) {
  MpiFacts facts;
  facts.ranks = rank_facts_from_json(array_of(mpi, "ranks"));
  facts.sync = text_at(mpi, "/sync");
  facts.rank_count = count_of(mpi, "rank_count").value_or(0);
  for (const nlohmann::json& gpu : array_of(mpi, "shared_gpus")) {
    SharedGpu read{text_at(gpu, "/host"), text_at(gpu, "/uuid"), {}};
    for (const nlohmann::json& rank : array_of(gpu, "ranks")) {
      if (const std::optional<int> number = rank_number(rank, "")) read.ranks.push_back(*number);
    }
    facts.shared_gpus.push_back(std::move(read));
  }
  return facts;
}

RunContext run_context_from_json(const nlohmann::json& context) {
  RunContext run;
  if (!context.is_object()) return run;
  run.time = text_at(context, "/time");
  run.run_id = text_at(context, "/run_id");
  run.command_line = text_at(context, "/command_line");
  run.host = host_from_json(object_of(context, "host"));
  run.build = build_from_json(object_of(context, "build"));
  run.settings = settings_from_json(object_of(context, "settings"));
  for (const nlohmann::json& device : array_of(context, "devices")) {
    if (device.is_object()) run.devices.push_back(device_facts_from_json(device));
  }
  for (const nlohmann::json& peak : array_of(context, "peaks")) {
    if (!peak.is_object()) continue;
    const auto gbps = peak.find("gbps");
    if (gbps == peak.end() || !gbps->is_number()) continue;  // no rate: nothing to show of it
    run.peaks.push_back(peak_read(peak, gbps->get<double>()));
  }
  for (const nlohmann::json& plugin : array_of(context, "plugins")) {
    if (plugin.is_object()) run.plugins.push_back(plugin_facts_from_json(plugin));
  }
  if (const auto quiet = context.find("own_threads_quiet");
      quiet != context.end() && quiet->is_object()) {
    run.own_threads_quiet = quiet_from_json(*quiet);
  }
  // Present, even empty, marks a run of several ranks (the reader has checked it is an object).
  if (const auto mpi = context.find("mpi"); mpi != context.end()) {
    run.mpi = mpi_facts_from_json(*mpi);
  }
  return run;
}

RunContext run_context_from_document(const nlohmann::json& document) {
  RunContext run = run_context_from_json(object_of(document, "context"));
  if (const auto complete = document.find("complete");
      complete != document.end() && complete->is_boolean()) {
    run.complete = complete->get<bool>();
  }
  run.interrupted_by_signal = number_at(document, "/interrupted_by_signal");
  // A count, or none (a hand edit's fraction, sign or overflow says nothing of the run).
  if (const std::optional<double> planned = number_at(document, "/planned_cells");
      planned && *planned >= 0 && *planned < 1e15 && *planned == std::floor(*planned)) {
    run.planned_cells = static_cast<std::size_t>(*planned);
  }
  return run;
}

}  // namespace plugbench
