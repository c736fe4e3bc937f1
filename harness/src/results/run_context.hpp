// run_context.hpp: what a results file says about its run besides the cells (context in the
// schema), typed: read once when the file is read, so that the commands read fields, and written
// from the same structs where the writer has them (host, build, peaks), so that what is read is
// what was written. Parts no command reads stay JSON in the document only (the other settings,
// devices' other details, plugins' kernels, what each MPI rank found).
#pragma once

#include "base/host_facts.hpp"
#include "measure/calibration.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// A device as the plugin that opened it reported it.
struct DeviceFacts {
  std::string name;
  std::string driver_version;
  std::string runtime_version;
  std::string uuid;  // with pci_bus_id, what tells two devices of one name apart
  std::string pci_bus_id;
};

// A loaded plugin and, where its worker reported them, the CPUs and threads its cells could use.
struct PluginFacts {
  std::string name;
  std::string status;        // "available" where it loaded
  std::string memory_space;  // "host" or "device"
  std::optional<std::uint64_t> cpus;
  std::optional<std::uint64_t> openmp_threads;
  // JSON: what the plugin's build reports, free-form (its keys and values are the plugin's own).
  nlohmann::json build_info;
};

// The settings the commands show of a run.
struct SettingsFacts {
  std::string cache;        // "cold" or "warm"
  std::string repetitions;  // "automatic" or a count
  std::optional<double> outlier_threshold;
  std::string baseline;  // the plugin speedups are relative to
};

// A rank of a run of several MPI ranks, as far as the tables name it.
struct RankFacts {
  std::optional<int> rank;  // nullopt: not a number from 0 to INT_MAX
  std::string host;
};

// Present in the file of a run of several MPI ranks.
struct MpiFacts {
  std::vector<RankFacts> ranks;
};

struct RunContext {
  std::string time;  // "2026-11-30T17:02:03Z"
  std::string command_line;
  HostFacts host;
  BuildFacts build;
  SettingsFacts settings;
  std::vector<DeviceFacts> devices;
  std::vector<PeakBandwidth> peaks;  // memory space, pattern and rate (the rest is not read)
  std::vector<PluginFacts> plugins;
  std::optional<MpiFacts> mpi;  // nullopt: a run of one process
};

nlohmann::json to_json(const HostFacts& host);
nlohmann::json to_json(const BuildFacts& build);

// A file's context, leniently: a field missing or of another type (an older file, one edited by
// hand) is left empty, never an error: what the commands show of it is then blank.
RunContext run_context_from_json(const nlohmann::json& context);

}  // namespace plugbench
