// gpu_telemetry.hpp: optional GPU energy, power, temperature and clock-limit readings through NVML,
// loaded at run time so that plugbench builds and runs where no NVIDIA driver is installed.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {

// One reading of the counters; a field NVML could not give stays empty.
struct GpuTelemetrySnapshot {
  std::chrono::steady_clock::time_point taken;
  std::optional<std::uint64_t> energy_mj;  // nvmlDeviceGetTotalEnergyConsumption (mJ since load)
  std::optional<unsigned> power_mw;        // nvmlDeviceGetPowerUsage
  std::optional<unsigned> temperature_c;   // nvmlDeviceGetTemperature(NVML_TEMPERATURE_GPU)
  std::optional<unsigned> sm_clock_mhz;    // nvmlDeviceGetClockInfo(NVML_CLOCK_SM)
  // nvmlDeviceGetViolationStatus(NVML_PERF_POLICY_POWER / _THERMAL): violationTime, ns.
  std::optional<std::uint64_t> power_violation_ns;
  std::optional<std::uint64_t> thermal_violation_ns;
  // nvmlDeviceGetCurrentClocksEventReasons (nvmlDeviceGetCurrentClocksThrottleReasons on older
  // drivers): a mask of nvmlClocksEventReason* bits.
  std::optional<unsigned long long> clock_event_reasons;
};

// What changed over a cell: between two snapshots.
struct GpuTelemetry {
  double seconds = 0;
  std::optional<double> energy_j;  // difference of the energy counter
  // energy_j / seconds, else the mean of the two power readings.
  std::optional<double> mean_power_w;
  std::optional<unsigned> temperature_start_c, temperature_end_c;
  std::optional<double> power_violation_ms, thermal_violation_ms;  // counter differences
  // Names of the reason bits set at the end snapshot: gpu_idle, applications_clocks_setting,
  // sw_power_cap, hw_slowdown, sync_boost, sw_thermal_slowdown, hw_thermal_slowdown,
  // hw_power_brake_slowdown, display_clock_setting; a bit NVML adds later is "bit_<n>".
  std::vector<std::string> clock_event_reasons;
  std::optional<double> energy_per_call_j;  // set by the caller, not by telemetry_between()
};

// The shortest window over which the energy counter's difference is recorded.
inline constexpr double kShortestEnergyWindowS = 1.0;

// A counter that went backwards (driver reloaded, wrapped) gives an empty field, never a negative
// difference; energy (and power from it) only over windows of kShortestEnergyWindowS or more.
GpuTelemetry telemetry_between(const GpuTelemetrySnapshot& start, const GpuTelemetrySnapshot& end);

// A cell whose samples were taken between other cells' (interleaved rounds): the counters read
// around each of its stretches of samples, the differences summed over them. One window gives
// exactly telemetry_between. Energy is the sum of the windows' counter differences, recorded where
// the windows add up to kShortestEnergyWindowS: a window shorter than the counter's step sees a
// step or none, but over many windows whose start falls anywhere in the step the sum is right on
// average (docs/measurement.md). Empty for no window.
std::optional<GpuTelemetry> telemetry_over_windows(
    const std::vector<std::pair<GpuTelemetrySnapshot, GpuTelemetrySnapshot>>& windows);

// Every field, absent values as null; the reasons as an array of names.
nlohmann::json to_json(const GpuTelemetry& telemetry);
// null gives nullopt; reads what to_json writes (throws nlohmann::json::exception on a key that is
// missing or of the wrong type).
std::optional<GpuTelemetry> gpu_telemetry_from_json(const nlohmann::json& j);

namespace detail {
struct NvmlLibrary;
}

// One GPU's counters. NVML is opened once per process (dlopen and nvmlInit_v2) and stays open: it
// is never shut down, so a source can never outlive it.
class GpuTelemetrySource {
 public:
  // The device by its PCI bus id ("0000:19:00.0", as cudaDeviceGetPCIBusId gives it) or, if that
  // is empty, by UUID ("GPU-..."). nullptr with `why_not` set when telemetry cannot be read, e.g.
  // "NVML not found: libnvidia-ml.so.1: cannot open shared object file: ...", "no NVML device with
  // PCI bus id ...", "nvmlInit_v2 failed: <nvmlErrorString>".
  static std::unique_ptr<GpuTelemetrySource> open(const std::string& pci_bus_id,
                                                  const std::string& uuid, std::string& why_not);

  // Never throws; failed queries leave their fields empty.
  GpuTelemetrySnapshot read() const;

 private:
  GpuTelemetrySource(const detail::NvmlLibrary* nvml, void* device)
      : nvml_(nvml), device_(device) {}
  friend std::unique_ptr<GpuTelemetrySource> open_gpu_telemetry_from(const std::string& library,
                                                                     const std::string& pci_bus_id,
                                                                     const std::string& uuid,
                                                                     std::string& why_not);

  const detail::NvmlLibrary* nvml_;  // lives as long as the process
  void* device_;                     // nvmlDevice_t
};

// The same as GpuTelemetrySource::open with a library other than libnvidia-ml.so.1 (for tests).
std::unique_ptr<GpuTelemetrySource> open_gpu_telemetry_from(const std::string& library,
                                                            const std::string& pci_bus_id,
                                                            const std::string& uuid,
                                                            std::string& why_not);

}  // namespace plugbench
