// calibration.cpp: peak bandwidth measurements, repeated and summarised by measure().
#include "measure/calibration.hpp"

#include "load/plugin_text.hpp"
#include "measure/host_stream_loops.hpp"
#include "measure/measurement.hpp"

#include <plugbench/host_services.hpp>

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace plugbench {
namespace {

constexpr std::uint64_t kHugePage = 2ull << 20;
constexpr std::uint64_t kSmallestHostBuffer = 64ull << 20;

// The test suite's calibration: buffers that fit in a cache, each loop timed as often, so that a
// harness run in a test costs milliseconds, not seconds of all cores' memory traffic, whatever
// else runs beside it. The peaks it gives are the caches' rates, not the memory's: never for
// figures a user reads (docs/measurement.md, "A quick calibration for tests").
struct CalibrationScale {
  int repetitions = 10;
  std::uint64_t host_bytes = 0;  // 0: sized from the caches and RAM (host_copy_bytes)
  std::uint64_t device_bytes = 1ull << 30;
  const char* note = "";  // added to measured_by
};

CalibrationScale calibration_scale() {
  if (sdk::quick_scale_for_tests()) {
    return {10, sdk::kQuickScaleHostBytes, 64ull << 20,
            "; quick calibration for tests (PLUGBENCH_CALIBRATION)"};
  }
  const char* value = std::getenv("PLUGBENCH_CALIBRATION");
  if (value == nullptr || *value == '\0' || std::strcmp(value, "full") == 0) return {};
  std::fprintf(stderr,
               "harness: PLUGBENCH_CALIBRATION='%s' is not 'full' or 'quick' (a test-only "
               "setting); calibrating in full\n",
               value);
  return {};
}

std::uint64_t host_copy_bytes() {
  // Each buffer four times the last-level cache (the H200 host's L3 is 300 MiB) and at least
  // 512 MiB: sysconf reports one L3, and a CPU of several (an EPYC's 32 MiB per core complex) has
  // more in all. At most 2 GiB or 1/16 of RAM (two buffers: 1/8), but never under 64 MiB. Whole
  // huge pages, which the loops split into whole cache lines per thread.
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  const std::uint64_t ram =
      pages > 0 && page_size > 0 ? std::uint64_t(pages) * std::uint64_t(page_size) : 1ull << 32;
  const long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::uint64_t cache = last_level > 0 ? std::uint64_t(last_level) : 32ull << 20;
  const std::uint64_t ceiling =
      std::max<std::uint64_t>(std::min<std::uint64_t>(ram / 16, 2ull << 30), kSmallestHostBuffer);
  const std::uint64_t wanted = std::max<std::uint64_t>(4 * cache, 512ull << 20);
  return std::min(wanted, ceiling) / kHugePage * kHugePage;
}

// The repetitions of `sample` (which returns milliseconds).
template <class SampleMs>
TimeStats times_of(const std::string& name, int repetitions, SampleMs&& sample) {
  MeasureSettings settings{repetitions, 0};
  return measure(name, settings,
                 [&] {
                   Sample s;
                   s.total_ms = sample();
                   return s;
                 })
      .total;
}

// A peak is what the memory can do: the fastest repetition (on a shared host the slower ones
// measure the neighbours too). The median is kept beside it.
void set_rate(PeakBandwidth& peak, const TimeStats& times, double bytes_moved) {
  peak.median_ms = times.median_ms;
  peak.best_ms = times.min_ms;
  peak.gbps = bytes_moved / (peak.best_ms * 1e6);
}

// A sample of `pass`'s wall time, in milliseconds.
std::function<double()> wall_ms(std::function<std::uint64_t()> pass) {
  return [pass = std::move(pass)] {
    const auto start = std::chrono::steady_clock::now();
    volatile std::uint64_t sink = pass();  // a read's sum, kept so that the loop stays
    (void)sink;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
}

// Times each loop and keeps the fastest as the peak, every loop's rate beside it.
void set_fastest_loop(PeakBandwidth& peak, const std::vector<HostStreamLoop>& loops,
                      const std::string& threads, const CalibrationScale& scale) {
  for (const HostStreamLoop& loop : loops) {
    loop.run();  // untimed: the team awake, the pages mapped
    PeakBandwidth tried = peak;
    set_rate(tried,
             times_of("calibration/host_" + peak.pattern + "/" + loop.name, scale.repetitions,
                      wall_ms(loop.run)),
             loop.bytes_per_pass);
    peak.methods.push_back({loop.name, tried.gbps, tried.best_ms, tried.median_ms});
    if (tried.gbps > peak.gbps) {
      peak.gbps = tried.gbps;
      peak.best_ms = tried.best_ms;
      peak.median_ms = tried.median_ms;
      peak.measured_by = "harness: " + loop.name + " on " + threads + " (the fastest of " +
                         std::to_string(loops.size()) + " loops, each timed " +
                         std::to_string(scale.repetitions) + " times" + scale.note + ")";
    }
  }
}

// The loop of each round's reference pass: the same one in every run of a build on a CPU, so that
// two runs' passes time the same thing (which loop is fastest changes between runs of a shared
// machine: on the H200's host the read peak came from "two buffers at once" in one run and "into
// 4 accumulators" in the next, and compare had no ratio over the reference to set side by side).
// It is the widest vector loop over one buffer (the loops' second), else the portable one.
HostStreamLoop reference_loop(std::vector<HostStreamLoop> loops) {
  return std::move(loops[std::min<std::size_t>(1, loops.size() - 1)]);
}

// Buffers as the SDK's host services make a plugin's (huge pages), so that the peak and the
// plugins' figures pay the same for address translation.
struct ReferenceBuffers {
  sdk::HugePageBuffers pages;
  char* source = nullptr;
  char* target = nullptr;
};

}  // namespace

struct HostReference::State {
  std::unique_ptr<ReferenceBuffers> buffers = std::make_unique<ReferenceBuffers>();
  std::vector<PeakBandwidth> peaks;
  std::vector<MemoryPattern> patterns;  // of the peaks and the loops, in the same order
  std::vector<HostStreamLoop> loops;    // each pattern's reference loop (reference_loop)
};

HostReference::HostReference(const std::vector<MemoryPattern>& patterns)
    : state_(std::make_unique<State>()) {
  if (patterns.empty()) return;
  const CalibrationScale scale = calibration_scale();
  std::uint64_t size = scale.host_bytes > 0 ? scale.host_bytes : host_copy_bytes();
  const std::uint64_t smallest = std::min(size, kSmallestHostBuffer);
  sdk::HugePageBuffers& buffers = state_->buffers->pages;
  char*& source = state_->buffers->source;
  char*& target = state_->buffers->target;
  // Halve the size until two buffers fit (a limit on the address space, ranks sharing a host).
  while (true) {
    try {
      source = static_cast<char*>(buffers.alloc(size));
      target = static_cast<char*>(buffers.alloc(size));
      break;
    } catch (const sdk::Failure&) {
      if (source != nullptr) buffers.release(source);
      source = nullptr;
      if (size <= smallest) throw;
      size = std::max(size / 2 / kHugePage * kHugePage, smallest);
    }
  }
  const std::int64_t bytes = static_cast<std::int64_t>(size);
  // First touch by the same threads that copy, so pages sit near them.
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < bytes; i += 4096) source[i] = target[i] = 1;

  const std::string threads = std::to_string(omp_get_max_threads()) + " OpenMP threads";
  // Each round's pass runs the reference loop over half of each buffer: twice the last-level
  // cache where the buffers could be four times it (the buffers' size says), at half the cost.
  const std::uint64_t half = std::max(size / 2 / kHugePage * kHugePage, std::min(size, kHugePage));
  const auto loops_of = [&](MemoryPattern pattern, std::uint64_t length) {
    return pattern == MemoryPattern::copy ? host_copy_loops(target, source, length)
                                          : host_read_loops(source, target, length);
  };
  // Copy before read, as the peaks have always been listed.
  for (MemoryPattern pattern : {MemoryPattern::copy, MemoryPattern::read}) {
    if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end()) continue;
    PeakBandwidth peak;
    peak.memory_space = MemorySpace::host;
    peak.pattern = to_string(pattern);
    peak.bytes = size;
    set_fastest_loop(peak, loops_of(pattern, size), threads, scale);
    state_->peaks.push_back(peak);
    state_->patterns.push_back(pattern);
    state_->loops.push_back(reference_loop(loops_of(pattern, half)));
  }
}

