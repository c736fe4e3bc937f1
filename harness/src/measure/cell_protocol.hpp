// cell_protocol.hpp: the measurement protocol of one cell, one kernel on one problem: buffers, the
// checked call, warm-up, the timed samples, and the transfers. Never throws for a plugin's
// failure: the cell records it.
#pragma once

#include "load/plugin_session.hpp"
#include "measure/cell_result.hpp"
#include "measure/gpu_telemetry.hpp"
#include "measure/run_settings.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace plugbench {

constexpr int kDefaultRepetitions = 20;
constexpr int kMinAutomaticRepetitions = 3;

// Samples to take for a cell whose checked call took `call_ms`.
int automatic_repetitions(double call_ms, double cell_budget_seconds);

// One cell opened for sampling: its buffers allocated and filled, its first call checked, warmed
// up, its count of samples decided. Its samples may then be taken one at a time, between other
// cells' (interleaved rounds, docs/measurement.md), and it is finished once: the samples
// summarised, the answer checked again, the transfers timed. Never throws for a plugin's failure:
// a call that fails ends the cell, and finish() returns it with the status and why.
class OpenCell {
 public:
  // `telemetry` (may be null): the device's NVML counters, read around the kernel's samples.
  // The references must outlive the cell.
  OpenCell(const Workload& workload, const ProblemData& problem, const Reference& reference,
           const PluginSession& session, const KernelRecord& kernel, const RunSettings& settings,
           const GpuTelemetrySource* telemetry = nullptr);
  ~OpenCell();
  OpenCell(const OpenCell&) = delete;
  OpenCell& operator=(const OpenCell&) = delete;

  // The host reference loop its samples are held to: a host plugin's cell of a workload measured
  // in bytes; nullopt otherwise.
  std::optional<MemoryPattern> host_pattern() const;
  // The samples it takes in all (0 when it ended before its first).
  int repetitions() const;
  int samples_taken() const;
  bool wants_sample() const;
  // One sample (with --min-time, the mean of the calls that fill it), in ms; nullopt when the
  // cell wants no more or a call ended it.
  std::optional<double> take_sample();
  // The cell reopened in a fresh worker after the one that held it died in another cell: the
  // samples taken there count, and it takes as many in all as it was first given.
  void continue_from(const std::vector<double>& samples_ms, int repetitions);
  // Another cell's samples come next: the telemetry window around this cell's closes.
  void pause();
  // The cell, once: call no other member after it.
  CellResult finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A whole cell at once: open, every sample, finish.
CellResult measure_cell(const Workload& workload, const ProblemData& problem,
                        const Reference& reference, const PluginSession& session,
                        const KernelRecord& kernel, const RunSettings& settings,
                        const GpuTelemetrySource* telemetry = nullptr);

// Ends `cell` early with `status_now` and `message`, except over a wrong answer: a failed
// verification is never hidden by what a later call reported; the message then says both.
void end_cell(CellResult& cell, CellStatus status_now, const std::string& message);

// The status name for a plugin's pb_status.
CellStatus cell_status_for(pb_status status);

}  // namespace plugbench
