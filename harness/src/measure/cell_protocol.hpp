// cell_protocol.hpp: the measurement protocol of one cell, one kernel on one problem: buffers, the
// checked call, warm-up, the timed samples, and the transfers. Never throws for a plugin's
// failure: the cell records it.
#pragma once

#include "load/plugin_session.hpp"
#include "measure/cell_result.hpp"
#include "measure/gpu_telemetry.hpp"
#include "measure/run_settings.hpp"

namespace plugbench {

constexpr int kDefaultRepetitions = 20;
constexpr int kMinAutomaticRepetitions = 3;

// Samples to take for a cell whose checked call took `call_ms`.
int automatic_repetitions(double call_ms, double cell_budget_seconds);

// `telemetry` (may be null): the device's NVML counters, read around the kernel's samples.
CellResult measure_cell(const Workload& workload, const ProblemData& problem,
                        const Reference& reference, const PluginSession& session,
                        const KernelRecord& kernel, const RunSettings& settings,
                        const GpuTelemetrySource* telemetry = nullptr);

// Ends `cell` early with `status_now` and `message`, except over a wrong answer: a failed
// verification is never hidden by what a later call reported; the message then says both.
void end_cell(CellResult& cell, const char* status_now, const std::string& message);

// The status name for a plugin's pb_status.
const char* cell_status_for(pb_status status);

}  // namespace plugbench
