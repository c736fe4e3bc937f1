// run_context.hpp: what a results file says about its run besides the cells (context in the
// schema, and whether the run was complete), typed: the run writes its file from these structs
// through one serializer, and the reader reads them back once, so that the commands read fields
// and what is read is what was written. Parts no command reads are carried beside the typed
// fields as JSON (`details`: devices' other facts, plugins' kernels, what each MPI rank found).
#pragma once

#include "base/host_facts.hpp"
#include "base/memory_space.hpp"
#include "measure/calibration.hpp"
#include "measure/run_settings.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
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
  std::string reported_by;  // the plugin whose session opened it
  // JSON: the device's other keys as its session reported them (memory, clocks, telemetry).
  nlohmann::json details = nlohmann::json::object();
};

// A loaded plugin and, where its worker reported them, the CPUs and threads its cells could use.
struct PluginFacts {
  std::string name;
  std::string status;                       // "available" where it loaded
  std::optional<MemorySpace> memory_space;  // none: a text kMemorySpaceNames lacks
  std::optional<std::uint64_t> cpus;
  std::optional<std::uint64_t> openmp_threads;
  std::optional<double> peak_gbps;       // the copy peak its cells were held to
  std::optional<double> peak_read_gbps;  // the read peak, where one was measured
  // JSON: what the plugin's build reports, free-form (its keys and values are the plugin's own).
  nlohmann::json build_info;
  // JSON: the plugin's other keys as it was loaded (path, version, abi, its kernels).
  nlohmann::json details = nlohmann::json::object();
};

// The settings of a run, as its stages' settings name them (a number missing from a file is 0).
struct SettingsFacts {
  // How cells were measured: the workers' settings, a file's read through kRunSettingFields's
  // rows (each key leniently by its row's form), so that a new one needs no field here.
  RunSettings measure;
  // A file's value that its row does not read, by key, kept as read (its field keeps its default):
  // a name this build's table lacks, a repetitions text other than "automatic", a count beyond an
  // int, or "" for a name that is missing. The tables show it and the file is written with it as
  // it was: the file may come from a harness with other values.
  std::map<std::string, nlohmann::json> unread;
  std::string order;                        // "interleaved" or "sequential"
  std::optional<std::uint64_t> order_seed;  // of the interleaved rounds' random order
  std::string baseline;                     // the plugin speedups are relative to
  std::int64_t device = 0;
  std::string isolation;  // "process" or "none"
  double timeout_s = 0;
  std::int64_t max_restarts = 0;
  std::string mpi_sync;
  std::optional<double> outlier_threshold;
  // "quick" for a run under the test suite's scale (measure/calibration.hpp): its cold host
  // samples are not cold and its peaks are the caches'. Written only where set.
  std::string test_scale;
};

// How an interleaved run's rounds waited for the harness's own threads to go quiet.
struct QuietFacts {
  std::uint64_t waits = 0;
  double waited_s = 0;
  std::uint64_t over_limit = 0;  // waits that reached the limit with threads still running
  double limit_ms = 0;
  bool available = true;  // false: no thread list, no wait
};

// A rank of a run of several MPI ranks, as far as the tables name it.
struct RankFacts {
  std::optional<int> rank;  // nullopt: not a number from 0 to INT_MAX
  std::string host;
  // JSON: the rank's other keys as it reported them (placement, CPUs, its devices and peaks).
  nlohmann::json details = nlohmann::json::object();
};

// A GPU that two or more ranks of one host ran on: their figures are a shared GPU's.
struct SharedGpu {
  std::string host;
  std::string uuid;
  std::vector<int> ranks;
};

// Present in the file of a run of several MPI ranks.
struct MpiFacts {
  std::vector<RankFacts> ranks;
  std::string sync;  // "lockstep" or "none"
  std::uint64_t rank_count = 0;
  std::vector<SharedGpu> shared_gpus;
};

struct RunContext {
  // At the file's top level, beside "context": false where a signal or a lost rank cut the run.
  bool complete = true;
  std::optional<double> interrupted_by_signal;  // the signal that stopped the run
  // The cells a cut run set out to measure (every rank's): "3 of 12 cells" in its summary.
  std::optional<std::size_t> planned_cells;
  std::string time;    // "2026-11-30T17:02:03Z", as the run began
  std::string run_id;  // random, one per run: runs that began in one second differ in it
  std::string command_line;
  HostFacts host;
  BuildFacts build;
  SettingsFacts settings;
  std::vector<DeviceFacts> devices;
  std::vector<PeakBandwidth> peaks;  // memory space, pattern and rate (the rest is not read)
  std::vector<PluginFacts> plugins;
  std::optional<QuietFacts> own_threads_quiet;  // an interleaved run's
  std::optional<MpiFacts> mpi;                  // nullopt: a run of one process
};

// The measurement setting `key` (a row of kRunSettingFields) as the tables show it: its name or
// count ("cold", "automatic", "10"), or the file's value as written where its row did not read it
// ("" where the file had none); "" for a key no row has.
std::string setting_text(const SettingsFacts& settings, const char* key);

// What tells one run from another, in a history where the same run may be added twice (another
// document of it, another digest): its start time, to the second, its random run id, and the seed
// of its rounds' order (files made before the run id: two runs of a second or less can start in
// the same second, and a sequential run has no seed).
std::string run_identity(const RunContext& run);

nlohmann::json to_json(const HostFacts& host);
nlohmann::json to_json(const BuildFacts& build);
nlohmann::json to_json(const DeviceFacts& device);
// The run's fields of a results document: "complete", "interrupted_by_signal" where a signal
// stopped the run, "planned_cells" where it was cut, and "context". The one writer of them: what
// run_context_from_document reads.
nlohmann::json to_json(const RunContext& run);

// A file's context, leniently: a field missing or of another type (an older file, one edited by
// hand) is left empty, never an error: what the commands show of it is then blank.
RunContext run_context_from_json(const nlohmann::json& context);
// The same for a whole document: its context and whether its run was complete (a file without
// "complete" was).
RunContext run_context_from_document(const nlohmann::json& document);
// One part of a context, by the same rules: a device as a session reports it, a plugin as it was
// loaded (to_json(PluginRecord)), the CPUs and threads a plugin's process reported
// (process_cpu_description), the ranks' facts as they were gathered (an array, one per rank) and
// context.mpi.
DeviceFacts device_facts_from_json(const nlohmann::json& device);
PluginFacts plugin_facts_from_json(const nlohmann::json& plugin);
void read_process(const nlohmann::json& process, PluginFacts& plugin);
std::vector<RankFacts> rank_facts_from_json(const nlohmann::json& ranks);
MpiFacts mpi_facts_from_json(const nlohmann::json& mpi);

}  // namespace plugbench
