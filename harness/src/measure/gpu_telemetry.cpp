// gpu_telemetry.cpp: reads NVML through dlopen/dlsym (no nvml.h, no link-time dependency) and
// turns two readings into what changed over a cell.
#include "measure/gpu_telemetry.hpp"

#include "base/json_integer.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

namespace plugbench {
namespace {

// The few pieces of NVML's C ABI used here, mirrored from nvml.h (stable across driver versions)
// so that building plugbench never needs the CUDA toolkit or a driver.
using nvmlReturn_t = int;                 // enum nvmlReturn_t
constexpr nvmlReturn_t kNvmlSuccess = 0;  // NVML_SUCCESS
struct nvmlDevice_st;                     // opaque
using nvmlDevice_t = nvmlDevice_st*;
struct nvmlViolationTime_t {  // nvmlViolationTime_t
  unsigned long long referenceTime;
  unsigned long long violationTime;  // ns
};
constexpr int kNvmlTemperatureGpu = 0;     // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU
constexpr int kNvmlClockSm = 1;            // nvmlClockType_t NVML_CLOCK_SM
constexpr int kNvmlPerfPolicyPower = 0;    // nvmlPerfPolicyType_t NVML_PERF_POLICY_POWER
constexpr int kNvmlPerfPolicyThermal = 1;  // nvmlPerfPolicyType_t NVML_PERF_POLICY_THERMAL

// nvmlReturn_t nvmlInit_v2(void)
using InitFn = nvmlReturn_t (*)();
// const char* nvmlErrorString(nvmlReturn_t result)
using ErrorStringFn = const char* (*)(nvmlReturn_t);
// nvmlDeviceGetHandleByPciBusId_v2(const char* pciBusId, nvmlDevice_t* device) and
// nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_t* device)
using HandleByTextFn = nvmlReturn_t (*)(const char*, nvmlDevice_t*);
// nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long* energy), also
// nvmlDeviceGetCurrentClocksEventReasons / ...ThrottleReasons(nvmlDevice_t, unsigned long long*)
using ULongLongFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
// nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned int* power)
using UIntFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);
// nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*) and
// nvmlDeviceGetClockInfo(nvmlDevice_t, nvmlClockType_t, unsigned int*): the enums are int-sized.
using UIntOfKindFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned int*);
// nvmlDeviceGetViolationStatus(nvmlDevice_t, nvmlPerfPolicyType_t, nvmlViolationTime_t*)
using ViolationFn = nvmlReturn_t (*)(nvmlDevice_t, int, nvmlViolationTime_t*);

// NVML's documented nvmlClocksEventReason* bits (nvmlClocksThrottleReason* on older drivers).
struct ReasonBit {
  unsigned long long bit;
  const char* name;
};
constexpr ReasonBit kReasonBits[] = {
    {0x1ULL, "gpu_idle"},                     // nvmlClocksEventReasonGpuIdle
    {0x2ULL, "applications_clocks_setting"},  // nvmlClocksEventReasonApplicationsClocksSetting
    {0x4ULL, "sw_power_cap"},                 // nvmlClocksEventReasonSwPowerCap
    {0x8ULL, "hw_slowdown"},                  // nvmlClocksThrottleReasonHwSlowdown
    {0x10ULL, "sync_boost"},                  // nvmlClocksEventReasonSyncBoost
    {0x20ULL, "sw_thermal_slowdown"},         // nvmlClocksEventReasonSwThermalSlowdown
    {0x40ULL, "hw_thermal_slowdown"},         // nvmlClocksThrottleReasonHwThermalSlowdown
    {0x80ULL, "hw_power_brake_slowdown"},     // nvmlClocksThrottleReasonHwPowerBrakeSlowdown
    {0x100ULL, "display_clock_setting"},      // nvmlClocksEventReasonDisplayClockSetting
};

