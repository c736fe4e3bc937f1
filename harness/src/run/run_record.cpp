// run_record.cpp: the facts a run collects.
#include "run/run_record.hpp"

#include "base/safe_text.hpp"

#include <utility>

namespace plugbench {

void RunRecord::add_host_peaks(const std::vector<PeakBandwidth>& host_peaks,
                               const std::vector<const PluginRecord*>& plugins) {
  peaks.insert(peaks.end(), host_peaks.begin(), host_peaks.end());
  for (const PluginRecord* plugin : plugins) {
    if (plugin->state == PluginState::available && plugin->memory_space == MemorySpace::host) {
      peaks_by_plugin[plugin->name] = host_peaks;
    }
  }
}

void RunRecord::add_session_facts(const PluginRecord& plugin, const SessionFacts& facts,
                                  std::ostream& warnings) {
  if (!facts.process.is_null()) process_by_plugin[plugin.name] = facts.process;
  if (!facts.device.is_null()) {
    DeviceFacts device = device_facts_from_json(facts.device);
    device.reported_by = plugin.name;
    devices.push_back(std::move(device));
  }
  if (!facts.peaks.empty()) {
    peaks.insert(peaks.end(), facts.peaks.begin(), facts.peaks.end());
    peaks_by_plugin[plugin.name] = facts.peaks;
  } else if (!facts.calibration_error.empty()) {
    warnings << "harness: could not calibrate " << plugin.name << ": "
             << printable_text(facts.calibration_error) << "\n";
  }
}

}  // namespace plugbench
