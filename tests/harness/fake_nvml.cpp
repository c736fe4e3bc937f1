// fake_nvml.cpp: a stand-in for libnvidia-ml.so.1 exporting the NVML entry points plugbench uses,
// answering from a script the tests set (fake_nvml.hpp), so GPU telemetry is tested without a GPU.
// Variants leave entry points out, as older or broken installations do:
//   FAKE_NVML_OLD_DRIVER  no nvmlDeviceGetCurrentClocksEventReasons (only the throttle-reasons
//                         name) and no nvmlDeviceGetTotalEnergyConsumption
//   FAKE_NVML_INIT_FAILS  nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED
//   FAKE_NVML_NO_INIT     no nvmlInit_v2
//   FAKE_NVML_NO_LOOKUP   neither nvmlDeviceGetHandleByPciBusId_v2 nor nvmlDeviceGetHandleByUUID
#include "fake_nvml.hpp"

#include <cstdio>
#include <cstring>

// Exported whatever the default visibility of the build.
#define FAKE_NVML_EXPORT __attribute__((visibility("default")))

namespace {

// The NVML types the exports take, mirrored from nvml.h as the harness mirrors them.
struct FakeDevice {
  int unused;
};
struct ViolationTime {  // nvmlViolationTime_t
  unsigned long long referenceTime;
  unsigned long long violationTime;
};

FakeDevice the_device;
FakeNvmlScript script{};  // set by each test
int init_calls = 0;
int shutdown_calls = 0;

struct PciAddress {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
};

// NVML's accepted spellings, all hexadecimal: domain:bus:device.function, domain:bus:device,
// bus:device.function. Unused in the variant without the lookups.
[[maybe_unused]] bool parse_bus_id(const char* text, PciAddress& address) {
  int used = 0;
  if (std::sscanf(text, "%x:%x:%x.%x%n", &address.domain, &address.bus, &address.device,
                  &address.function, &used) == 4 &&
      text[used] == '\0') {
    return true;
  }
  address = PciAddress{};
  used = 0;
  if (std::sscanf(text, "%x:%x:%x%n", &address.domain, &address.bus, &address.device, &used) == 3 &&
      text[used] == '\0') {
    return true;
  }
  address = PciAddress{};
  used = 0;
  return std::sscanf(text, "%x:%x.%x%n", &address.bus, &address.device, &address.function, &used) ==
             3 &&
         text[used] == '\0';
}

bool is_the_device(const FakeDevice* device) {
  return device == &the_device;
}

}  // namespace

extern "C" {

FAKE_NVML_EXPORT FakeNvmlScript* fake_nvml_script(void) {
  return &script;
}
FAKE_NVML_EXPORT int fake_nvml_init_calls(void) {
  return init_calls;
}
FAKE_NVML_EXPORT int fake_nvml_shutdown_calls(void) {
  return shutdown_calls;
}

#ifndef FAKE_NVML_NO_INIT
FAKE_NVML_EXPORT int nvmlInit_v2(void) {
  ++init_calls;
#ifdef FAKE_NVML_INIT_FAILS
  return kFakeNvmlDriverNotLoaded;
#else
  return kFakeNvmlSuccess;
#endif
}
#endif

// Older than nvmlInit_v2, present in every driver; the harness must not settle for it.
FAKE_NVML_EXPORT int nvmlInit(void) {
  ++init_calls;
  return kFakeNvmlSuccess;
}

FAKE_NVML_EXPORT int nvmlShutdown(void) {
  ++shutdown_calls;
  return kFakeNvmlSuccess;
}

FAKE_NVML_EXPORT const char* nvmlErrorString(int status) {
  switch (status) {
    case kFakeNvmlSuccess:
      return "Success";
    case kFakeNvmlInvalidArgument:
      return "Invalid Argument";
    case kFakeNvmlNotSupported:
      return "Not Supported";
    case kFakeNvmlNotFound:
      return "Not Found";
    case kFakeNvmlDriverNotLoaded:
      return "Driver Not Loaded";
    default:
      return "Unknown Error";
  }
}

#ifndef FAKE_NVML_NO_LOOKUP
FAKE_NVML_EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, FakeDevice** device) {
  if (bus_id == nullptr || device == nullptr) return kFakeNvmlInvalidArgument;
  PciAddress address;
  if (!parse_bus_id(bus_id, address)) return kFakeNvmlInvalidArgument;
  if (address.domain != script.pci_domain || address.bus != script.pci_bus ||
      address.device != script.pci_device || address.function != script.pci_function) {
    return kFakeNvmlNotFound;
  }
  *device = &the_device;
  return kFakeNvmlSuccess;
}

