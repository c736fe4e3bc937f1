// cell_protocol.cpp: the protocol for one cell. Allocation, copies and verification stay outside
// the timed region; the timed region is exactly the kernel call (and, for end-to-end figures, the
// copies around it), bracketed by the plugin's own timer.
#include "measure/cell_protocol.hpp"

#include "measure/buffer_contract.hpp"
#include "measure/cell_identity.hpp"
#include "measure/kernel_timer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace plugbench {
namespace {

// Problem buffers of one cell in the plugin's memory.
struct CellBuffers {
  std::vector<PluginBuffer> inputs;
  std::vector<PluginBuffer> outputs;
  std::optional<PluginBuffer> workspace;
  std::vector<const void*> input_pointers;
  std::vector<void*> output_pointers;
  pb_buffers view{};
};

std::uint64_t workspace_bytes_for(const PluginSession& session, const KernelRecord& kernel,
                                  const pb_problem& params) {
  if (kernel.table->workspace_bytes == nullptr) return 0;
  std::uint64_t bytes = 0;
  ErrorBuffer error;
  check_call(
      kernel.table->workspace_bytes(kernel.table, session.handle(), &params, &bytes, error.get()),
      "workspace_bytes", error);
  return bytes;
}

CellBuffers allocate_buffers(const PluginSession& session, const ProblemData& problem,
                             std::uint64_t workspace_bytes) {
  CellBuffers buffers;
  for (const HostArray& input : problem.inputs) {
    buffers.inputs.emplace_back(session, input.size_bytes());
    buffers.inputs.back().copy_in(input.data(), input.size_bytes());
    buffers.input_pointers.push_back(buffers.inputs.back().get());
  }
  // Exactly the bytes the layout table gives an output, then the guard (buffer_contract.hpp).
  for (const OutputSpec& output : problem.outputs) {
    buffers.outputs.emplace_back(session,
                                 output.count * element_size(output.type) + kOutputGuardBytes);
    buffers.output_pointers.push_back(buffers.outputs.back().get());
  }
  if (workspace_bytes > 0) buffers.workspace.emplace(session, workspace_bytes);
  buffers.view.struct_size = sizeof(pb_buffers);
  buffers.view.input_count = static_cast<std::uint32_t>(buffers.input_pointers.size());
  buffers.view.inputs = buffers.input_pointers.data();
  buffers.view.output_count = static_cast<std::uint32_t>(buffers.output_pointers.size());
  buffers.view.outputs = buffers.output_pointers.data();
  buffers.view.workspace = buffers.workspace ? buffers.workspace->get() : nullptr;
  buffers.view.workspace_bytes = workspace_bytes;
  return buffers;
}

void call_kernel(const PluginSession& session, const KernelRecord& kernel, const pb_problem& params,
                 const pb_buffers& buffers) {
  ErrorBuffer error;
  check_call(kernel.table->run(kernel.table, session.handle(), &params, &buffers, error.get()),
             "the kernel", error);
}

// What a checked call found: the answer's verification, and how the kernel broke the buffer
// contract (wrote an input, or past an output), if it did.
struct CheckedCall {
  Verification verification;
  std::vector<ContractBreach> breaches;