std::vector<std::string> reason_names(unsigned long long bits) {
  std::vector<std::string> names;
  for (const ReasonBit& reason : kReasonBits) {
    if ((bits & reason.bit) != 0) names.emplace_back(reason.name);
  }
  // A bit a newer driver defines is still recorded, by position, rather than dropped.
  for (int position = 0; position < 64; ++position) {
    const unsigned long long bit = 1ULL << position;
    if ((bits & bit) == 0) continue;
    const bool known = std::any_of(std::begin(kReasonBits), std::end(kReasonBits),
                                   [bit](const ReasonBit& reason) { return reason.bit == bit; });
    if (!known) names.push_back("bit_" + std::to_string(position));
  }
  return names;
}

// end - start of a counter; empty where either is missing or the counter went backwards (the
// driver reloaded, or it wrapped), since no honest difference can be given then.
std::optional<std::uint64_t> counter_difference(const std::optional<std::uint64_t>& start,
                                                const std::optional<std::uint64_t>& end) {
  if (!start || !end || *end < *start) return std::nullopt;
  return *end - *start;
}

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

template <typename T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& value = j.at(key);
  if (value.is_null()) return std::nullopt;
  return value.get<T>();
}

// An entry point, or null where this driver lacks it. A miss's dlerror() text is consumed here so
// that it cannot surface later as the error of someone else's dlopen or dlsym.
template <typename F>
F symbol(void* library, const char* name) {
  void* address = dlsym(library, name);
  if (address == nullptr) dlerror();
  return reinterpret_cast<F>(address);
}

}  // namespace

namespace detail {

// One loaded and initialised NVML: its entry points, each null where this driver lacks it.
struct NvmlLibrary {
  ErrorStringFn error_string = nullptr;
  HandleByTextFn handle_by_pci_bus_id = nullptr;
  HandleByTextFn handle_by_uuid = nullptr;
  ULongLongFn total_energy = nullptr;
  UIntFn power_usage = nullptr;
  UIntOfKindFn temperature = nullptr;
  UIntOfKindFn clock_info = nullptr;
  ViolationFn violation_status = nullptr;
  ULongLongFn clocks_event_reasons = nullptr;
  ULongLongFn clocks_throttle_reasons = nullptr;

  std::string describe(nvmlReturn_t status) const {
    const char* text = error_string ? error_string(status) : nullptr;
    return text ? std::string(text) : "NVML error " + std::to_string(status);
  }
};

}  // namespace detail