HostReference::~HostReference() = default;

const std::vector<PeakBandwidth>& HostReference::peaks() const {
  return state_->peaks;
}

bool HostReference::has(MemoryPattern pattern) const {
  const std::vector<MemoryPattern>& patterns = state_->patterns;
  return std::find(patterns.begin(), patterns.end(), pattern) != patterns.end();
}

HostReferencePass HostReference::pass(MemoryPattern pattern) const {
  const std::vector<MemoryPattern>& patterns = state_->patterns;
  const auto found = std::find(patterns.begin(), patterns.end(), pattern);
  if (found == patterns.end()) {
    throw std::logic_error(std::string("no host reference loop was calibrated for the ") +
                           to_string(pattern) + " pattern");
  }
  const std::size_t index = static_cast<std::size_t>(found - patterns.begin());
  const HostStreamLoop& loop = state_->loops[index];
  return {to_string(pattern), loop.name, state_->peaks[index].bytes / 2, loop.bytes_per_pass,
          wall_ms(loop.run)()};
}

std::vector<PeakBandwidth> calibrate_host_peaks(const std::vector<MemoryPattern>& patterns) {
  return HostReference(patterns).peaks();
}

std::vector<PeakBandwidth> calibrate_plugin_peaks(const PluginSession& session) {
  const CalibrationScale scale = calibration_scale();
  PeakBandwidth copy;
  copy.memory_space = MemorySpace::device;
  copy.pattern = to_string(MemoryPattern::copy);
  copy.measured_by = "plugin " + session.plugin().name + ": copy_within, fastest of " +
                     std::to_string(scale.repetitions) + scale.note;
  if (auto info = session.device_info()) copy.device = bounded_text(info->name, sizeof info->name);
  copy.bytes = scale.device_bytes;
  std::optional<PluginBuffer> source, target;
  // Halve the size until two buffers fit (a small device, or one already busy).
  while (true) {
    try {
      source.emplace(session, copy.bytes);
      target.emplace(session, copy.bytes);
      break;
    } catch (const PluginCallError&) {
      source.reset();
      target.reset();
      if (copy.bytes <= (16ull << 20)) throw;
      copy.bytes /= 2;
    }
  }
  ErrorBuffer error;
  auto copy_call = [&] {
    check_call(session.table().copy_within(session.handle(), target->get(), source->get(),
                                           copy.bytes, error.get()),
               "copy_within", error);
  };
  // The timer holds each sample's start until the call is enqueued (ABI 1.1 plugins), so the
  // rate is the memory's, not the launch's.
  // A plugin whose copy or read waits on the host cannot be held: one held call finds out.
  auto timed_ms = [&](auto&& call) {
    call();
    session.sync();
    const std::uint32_t flags =
        session.timed_sample(0, call).hold == PB_HOLD_TIMED_OUT ? PB_TIMER_HOST_WAITS : 0;
    return [&session, call, flags] { return session.timed_sample(flags, call).ms; };
  };
  set_rate(copy,
           times_of("calibration/" + session.plugin().name + "_copy", scale.repetitions,
                    timed_ms(copy_call)),
           2.0 * double(copy.bytes));
  std::vector<PeakBandwidth> peaks{copy};
  if (session.has_read_within()) {
    PeakBandwidth read = copy;
    read.pattern = to_string(MemoryPattern::read);
    read.measured_by = "plugin " + session.plugin().name + ": read_within, fastest of " +
                       std::to_string(scale.repetitions) + scale.note;
    auto read_call = [&] { session.read_within(source->get(), read.bytes); };
    set_rate(read,
             times_of("calibration/" + session.plugin().name + "_read", scale.repetitions,
                      timed_ms(read_call)),
             double(read.bytes));
    peaks.push_back(read);
  }
  return peaks;
}

const PeakBandwidth* peak_for(const std::vector<PeakBandwidth>& peaks, MemorySpace memory_space,
                              MemoryPattern pattern) {
  const PeakBandwidth* copy = nullptr;
  for (const PeakBandwidth& peak : peaks) {
    if (peak.memory_space != memory_space || peak.gbps <= 0) continue;
    if (peak.pattern == to_string(pattern)) return &peak;
    if (peak.pattern == to_string(MemoryPattern::copy) || peak.pattern.empty()) copy = &peak;
  }
  return copy;
}

std::string test_scale() {
  return sdk::quick_scale_for_tests() ? "quick" : "";
}

}  // namespace plugbench