  bool passed() const { return verification.passed && breaches.empty(); }
  // The cell's verification: a breach fails it even when the answer is right.
  Verification recorded() const {
    if (breaches.empty()) return verification;
    Verification v = verification;
    v.passed = false;
    v.error_measure = breaches.front().error_measure;
    v.error = breaches.front().error;
    v.tolerance = 0;
    v.detail = failure();
    return v;
  }
  // The cell's message when it did not pass.
  std::string failure() const {
    std::string text;
    for (const ContractBreach& breach : breaches) {
      text += (text.empty() ? "" : "; ") + breach.message;
    }
    if (!verification.passed) {
      text += (text.empty() ? "wrong answer: " : "; and a wrong answer: ") + verification.detail;
    }
    return text;
  }
};

// Whether a checked call fills the guards after the outputs: the first does; a later one keeps
// what the calls between left there, so that an overrun in the timed calls is caught too.
enum class Guards { fill, keep };

// The checked call: outputs poisoned, the kernel run once, outputs read back and verified, inputs
// and the guards after the outputs checked.
CheckedCall checked_call(const Workload& workload, const ProblemData& problem,
                         const Reference& reference, const PluginSession& session,
                         const KernelRecord& kernel, const pb_problem& params,
                         const CellBuffers& buffers, KernelTimer& timer, double& call_ms,
                         Guards guards) {
  std::vector<HostArray> outputs = problem.make_outputs();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].fill_bytes(0xA5);  // poison: an output the kernel never writes cannot pass
    buffers.outputs[i].copy_in(outputs[i].data(), outputs[i].size_bytes());
    if (guards == Guards::fill)
      fill_output_guard(session, buffers.outputs[i].get(), outputs[i].size_bytes());
    outputs[i].fill_bytes(0x5A);  // a different poison: a copy_out that does nothing cannot pass
  }
  session.sync();
  call_ms = timer.first_call([&] { call_kernel(session, kernel, params, buffers.view); });
  session.sync();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    buffers.outputs[i].copy_out(outputs[i].data(), outputs[i].size_bytes());
  }
  CheckedCall checked;
  checked.verification = workload.verify(problem, reference, outputs);
  checked.breaches =
      find_contract_breaches(session, problem, buffers.input_pointers, buffers.output_pointers);
  return checked;
}

TransferResult measure_transfers(const ProblemData& problem, const PluginSession& session,
                                 const KernelRecord& kernel, const pb_problem& params,
                                 const CellBuffers& buffers, pb_host_memory kind,
                                 const RunSettings& settings, const MeasureSettings& measure_with,
                                 const std::string& name) {
  // Staging buffers hold the inputs in the kind of host memory asked for.
  std::vector<HostStaging> inputs, outputs;
  std::vector<HostArray> pageable_outputs = problem.make_outputs();
  std::vector<const void*> input_sources;
  std::vector<void*> output_targets;
  for (const HostArray& input : problem.inputs) {
    if (kind == PB_HOST_PINNED) {
      inputs.emplace_back(session, input.size_bytes(), kind);
      if (input.size_bytes()) std::memcpy(inputs.back().get(), input.data(), input.size_bytes());
      input_sources.push_back(inputs.back().get());
    } else {
      input_sources.push_back(input.data());
    }
  }
  for (HostArray& output : pageable_outputs) {
    if (kind == PB_HOST_PINNED) {
      outputs.emplace_back(session, output.size_bytes(), kind);
      output_targets.push_back(outputs.back().get());
    } else {
      output_targets.push_back(output.data());
    }
  }
  auto sample = [&] {
    if (settings.cache == CacheMode::cold) session.flush_cache();
    Sample s;
    s.parts_ms["copy_in"] = session.timed([&] {
      for (std::size_t i = 0; i < buffers.inputs.size(); ++i) {
        buffers.inputs[i].copy_in(input_sources[i], problem.inputs[i].size_bytes());
      }
    });
    s.parts_ms["kernel"] =
        session.timed([&] { call_kernel(session, kernel, params, buffers.view); });
    s.parts_ms["copy_out"] = session.timed([&] {
      for (std::size_t i = 0; i < buffers.outputs.size(); ++i) {
        buffers.outputs[i].copy_out(output_targets[i], pageable_outputs[i].size_bytes());
      }
    });
    s.total_ms = s.parts_ms["copy_in"] + s.parts_ms["kernel"] + s.parts_ms["copy_out"];
    return s;
  };
  Measurement m = measure(name, measure_with, sample);
  TransferResult result;
  result.host_memory = kind == PB_HOST_PINNED ? "pinned" : "pageable";
  result.copy_in = m.parts["copy_in"];
  result.copy_out = m.parts["copy_out"];
  result.end_to_end = m.total;
  return result;
}

}  // namespace

// A call that ended the cell early decides its status, except over a wrong answer: a failed
// verification is never hidden by what a later call reported (PB_UNSUPPORTED after a wrong answer
// would otherwise pass for a kernel that merely refused the problem).
void end_cell(CellResult& cell, CellStatus status_now, const std::string& message) {
  if (cell.status == CellStatus::failed) {
    cell.message += "; a later call then ended the cell (" + std::string(to_string(status_now)) +
                    "): " + message;
    return;
  }
  cell.status = status_now;
  cell.message = message;
}