FAKE_NVML_EXPORT int nvmlDeviceGetHandleByUUID(const char* uuid, FakeDevice** device) {
  if (uuid == nullptr || device == nullptr) return kFakeNvmlInvalidArgument;
  if (std::strcmp(uuid, script.uuid) != 0) return kFakeNvmlNotFound;
  *device = &the_device;
  return kFakeNvmlSuccess;
}
#endif

#ifndef FAKE_NVML_OLD_DRIVER
FAKE_NVML_EXPORT int nvmlDeviceGetTotalEnergyConsumption(FakeDevice* device,
                                                         unsigned long long* energy) {
  if (!is_the_device(device) || energy == nullptr) return kFakeNvmlInvalidArgument;
  if (script.energy_status != kFakeNvmlSuccess) return script.energy_status;
  *energy = script.energy_mj;
  return kFakeNvmlSuccess;
}
#endif

FAKE_NVML_EXPORT int nvmlDeviceGetPowerUsage(FakeDevice* device, unsigned* power) {
  if (!is_the_device(device) || power == nullptr) return kFakeNvmlInvalidArgument;
  if (script.power_status != kFakeNvmlSuccess) return script.power_status;
  *power = script.power_mw;
  return kFakeNvmlSuccess;
}

// Only NVML_TEMPERATURE_GPU (0) is a sensor.
FAKE_NVML_EXPORT int nvmlDeviceGetTemperature(FakeDevice* device, int sensor,
                                              unsigned* temperature) {
  if (!is_the_device(device) || sensor != 0 || temperature == nullptr) {
    return kFakeNvmlInvalidArgument;
  }
  if (script.temperature_status != kFakeNvmlSuccess) return script.temperature_status;
  *temperature = script.temperature_c;
  return kFakeNvmlSuccess;
}

// Only NVML_CLOCK_SM (1) is scripted; another clock answers something else, to be caught.
FAKE_NVML_EXPORT int nvmlDeviceGetClockInfo(FakeDevice* device, int type, unsigned* clock) {
  if (!is_the_device(device) || clock == nullptr) return kFakeNvmlInvalidArgument;
  if (script.clock_status != kFakeNvmlSuccess) return script.clock_status;
  *clock = type == 1 ? script.sm_clock_mhz : 1;
  return kFakeNvmlSuccess;
}

// NVML_PERF_POLICY_POWER (0) and NVML_PERF_POLICY_THERMAL (1).
FAKE_NVML_EXPORT int nvmlDeviceGetViolationStatus(FakeDevice* device, int policy,
                                                  ViolationTime* time) {
  if (!is_the_device(device) || time == nullptr || (policy != 0 && policy != 1)) {
    return kFakeNvmlInvalidArgument;
  }
  if (script.violation_status != kFakeNvmlSuccess) return script.violation_status;
  time->referenceTime = 1;
  time->violationTime = policy == 0 ? script.power_violation_ns : script.thermal_violation_ns;
  return kFakeNvmlSuccess;
}

static int current_reasons(FakeDevice* device, unsigned long long* reasons) {
  if (!is_the_device(device) || reasons == nullptr) return kFakeNvmlInvalidArgument;
  if (script.reasons_status != kFakeNvmlSuccess) return script.reasons_status;
  *reasons = script.clock_event_reasons;
  return kFakeNvmlSuccess;
}

#ifndef FAKE_NVML_OLD_DRIVER
FAKE_NVML_EXPORT int nvmlDeviceGetCurrentClocksEventReasons(FakeDevice* device,
                                                            unsigned long long* reasons) {
  return current_reasons(device, reasons);
}
#endif

FAKE_NVML_EXPORT int nvmlDeviceGetCurrentClocksThrottleReasons(FakeDevice* device,
                                                               unsigned long long* reasons) {
  return current_reasons(device, reasons);
}

}  // extern "C"
