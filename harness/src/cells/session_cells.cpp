// session_cells.cpp: a plugin's session, the facts it reports, and the cells measured on it.
#include "cells/session_cells.hpp"

#include "base/host_facts.hpp"
#include "results/results_json.hpp"

#include <new>

namespace plugbench {
namespace {

nlohmann::json peaks_json(const std::vector<PeakBandwidth>& peaks) {
  nlohmann::json list = nlohmann::json::array();
  for (const PeakBandwidth& peak : peaks) list.push_back(to_json(peak));
  return list;
}

}  // namespace

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

SessionCells::SessionCells(const PluginRecord& plugin, int device, ProblemCache& problems)
    : plugin_(plugin), session_(plugin, device), problems_(problems) {
  if (plugin.memory_space != MemorySpace::device) return;
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

SessionFacts SessionCells::facts(bool calibrate) const {
  SessionFacts facts;
  facts.process = process_cpu_description();
  if (auto info = session_.device_info()) {
    facts.device = to_json(*info);
    facts.device["telemetry"] = telemetry_ ? "NVML" : "unavailable: " + telemetry_unavailable_;
  }
  if (calibrate && plugin_.memory_space == MemorySpace::device) {
    try {
      facts.peaks = calibrate_plugin_peaks(session_);
    } catch (const PluginCallError& e) {
      facts.calibration_error = e.what();
    }
  }
  return facts;
}

CellResult SessionCells::run(const CellRequest& request) {
  std::variant<CellResult, std::unique_ptr<OpenCell>> opened = open(request);
  if (CellResult* decided = std::get_if<CellResult>(&opened)) return std::move(*decided);
  OpenCell& cell = *std::get<std::unique_ptr<OpenCell>>(opened);
  while (cell.wants_sample()) cell.take_sample();
  return cell.finish();
}

std::variant<CellResult, std::unique_ptr<OpenCell>> SessionCells::open(const CellRequest& request) {
  const Workload* workload = WorkloadRegistry::instance().find(request.workload);
  const KernelRecord* kernel = plugin_.find_kernel(request.workload, request.variant);
  if (workload == nullptr || kernel == nullptr) {
    return unrun_cell(
        plugin_, request, CellStatus::error,
        "no kernel " + request.workload + "/" + request.variant + " in " + plugin_.path);
  }
  const ProblemCache::Entry* problem = nullptr;
  try {
    problem = &problems_.get(*workload, request.distribution, request.shape);
  } catch (const std::bad_alloc&) {
    return unrun_cell(plugin_, request, CellStatus::oom,
                      "the harness ran out of host memory generating the problem and its "
                      "reference");
  }
  return std::make_unique<OpenCell>(*workload, problem->data, *problem->reference, session_,
                                    *kernel, request.settings, telemetry_.get());
}

}  // namespace plugbench