CellStatus cell_status_for(pb_status code) {
  switch (code) {
    case PB_OK:
      return CellStatus::ok;
    case PB_UNSUPPORTED:
      return CellStatus::unsupported;
    case PB_OUT_OF_MEMORY:
      return CellStatus::oom;
    case PB_UNAVAILABLE:
      return CellStatus::unavailable;
    case PB_ERROR:
      break;
  }
  return CellStatus::error;
}

int automatic_repetitions(double call_ms, double cell_budget_seconds) {
  if (call_ms <= 0) return kDefaultRepetitions;
  double fitting = cell_budget_seconds * 1e3 / call_ms;
  return static_cast<int>(std::clamp(std::floor(fitting), double{kMinAutomaticRepetitions},
                                     double{kDefaultRepetitions}));
}

// Everything an open cell holds between its samples.
struct OpenCell::State {
  const Workload& workload;
  const ProblemData& problem;
  const Reference& reference;
  const PluginSession& session;
  const KernelRecord& kernel;
  RunSettings settings;
  const GpuTelemetrySource* telemetry;
  CellResult cell;
  pb_problem params{};
  std::unique_ptr<CellBuffers> buffers;
  std::unique_ptr<KernelTimer> timer;
  MeasureSettings measure_with;
  std::string name;
  double flush_ms = 0;
  bool ended = false;   // a call ended the cell early: no more samples
  bool paused = false;  // other cells ran since its last sample
  std::vector<double> samples_ms;
  std::int64_t iterations = 1;
  // The telemetry around each stretch of samples; the one open, if any.
  std::vector<std::pair<GpuTelemetrySnapshot, GpuTelemetrySnapshot>> windows;
  std::optional<GpuTelemetrySnapshot> window_start;

  State(const Workload& w, const ProblemData& p, const Reference& r, const PluginSession& s,
        const KernelRecord& k, const RunSettings& settings_in, const GpuTelemetrySource* t)
      : workload(w),
        problem(p),
        reference(r),
        session(s),
        kernel(k),
        settings(settings_in),
        telemetry(t) {}

  void end(CellStatus status_now, const std::string& message) {
    end_cell(cell, status_now, message);
    ended = true;
  }
  void close_window() {
    if (window_start && telemetry) windows.emplace_back(*window_start, telemetry->read());
    window_start.reset();
  }
  void open();
  void finish();
};

OpenCell::OpenCell(const Workload& workload, const ProblemData& problem, const Reference& reference,
                   const PluginSession& session, const KernelRecord& kernel,
                   const RunSettings& settings, const GpuTelemetrySource* telemetry)
    : state_(std::make_unique<State>(workload, problem, reference, session, kernel, settings,
                                     telemetry)) {
  state_->open();
}

OpenCell::~OpenCell() = default;