namespace {

using detail::NvmlLibrary;

// NVML loaded and initialised, by library path, for the life of the process. Deliberately never
// freed, shut down or unloaded: a source may be read from anywhere until exit, and nvmlShutdown
// under a reader would invalidate its device handle.
std::map<std::string, const NvmlLibrary*>& loaded_libraries() {
  static auto* libraries = new std::map<std::string, const NvmlLibrary*>();
  return *libraries;
}
std::mutex loaded_libraries_mutex;

// dlopen + nvmlInit_v2, once per library path; a failure is not remembered, so a later call tries
// again.
const NvmlLibrary* load_nvml(const std::string& path, std::string& why_not) {
  std::lock_guard<std::mutex> lock(loaded_libraries_mutex);
  if (auto found = loaded_libraries().find(path); found != loaded_libraries().end()) {
    return found->second;
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    why_not = "NVML not found: " + (error ? std::string(error) : path);
    return nullptr;
  }
  auto init = symbol<InitFn>(library, "nvmlInit_v2");
  if (init == nullptr) {
    why_not = "NVML at " + path + " has no nvmlInit_v2 (driver too old?)";
    dlclose(library);
    return nullptr;
  }
  auto nvml = std::make_unique<NvmlLibrary>();
  nvml->error_string = symbol<ErrorStringFn>(library, "nvmlErrorString");
  nvml->handle_by_pci_bus_id = symbol<HandleByTextFn>(library, "nvmlDeviceGetHandleByPciBusId_v2");
  nvml->handle_by_uuid = symbol<HandleByTextFn>(library, "nvmlDeviceGetHandleByUUID");
  nvml->total_energy = symbol<ULongLongFn>(library, "nvmlDeviceGetTotalEnergyConsumption");
  nvml->power_usage = symbol<UIntFn>(library, "nvmlDeviceGetPowerUsage");
  nvml->temperature = symbol<UIntOfKindFn>(library, "nvmlDeviceGetTemperature");
  nvml->clock_info = symbol<UIntOfKindFn>(library, "nvmlDeviceGetClockInfo");
  nvml->violation_status = symbol<ViolationFn>(library, "nvmlDeviceGetViolationStatus");
  nvml->clocks_event_reasons =
      symbol<ULongLongFn>(library, "nvmlDeviceGetCurrentClocksEventReasons");
  nvml->clocks_throttle_reasons =
      symbol<ULongLongFn>(library, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (const nvmlReturn_t status = init(); status != kNvmlSuccess) {
    why_not = "nvmlInit_v2 failed: " + nvml->describe(status);
    dlclose(library);
    return nullptr;
  }
  const NvmlLibrary* kept = nvml.release();
  loaded_libraries().emplace(path, kept);
  return kept;
}

}  // namespace

GpuTelemetry telemetry_between(const GpuTelemetrySnapshot& start, const GpuTelemetrySnapshot& end) {
  GpuTelemetry telemetry;
  // steady_clock does not go backwards; a pair given the wrong way round counts as no time.
  telemetry.seconds = std::max(0.0, std::chrono::duration<double>(end.taken - start.taken).count());
  // The energy counter advances in steps (on the H200, 12 J jumps were seen within a few ms): over
  // a shorter window its difference says nothing about the cell.
  if (auto mj = counter_difference(start.energy_mj, end.energy_mj);
      mj && telemetry.seconds >= kShortestEnergyWindowS) {
    telemetry.energy_j = static_cast<double>(*mj) / 1e3;
  }
  if (telemetry.energy_j && telemetry.seconds > 0) {
    telemetry.mean_power_w = *telemetry.energy_j / telemetry.seconds;
  } else if (start.power_mw && end.power_mw) {
    // Two instantaneous readings: a rough figure, but the only one without the energy counter.
    telemetry.mean_power_w =
        (static_cast<double>(*start.power_mw) + static_cast<double>(*end.power_mw)) / 2e3;
  }
  telemetry.temperature_start_c = start.temperature_c;
  telemetry.temperature_end_c = end.temperature_c;
  if (auto ns = counter_difference(start.power_violation_ns, end.power_violation_ns)) {
    telemetry.power_violation_ms = static_cast<double>(*ns) / 1e6;
  }
  if (auto ns = counter_difference(start.thermal_violation_ns, end.thermal_violation_ns)) {
    telemetry.thermal_violation_ms = static_cast<double>(*ns) / 1e6;
  }
  if (end.clock_event_reasons)
    telemetry.clock_event_reasons = reason_names(*end.clock_event_reasons);
  return telemetry;
}

std::optional<GpuTelemetry> telemetry_over_windows(
    const std::vector<std::pair<GpuTelemetrySnapshot, GpuTelemetrySnapshot>>& windows) {
  if (windows.empty()) return std::nullopt;
  if (windows.size() == 1) return telemetry_between(windows.front().first, windows.front().second);
  GpuTelemetry total;
  std::optional<std::uint64_t> energy_mj = 0, power_violation_ns = 0, thermal_violation_ns = 0;
  double power_sum_mw = 0;
  int power_readings = 0;
  // A field is summed only where every window has it: a sum with holes would be too small.
  auto add = [](std::optional<std::uint64_t>& sum, std::optional<std::uint64_t> part) {
    sum = sum && part ? std::optional<std::uint64_t>(*sum + *part) : std::nullopt;
  };
  for (const auto& [start, end] : windows) {
    total.seconds += std::max(0.0, std::chrono::duration<double>(end.taken - start.taken).count());
    add(energy_mj, counter_difference(start.energy_mj, end.energy_mj));
    add(power_violation_ns, counter_difference(start.power_violation_ns, end.power_violation_ns));
    add(thermal_violation_ns,
        counter_difference(start.thermal_violation_ns, end.thermal_violation_ns));
    for (const GpuTelemetrySnapshot* snapshot : {&start, &end}) {
      if (!snapshot->power_mw) continue;
      power_sum_mw += static_cast<double>(*snapshot->power_mw);
      ++power_readings;
    }
  }
  if (energy_mj && total.seconds >= kShortestEnergyWindowS) {
    total.energy_j = static_cast<double>(*energy_mj) / 1e3;
  }
  if (total.energy_j && total.seconds > 0) {
    total.mean_power_w = *total.energy_j / total.seconds;
  } else if (power_readings > 0) {
    total.mean_power_w = power_sum_mw / power_readings / 1e3;
  }
  total.temperature_start_c = windows.front().first.temperature_c;
  total.temperature_end_c = windows.back().second.temperature_c;
  if (power_violation_ns) total.power_violation_ms = static_cast<double>(*power_violation_ns) / 1e6;
  if (thermal_violation_ns) {
    total.thermal_violation_ms = static_cast<double>(*thermal_violation_ns) / 1e6;
  }
  if (windows.back().second.clock_event_reasons) {
    total.clock_event_reasons = reason_names(*windows.back().second.clock_event_reasons);
  }
  return total;
}

nlohmann::json to_json(const GpuTelemetry& telemetry) {
  return {{"seconds", telemetry.seconds},
          {"energy_j", or_null(telemetry.energy_j)},
          {"mean_power_w", or_null(telemetry.mean_power_w)},
          {"temperature_start_c", or_null(telemetry.temperature_start_c)},
          {"temperature_end_c", or_null(telemetry.temperature_end_c)},
          {"power_violation_ms", or_null(telemetry.power_violation_ms)},
          {"thermal_violation_ms", or_null(telemetry.thermal_violation_ms)},
          {"clock_event_reasons", telemetry.clock_event_reasons},
          {"energy_per_call_j", or_null(telemetry.energy_per_call_j)}};
}

std::optional<GpuTelemetry> gpu_telemetry_from_json(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  GpuTelemetry telemetry;
  telemetry.seconds = j.at("seconds").get<double>();
  telemetry.energy_j = optional_at<double>(j, "energy_j");
  telemetry.mean_power_w = optional_at<double>(j, "mean_power_w");
  for (auto [key, field] : {std::pair{"temperature_start_c", &telemetry.temperature_start_c},
                            std::pair{"temperature_end_c", &telemetry.temperature_end_c}}) {
    if (const nlohmann::json& value = j.at(key); !value.is_null()) {
      *field = json_integer<unsigned>(value);
    }
  }
  telemetry.power_violation_ms = optional_at<double>(j, "power_violation_ms");
  telemetry.thermal_violation_ms = optional_at<double>(j, "thermal_violation_ms");
  telemetry.clock_event_reasons = j.at("clock_event_reasons").get<std::vector<std::string>>();
  telemetry.energy_per_call_j = optional_at<double>(j, "energy_per_call_j");
  return telemetry;
}

std::unique_ptr<GpuTelemetrySource> GpuTelemetrySource::open(const std::string& pci_bus_id,
                                                             const std::string& uuid,
                                                             std::string& why_not) {
  return open_gpu_telemetry_from("libnvidia-ml.so.1", pci_bus_id, uuid, why_not);
}

std::unique_ptr<GpuTelemetrySource> open_gpu_telemetry_from(const std::string& library,
                                                            const std::string& pci_bus_id,
                                                            const std::string& uuid,
                                                            std::string& why_not) {
  if (pci_bus_id.empty() && uuid.empty()) {
    why_not = "no PCI bus id or UUID to find the NVML device by";
    return nullptr;
  }
  const NvmlLibrary* nvml = load_nvml(library, why_not);
  if (nvml == nullptr) return nullptr;
  // The bus id is what CUDA and NVML agree on regardless of CUDA_VISIBLE_DEVICES and MIG; the
  // UUID is the fallback where CUDA could not give it.
  const bool by_bus_id = !pci_bus_id.empty();
  const char* function =
      by_bus_id ? "nvmlDeviceGetHandleByPciBusId_v2" : "nvmlDeviceGetHandleByUUID";
  const HandleByTextFn lookup = by_bus_id ? nvml->handle_by_pci_bus_id : nvml->handle_by_uuid;
  if (lookup == nullptr) {
    why_not = "NVML at " + library + " has no " + function;
    return nullptr;
  }
  nvmlDevice_t device = nullptr;
  const std::string& id = by_bus_id ? pci_bus_id : uuid;
  if (const nvmlReturn_t status = lookup(id.c_str(), &device);
      status != kNvmlSuccess || device == nullptr) {
    why_not = std::string("no NVML device with ") + (by_bus_id ? "PCI bus id " : "UUID ") + id +
              " (" + function + ": " + nvml->describe(status) + ")";
    return nullptr;
  }
  return std::unique_ptr<GpuTelemetrySource>(new GpuTelemetrySource(nvml, device));
}

GpuTelemetrySnapshot GpuTelemetrySource::read() const {
  GpuTelemetrySnapshot snapshot;
  const auto device = static_cast<nvmlDevice_t>(device_);
  // The time stamp is the middle of the energy query: mean power divides the energy by it.
  const auto before = std::chrono::steady_clock::now();
  if (unsigned long long mj = 0;
      nvml_->total_energy && nvml_->total_energy(device, &mj) == kNvmlSuccess) {
    snapshot.energy_mj = mj;
  }
  const auto after = std::chrono::steady_clock::now();
  snapshot.taken = before + (after - before) / 2;
  if (unsigned mw = 0; nvml_->power_usage && nvml_->power_usage(device, &mw) == kNvmlSuccess) {
    snapshot.power_mw = mw;
  }
  if (unsigned c = 0;
      nvml_->temperature && nvml_->temperature(device, kNvmlTemperatureGpu, &c) == kNvmlSuccess) {
    snapshot.temperature_c = c;
  }
  if (unsigned mhz = 0;
      nvml_->clock_info && nvml_->clock_info(device, kNvmlClockSm, &mhz) == kNvmlSuccess) {
    snapshot.sm_clock_mhz = mhz;
  }
  if (nvml_->violation_status) {
    nvmlViolationTime_t power{}, thermal{};
    if (nvml_->violation_status(device, kNvmlPerfPolicyPower, &power) == kNvmlSuccess) {
      snapshot.power_violation_ns = power.violationTime;
    }
    if (nvml_->violation_status(device, kNvmlPerfPolicyThermal, &thermal) == kNvmlSuccess) {
      snapshot.thermal_violation_ns = thermal.violationTime;
    }
  }
  // Newer drivers renamed the throttle-reasons query to event reasons; older ones have only the
  // former, which is also tried should the newer one fail.
  unsigned long long reasons = 0;
  if (nvml_->clocks_event_reasons &&
      nvml_->clocks_event_reasons(device, &reasons) == kNvmlSuccess) {
    snapshot.clock_event_reasons = reasons;
  } else if (nvml_->clocks_throttle_reasons &&
             nvml_->clocks_throttle_reasons(device, &reasons) == kNvmlSuccess) {
    snapshot.clock_event_reasons = reasons;
  }
  return snapshot;
}

}  // namespace plugbench
