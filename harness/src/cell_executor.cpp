// cell_executor.cpp: cell requests as JSON, the problem cache, and a plugin's cell runner.
#include "cell_executor.hpp"

#include "host_info.hpp"
#include "problem_store.hpp"
#include "results_json.hpp"

#include <new>

namespace plugbench {
namespace {

nlohmann::json to_json(const RunSettings& settings) {
  return {{"cache", settings.cache == CacheMode::cold ? "cold" : "warm"},
          {"host_memory", settings.host_memory == HostMemoryMode::pageable ? "pageable"
                          : settings.host_memory == HostMemoryMode::pinned ? "pinned"
                                                                           : "both"},
          {"repetitions",
           settings.repetitions ? nlohmann::json(*settings.repetitions) : nlohmann::json(nullptr)},
          {"min_time", settings.min_time},
          {"warmup", settings.warmup},
          {"cell_budget", settings.cell_budget},
          {"throttle_threshold", settings.throttle_threshold}};
}

RunSettings run_settings_from_json(const nlohmann::json& j) {
  RunSettings settings;
  settings.cache = j.at("cache") == "cold" ? CacheMode::cold : CacheMode::warm;
  std::string host_memory = j.at("host_memory").get<std::string>();
  settings.host_memory = host_memory == "pageable" ? HostMemoryMode::pageable
                         : host_memory == "pinned" ? HostMemoryMode::pinned
                                                   : HostMemoryMode::both;
  if (!j.at("repetitions").is_null()) settings.repetitions = j["repetitions"].get<int>();
  settings.min_time = j.at("min_time").get<double>();
  settings.warmup = j.at("warmup").get<int>();
  settings.cell_budget = j.at("cell_budget").get<double>();
  settings.throttle_threshold = j.at("throttle_threshold").get<double>();
  return settings;
}

nlohmann::json peaks_json(const std::vector<PeakBandwidth>& peaks) {
  nlohmann::json list = nlohmann::json::array();
  for (const PeakBandwidth& peak : peaks) list.push_back(to_json(peak));
  return list;
}

}  // namespace

nlohmann::json to_json(const CellRequest& request) {
  return {{"workload", request.workload},
          {"distribution", request.distribution},
          {"n", request.shape.n},
          {"width", request.shape.width},
          {"height", request.shape.height},
          {"variant", request.variant},
          {"settings", to_json(request.settings)}};
}

CellRequest cell_request_from_json(const nlohmann::json& j) {
  CellRequest request;
  request.workload = j.at("workload").get<std::string>();
  request.distribution = j.at("distribution").get<std::string>();
  request.shape.n = j.at("n").get<std::uint64_t>();
  request.shape.width = j.at("width").get<std::uint64_t>();
  request.shape.height = j.at("height").get<std::uint64_t>();
  request.variant = j.at("variant").get<std::string>();
  request.settings = run_settings_from_json(j.at("settings"));
  return request;
}

CellResult unrun_cell(const PluginRecord& plugin, const CellRequest& request,
                      const std::string& status, const std::string& message) {
  CellResult cell;
  cell.workload = request.workload;
  cell.plugin = plugin.name;
  cell.variant = request.variant;
  cell.distribution = request.distribution;
  cell.shape = request.shape;
  cell.status = status;
  cell.message = message;
  cell.memory_space = plugin.memory_space == PB_MEMORY_DEVICE ? "device" : "host";
  if (const KernelRecord* kernel = plugin.find_kernel(request.workload, request.variant)) {
    cell.flags = kernel->flags;
  }
  return cell;
}

const ProblemCache::Entry& ProblemCache::get(const Workload& workload,
                                             const std::string& distribution, const Shape& shape) {
  if (entry_ && workload_ == workload.name() && distribution_ == distribution && shape_ == shape) {
    return *entry_;
  }
  entry_.reset();  // the old problem's memory goes before the new one is generated
  auto entry = std::make_unique<Entry>();
  const std::string path =
      folder_.empty() ? ""
                      : folder_ + "/" + problem_file_name(workload.name(), distribution, shape);
  if (path.empty() ||
      !load_problem(path, workload, distribution, shape, entry->data, entry->reference)) {
    entry->data = workload.generate(shape, distribution);
    entry->reference = workload.reference(entry->data);
    if (!path.empty()) store_problem(path, workload, entry->data, *entry->reference);
  }
  entry_ = std::move(entry);
  workload_ = workload.name();
  distribution_ = distribution;
  shape_ = shape;
  return *entry_;
}

nlohmann::json to_json(const SessionFacts& facts) {
  return {{"device", facts.device},
          {"peaks", peaks_json(facts.peaks)},
          {"calibration_error", facts.calibration_error},
          {"process", facts.process}};
}

SessionFacts session_facts_from_json(const nlohmann::json& j) {
  SessionFacts facts;
  facts.device = j.at("device");
  for (const nlohmann::json& peak : j.at("peaks")) facts.peaks.push_back(peak_from_json(peak));
  facts.calibration_error = j.at("calibration_error").get<std::string>();
  facts.process = j.value("process", nlohmann::json());
  return facts;
}

PluginCellRunner::PluginCellRunner(const PluginRecord& plugin, int device, ProblemCache& problems)
    : plugin_(plugin), session_(plugin, device), problems_(problems) {
  if (plugin.memory_space != PB_MEMORY_DEVICE) return;
  std::optional<pb_device_info> info = session_.device_info();
  const nlohmann::json described = info ? to_json(*info) : nlohmann::json::object();
  const std::string pci_bus_id = described.value("pci_bus_id", "");
  const std::string uuid = described.value("uuid", "");
  if (pci_bus_id.empty() && uuid.empty()) {
    telemetry_unavailable_ = "the plugin reports no PCI bus id or UUID for its device";
    return;
  }
  telemetry_ = GpuTelemetrySource::open(pci_bus_id, uuid, telemetry_unavailable_);
}

SessionFacts PluginCellRunner::facts(bool calibrate) const {
  SessionFacts facts;
  facts.process = process_cpu_description();
  if (auto info = session_.device_info()) {
    facts.device = to_json(*info);
    facts.device["telemetry"] = telemetry_ ? "NVML" : "unavailable: " + telemetry_unavailable_;
  }
  if (calibrate && plugin_.memory_space == PB_MEMORY_DEVICE) {
    try {
      facts.peaks = calibrate_plugin_peaks(session_);
    } catch (const PluginCallError& e) {
      facts.calibration_error = e.what();
    }
  }
  return facts;
}

CellResult PluginCellRunner::run(const CellRequest& request) {
  const Workload* workload = WorkloadRegistry::instance().find(request.workload);
  const KernelRecord* kernel = plugin_.find_kernel(request.workload, request.variant);
  if (workload == nullptr || kernel == nullptr) {
    return unrun_cell(
        plugin_, request, status::error,
        "no kernel " + request.workload + "/" + request.variant + " in " + plugin_.path);
  }
  const ProblemCache::Entry* problem = nullptr;
  try {
    problem = &problems_.get(*workload, request.distribution, request.shape);
  } catch (const std::bad_alloc&) {
    return unrun_cell(plugin_, request, status::oom,
                      "the harness ran out of host memory generating the problem and its "
                      "reference");
  }
  return run_cell(*workload, problem->data, *problem->reference, session_, *kernel,
                  request.settings, telemetry_.get());
}

}  // namespace plugbench