void OpenCell::State::open() {
  cell = named_cell(session.plugin(), problem.workload, kernel.variant, problem.distribution,
                    problem.shape);
  cell.flags = kernel.flags;
  cell.traffic = workload.traffic(problem, reference);
  if (kernel.max_n != 0 && problem.shape.n > kernel.max_n) {
    cell.status = CellStatus::unsupported;
    cell.message = "n = " + std::to_string(problem.shape.n) + " exceeds the kernel's limit of " +
                   std::to_string(kernel.max_n);
    ended = true;
    return;
  }
  params = problem.params;
  params.workload = problem.workload.c_str();
  try {
    cell.team = session.execution_context();
    cell.workspace_bytes = workspace_bytes_for(session, kernel, params);
    buffers =
        std::make_unique<CellBuffers>(allocate_buffers(session, problem, cell.workspace_bytes));
    timer = std::make_unique<KernelTimer>(session, kernel, settings.throttle_threshold);

    double call_ms = 0;
    const CheckedCall first = checked_call(workload, problem, reference, session, kernel, params,
                                           *buffers, *timer, call_ms, Guards::fill);
    cell.verification = first.recorded();
    if (!first.passed()) {
      cell.status = CellStatus::failed;
      cell.message = first.failure();
    }
    for (int i = 0; i < settings.warmup; ++i) call_kernel(session, kernel, params, buffers->view);
    session.sync();

    // The budget is time the user waits: with --cache cold every sample also pays a flush (tens
    // of ms on a CPU with a large last-level cache), so the flush counts against it.
    if (settings.cache == CacheMode::cold) {
      // A process's first flush maps its flush buffer's pages (a multiple of the last-level
      // cache): that one, far slower than the rest, would cut the cell's samples to the minimum.
      session.flush_cache();
      session.sync();
      auto started = std::chrono::steady_clock::now();
      session.flush_cache();
      session.sync();
      flush_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
    }
    measure_with.repetitions = settings.repetitions.value_or(
        automatic_repetitions(call_ms + flush_ms, settings.cell_budget));
    measure_with.min_time = settings.min_time;
    name = cell.workload + "/" + cell.plugin + "/" + cell.variant + "/" +
           std::to_string(problem.shape.n) + "/" + cell.distribution;
  } catch (const PluginCallError& e) {
    end(cell_status_for(e.status()), e.what());
  } catch (const std::bad_alloc&) {
    end(CellStatus::oom, "the harness ran out of host memory for this problem");
  }
}

std::optional<MemoryPattern> OpenCell::host_pattern() const {
  const CellResult& cell = state_->cell;
  if (cell.memory_space != MemorySpace::host || !cell.traffic || !cell.traffic->work_unit.empty()) {
    return std::nullopt;
  }
  return cell.traffic->pattern;
}

int OpenCell::repetitions() const {
  return state_->ended ? 0 : state_->measure_with.repetitions;
}

int OpenCell::samples_taken() const {
  return static_cast<int>(state_->samples_ms.size());
}

bool OpenCell::wants_sample() const {
  return !state_->ended && samples_taken() < state_->measure_with.repetitions;
}

std::optional<double> OpenCell::take_sample() {
  State& s = *state_;
  if (!wants_sample()) return std::nullopt;
  try {
    const std::function<void()> call = [&s] {
      call_kernel(s.session, s.kernel, s.params, s.buffers->view);
    };
    // With warm caches the cell's data must be where its last call left it: other cells ran
    // since (interleaved rounds), so an untimed call, outside the telemetry window, puts it back,
    // as the sample before would.
    if (s.settings.cache == CacheMode::warm && s.paused) {
      call();
      s.session.sync();
    }
    s.paused = false;
    if (s.telemetry && !s.window_start) s.window_start = s.telemetry->read();
    // One repetition: with --min-time, Google Benchmark repeats the call until it fills the time
    // and gives the mean per call; the count its first repetition found serves the rest.
    const std::int64_t found =
        s.measure_with.min_time > 0 && !s.samples_ms.empty() ? s.iterations : 0;
    Measurement one = measure(s.name, {1, s.measure_with.min_time, found}, [&] {
      Sample sample;
      sample.total_ms = s.timer->sample(call, s.settings.cache == CacheMode::cold);
      return sample;
    });
    if (one.total.samples_ms.empty()) {
      throw PluginCallError(PB_ERROR,
                            "the harness's sampling (Google Benchmark) returned no repetition; "
                            "is BENCHMARK_FILTER or another BENCHMARK_ variable set?");
    }
    s.iterations = one.total.iterations;
    s.samples_ms.push_back(one.total.samples_ms.front());
    return s.samples_ms.back();
  } catch (const PluginCallError& e) {
    s.close_window();
    s.end(cell_status_for(e.status()), e.what());
  } catch (const std::bad_alloc&) {
    s.close_window();
    s.end(CellStatus::oom, "the harness ran out of host memory for this problem");
  }
  return std::nullopt;
}

void OpenCell::continue_from(const std::vector<double>& samples_ms, int repetitions) {
  if (state_->ended) return;
  state_->samples_ms = samples_ms;
  state_->measure_with.repetitions = repetitions;
}

void OpenCell::pause() {
  state_->close_window();
  state_->paused = true;
}

