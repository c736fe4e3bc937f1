// machine_facts.cpp: the machine, build and settings facts of a results file.
#include "results/machine_facts.hpp"

#include "base/text_list.hpp"
#include "render/figure_text.hpp"
#include "results/results_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace plugbench {
namespace {

// Distinct values of a field over the devices, joined: "NVIDIA H200" or "none".
std::string device_field(const nlohmann::json& document, const std::string& field) {
  std::vector<std::string> values;
  if (const nlohmann::json* devices = array_at(document, "/context/devices")) {
    for (const nlohmann::json& device : *devices) {
      std::string value = text_at(device, "/" + field);
      if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
        values.push_back(value);
      }
    }
  }
  return values.empty() ? "none" : join(values);
}

// "copy 39.1 GB/s, read 41.7 GB/s" (the first of each pattern: every device plugin calibrates its
// own); a file from before peaks had patterns gives the copy rate alone.
std::string peak_text(const nlohmann::json& document, const std::string& memory_space) {
  const nlohmann::json* peaks = array_at(document, "/context/peaks");
  if (!peaks) return "";
  std::vector<std::string> seen, parts;
  for (const nlohmann::json& peak : *peaks) {
    std::optional<double> gbps = number_at(peak, "/gbps");
    if (text_at(peak, "/memory_space") != memory_space || !gbps) continue;
    std::string pattern = text_at(peak, "/pattern");
    if (std::find(seen.begin(), seen.end(), pattern) != seen.end()) continue;
    seen.push_back(pattern);
    parts.push_back((pattern.empty() ? "" : pattern + " ") + format_rate(gbps) + " GB/s");
  }
  return join(parts);
}

// What each host plugin's cells could use, from its process's report: "openmp 16 CPUs 16
// threads, ...". A plugin whose worker was confined to fewer CPUs than the host has shows here.
std::string host_plugin_cpus(const nlohmann::json& document) {
  std::vector<std::string> parts;
  if (const nlohmann::json* plugins = array_at(document, "/context/plugins")) {
    for (const nlohmann::json& plugin : *plugins) {
      std::optional<double> cpus = number_at(plugin, "/process/cpus");
      std::optional<double> threads = number_at(plugin, "/process/openmp_threads");
      if (text_at(plugin, "/memory_space") != "host" || !cpus || !threads) continue;
      parts.push_back(text_at(plugin, "/name") + " " + number_text(*cpus, "%.0f") + " CPUs " +
                      number_text(*threads, "%.0f") + " threads");
    }
  }
  return join(parts);
}

}  // namespace

// What describes the machine, the build and the settings, in the order the header shows them.
Facts machine_facts(const nlohmann::json& document) {
  std::string cpu = text_at(document, "/context/host/cpu");
  if (std::optional<double> cores = number_at(document, "/context/host/logical_cores")) {
    cpu += " (" + number_text(*cores, "%.0f") + " logical cores)";
  }
  std::string memory;
  if (std::optional<double> bytes = number_at(document, "/context/host/memory_bytes")) {
    memory = number_text(*bytes / (1024.0 * 1024 * 1024), "%.0f") + " GiB";
  }
  std::string repetitions = text_at(document, "/context/settings/repetitions");  // "automatic"
  if (std::optional<double> count = number_at(document, "/context/settings/repetitions")) {
    repetitions = number_text(*count, "%.0f");
  }
  return {{"host", text_at(document, "/context/host/name")},
          {"CPU", cpu},
          {"memory", memory},
          {"host plugins ran on", host_plugin_cpus(document)},
          {"OS", text_at(document, "/context/host/os")},
          {"GPU", device_field(document, "name")},
          {"GPU driver", device_field(document, "driver_version")},
          {"CUDA runtime", device_field(document, "runtime_version")},
          {"compiler", text_at(document, "/context/build/compiler")},
          {"harness", text_at(document, "/context/build/harness_version")},
          {"git commit", text_at(document, "/context/build/git_commit")},
          {"run at", text_at(document, "/context/time")},
          {"cache", text_at(document, "/context/settings/cache")},
          {"repetitions", repetitions},
          {"host peak", peak_text(document, "host")},
          {"device peak", peak_text(document, "device")}};
}

}  // namespace plugbench
