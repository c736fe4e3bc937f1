// machine_facts.cpp: the machine, build and settings facts of a results file.
#include "results/machine_facts.hpp"

#include "base/text_list.hpp"
#include "render/figure_text.hpp"

#include <algorithm>

namespace plugbench {
namespace {

// Distinct values of a field over the devices, joined: "NVIDIA H200" or "none".
std::string device_field(const std::vector<DeviceFacts>& devices, std::string DeviceFacts::*field) {
  std::vector<std::string> values;
  for (const DeviceFacts& device : devices) {
    const std::string& value = device.*field;
    if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
      values.push_back(value);
    }
  }
  return values.empty() ? "none" : join(values);
}

// "copy 39.1 GB/s, read 41.7 GB/s" (the first of each pattern: every device plugin calibrates its
// own); a file from before peaks had patterns gives the copy rate alone.
std::string peak_text(const std::vector<PeakBandwidth>& peaks, MemorySpace memory_space) {
  std::vector<std::string> seen, parts;
  for (const PeakBandwidth& peak : peaks) {
    if (peak.memory_space != memory_space) continue;
    if (std::find(seen.begin(), seen.end(), peak.pattern) != seen.end()) continue;
    seen.push_back(peak.pattern);
    parts.push_back((peak.pattern.empty() ? "" : peak.pattern + " ") + format_rate(peak.gbps) +
                    " GB/s");
  }
  return join(parts);
}

// What each host plugin's cells could use, from its process's report: "openmp 16 CPUs 16
// threads, ...". A plugin whose worker was confined to fewer CPUs than the host has shows here.
std::string host_plugin_cpus(const std::vector<PluginFacts>& plugins) {
  std::vector<std::string> parts;
  for (const PluginFacts& plugin : plugins) {
    if (plugin.memory_space != MemorySpace::host || !plugin.cpus || !plugin.openmp_threads)
      continue;
    parts.push_back(plugin.name + " " + std::to_string(*plugin.cpus) + " CPUs " +
                    std::to_string(*plugin.openmp_threads) + " threads");
  }
  return join(parts);
}

}  // namespace

// What describes the machine, the build and the settings, in the order the header shows them.
Facts machine_facts(const RunContext& run) {
  std::string cpu = run.host.cpu;
  if (run.host.logical_cores > 0) {
    cpu += " (" + std::to_string(run.host.logical_cores) + " logical cores)";
  }
  std::string memory;
  if (run.host.memory_bytes > 0) {
    memory =
        number_text(static_cast<double>(run.host.memory_bytes) / (1024.0 * 1024 * 1024), "%.0f") +
        " GiB";
  }
  return {{"host", run.host.name},
          {"CPU", cpu},
          {"memory", memory},
          {"host plugins ran on", host_plugin_cpus(run.plugins)},
          {"OS", run.host.os},
          {"GPU", device_field(run.devices, &DeviceFacts::name)},
          {"GPU driver", device_field(run.devices, &DeviceFacts::driver_version)},
          {"CUDA runtime", device_field(run.devices, &DeviceFacts::runtime_version)},
          {"compiler", run.build.compiler},
          {"harness", run.build.harness_version},
          {"git commit", run.build.git_commit},
          {"run at", run.time},
          {"cache", setting_text(run.settings, "cache")},
          {"repetitions", setting_text(run.settings, "repetitions")},
          {"host peak", peak_text(run.peaks, MemorySpace::host)},
          {"device peak", peak_text(run.peaks, MemorySpace::device)}};
}

}  // namespace plugbench