CellResult OpenCell::finish() {
  state_->close_window();
  if (!state_->ended && state_->buffers) state_->finish();
  return std::move(state_->cell);
}

void OpenCell::State::finish() {
  try {
    cell.kernel = summarize_samples(samples_ms, iterations);
    cell.sampling = timer->record();
    if (cell.kernel->median_ms <= 0) {
      throw PluginCallError(PB_ERROR,
                            "the plugin's timer measured the kernel at a median of 0 ms over " +
                                std::to_string(cell.kernel->repetitions) +
                                " samples: no kernel call takes no time, so its rate cannot be "
                                "computed; fix the plugin's timer");
    }
    if (std::optional<GpuTelemetry> over = telemetry_over_windows(windows)) {
      cell.telemetry = over;
      // Per call only where the counter's resolution allows it (a second or more), no flush
      // shares the windows, and the calls fill at least 80 % of them: otherwise the idle gaps
      // between them would be most of the energy (docs/measurement.md).
      const double busy_fraction =
          cell.telemetry->seconds > 0 ? timer->busy_ms() / 1e3 / cell.telemetry->seconds : 0;
      if (settings.cache == CacheMode::warm && cell.telemetry->seconds >= 1.0 &&
          busy_fraction >= 0.8 && cell.telemetry->energy_j && timer->calls() > 0) {
        cell.telemetry->energy_per_call_j = *cell.telemetry->energy_j / double(timer->calls());
      }
    }

    if (cell.status == CellStatus::ok) {
      // A kernel that did the work only on the checked call and returned at once afterwards would
      // be verified and timed at an impossible speed: the timed calls must produce the answer too.
      // After the telemetry windows, which hold the samples alone.
      double ignored_ms = 0;
      const CheckedCall again = checked_call(workload, problem, reference, session, kernel, params,
                                             *buffers, *timer, ignored_ms, Guards::keep);
      if (!again.passed()) {
        cell.verification = again.recorded();
        cell.status = CellStatus::failed;
        cell.message = !again.breaches.empty()
                           ? "after the timed calls: " + again.failure()
                           : "the timed calls did not produce the answer: outputs poisoned "
                             "before a last timed call were left wrong (" +
                                 again.verification.detail + ")";
      }
    }

    if (session.plugin().memory_space == MemorySpace::device) {
      std::vector<pb_host_memory> kinds;
      if (settings.host_memory != HostMemoryMode::pinned) kinds.push_back(PB_HOST_PAGEABLE);
      if (settings.host_memory != HostMemoryMode::pageable) kinds.push_back(PB_HOST_PINNED);
      // Whole round trips cost far more than the kernel: fewer samples within the same budget.
      double round_trip_ms = session.timed([&] {
        for (std::size_t i = 0; i < buffers->inputs.size(); ++i) {
          buffers->inputs[i].copy_in(problem.inputs[i].data(), problem.inputs[i].size_bytes());
        }
      }) + cell.kernel->median_ms;
      MeasureSettings transfer_with = measure_with;
      transfer_with.repetitions = settings.repetitions.value_or(
          automatic_repetitions(2 * round_trip_ms + flush_ms, settings.cell_budget));
      for (pb_host_memory kind : kinds) {
        cell.transfers.push_back(measure_transfers(problem, session, kernel, params, *buffers, kind,
                                                   settings, transfer_with, name + "/end_to_end"));
      }
      cell.end_to_end = cell.transfers.front().end_to_end;
    } else {
      cell.end_to_end = cell.kernel;  // host memory: nothing to move
    }
  } catch (const PluginCallError& e) {
    end(cell_status_for(e.status()), e.what());
  } catch (const std::bad_alloc&) {
    end(CellStatus::oom, "the harness ran out of host memory for this problem");
  }
}

CellResult measure_cell(const Workload& workload, const ProblemData& problem,
                        const Reference& reference, const PluginSession& session,
                        const KernelRecord& kernel, const RunSettings& settings,
                        const GpuTelemetrySource* telemetry) {
  OpenCell cell(workload, problem, reference, session, kernel, settings, telemetry);
  while (cell.wants_sample()) cell.take_sample();
  return cell.finish();
}

}  // namespace plugbench
