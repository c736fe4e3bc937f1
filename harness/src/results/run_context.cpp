// run_context.cpp: the typed context of a results file, to and from its JSON.
#include "results/run_context.hpp"

#include "results/results_reader.hpp"

#include <climits>
#include <cmath>
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

}  // namespace

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

RunContext run_context_from_json(const nlohmann::json& context) {
  RunContext run;
  if (!context.is_object()) return run;
  run.time = text_at(context, "/time");
  run.command_line = text_at(context, "/command_line");
  run.host = host_from_json(object_of(context, "host"));
  run.build = build_from_json(object_of(context, "build"));
  const nlohmann::json& settings = object_of(context, "settings");
  run.settings.cache = text_at(settings, "/cache");
  if (const auto count = count_of(settings, "repetitions")) {
    run.settings.repetitions = std::to_string(*count);
  } else {
    run.settings.repetitions = text_at(settings, "/repetitions");  // "automatic"
  }
  if (const auto found = settings.find("outlier_threshold");
      found != settings.end() && found->is_number()) {
    run.settings.outlier_threshold = found->get<double>();
  }
  run.settings.baseline = text_at(settings, "/baseline");
  for (const nlohmann::json& device : array_of(context, "devices")) {
    if (!device.is_object()) continue;
    run.devices.push_back({text_at(device, "/name"), text_at(device, "/driver_version"),
                           text_at(device, "/runtime_version"), text_at(device, "/uuid"),
                           text_at(device, "/pci_bus_id")});
  }
  for (const nlohmann::json& peak : array_of(context, "peaks")) {
    if (!peak.is_object()) continue;
    const auto gbps = peak.find("gbps");
    if (gbps == peak.end() || !gbps->is_number()) continue;  // no rate: nothing to show of it
    PeakBandwidth read;
    read.memory_space = text_at(peak, "/memory_space");
    read.pattern = text_at(peak, "/pattern");  // "": a file from before peaks had patterns
    read.gbps = gbps->get<double>();
    run.peaks.push_back(read);
  }
  for (const nlohmann::json& plugin : array_of(context, "plugins")) {
    if (!plugin.is_object()) continue;
    const nlohmann::json& process = object_of(plugin, "process");
    PluginFacts read;
    read.name = text_at(plugin, "/name");
    read.status = text_at(plugin, "/status");
    read.memory_space = text_at(plugin, "/memory_space");
    read.cpus = count_of(process, "cpus");
    read.openmp_threads = count_of(process, "openmp_threads");
    if (const auto found = plugin.find("build_info"); found != plugin.end()) {
      read.build_info = *found;
    }
    run.plugins.push_back(std::move(read));
  }
  // Present, even empty, marks a run of several ranks (the reader has checked it is an object).
  if (const auto mpi = context.find("mpi"); mpi != context.end()) {
    MpiFacts facts;
    for (const nlohmann::json& rank : array_of(*mpi, "ranks")) {
      RankFacts read;
      // A rank number is a count; anything else (a string, -1, 1e300) names no rank.
      const std::optional<double> number = number_at(rank, "/rank");
      if (number && *number >= 0 && *number <= INT_MAX) read.rank = static_cast<int>(*number);
      read.host = text_at(rank, "/host");
      facts.ranks.push_back(std::move(read));
    }
    run.mpi = std::move(facts);
  }
  return run;
}

}  // namespace plugbench
