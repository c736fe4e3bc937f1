// cell_runner.hpp: runs one kernel on one problem: buffers, the checked call, warm-up, the timed
// samples, and the transfers. Never throws for a plugin's failure: the cell records it.
#pragma once

#include "cell_result.hpp"
#include "gpu_telemetry.hpp"
#include "options.hpp"
#include "plugin_session.hpp"

namespace plugbench {

struct RunSettings {
  CacheMode cache = CacheMode::cold;
  HostMemoryMode host_memory = HostMemoryMode::pageable;
  std::optional<int> repetitions;  // empty: automatic within cell_budget
  double min_time = 0;
  int warmup = 1;
  double cell_budget = 2.0;
  // A GPU sample whose SM clock is below this fraction of the default clock is dropped and
  // retaken (0: keep every sample).
  double throttle_threshold = 0.75;
};

// Samples to take for a cell whose checked call took `call_ms`.
int automatic_repetitions(double call_ms, double cell_budget_seconds);

// `telemetry` (may be null): the device's NVML counters, read around the kernel's samples.
CellResult run_cell(const Workload& workload, const ProblemData& problem,
                    const Reference& reference, const PluginSession& session,
                    const KernelRecord& kernel, const RunSettings& settings,
                    const GpuTelemetrySource* telemetry = nullptr);

// The status name for a plugin's pb_status.
const char* cell_status_for(pb_status status);

}  // namespace plugbench
