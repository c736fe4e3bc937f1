// fake_nvml.hpp: what the fake NVML library (fake_nvml.cpp) answers, scripted by
// test_gpu_telemetry.cpp through fake_nvml_script() looked up with dlsym.
#pragma once

extern "C" {

// NVML return codes the fake gives (nvmlReturn_t in nvml.h).
enum FakeNvmlStatus {
  kFakeNvmlSuccess = 0,          // NVML_SUCCESS
  kFakeNvmlInvalidArgument = 2,  // NVML_ERROR_INVALID_ARGUMENT
  kFakeNvmlNotSupported = 3,     // NVML_ERROR_NOT_SUPPORTED
  kFakeNvmlNotFound = 6,         // NVML_ERROR_NOT_FOUND
  kFakeNvmlDriverNotLoaded = 9,  // NVML_ERROR_DRIVER_NOT_LOADED
};

// The fake's one device and its readings. A query answers its value while its status is
// kFakeNvmlSuccess and fails with that status otherwise.
struct FakeNvmlScript {
  // Found by this PCI bus id in any spelling NVML accepts ("0000:19:00.0", "00000000:19:00.0").
  unsigned pci_domain, pci_bus, pci_device, pci_function;
  char uuid[96];
  unsigned long long energy_mj;
  int energy_status;
  unsigned power_mw;
  int power_status;
  unsigned temperature_c;
  int temperature_status;
  unsigned sm_clock_mhz;
  int clock_status;
  unsigned long long power_violation_ns, thermal_violation_ns;
  int violation_status;
  unsigned long long clock_event_reasons;
  int reasons_status;
};

typedef struct FakeNvmlScript* (*FakeNvmlScriptFn)(void);
typedef int (*FakeNvmlCountFn)(void);
// The script the fake answers from (named "fake_nvml_script").
struct FakeNvmlScript* fake_nvml_script(void);
// How often nvmlInit_v2 and nvmlShutdown were called ("fake_nvml_init_calls",
// "fake_nvml_shutdown_calls").
int fake_nvml_init_calls(void);
int fake_nvml_shutdown_calls(void);
}
