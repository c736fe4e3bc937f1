// calibration.cpp: peak bandwidth measurements, repeated and summarised by measure().
#include "calibration.hpp"

#include "measurement.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

namespace plugbench {
namespace {

constexpr int kCalibrationRepetitions = 10;

std::uint64_t host_copy_bytes() {
  // Large enough to leave every cache behind, small enough for a 2-core CI machine: 1/16 of RAM,
  // at most 512 MiB.
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  std::uint64_t ram = pages > 0 && page_size > 0 ? std::uint64_t(pages) * page_size : 1ull << 32;
  return std::clamp<std::uint64_t>(ram / 16, 64ull << 20, 512ull << 20);
}

}  // namespace

PeakBandwidth calibrate_host_peak() {
  PeakBandwidth peak;
  peak.memory_space = "host";
  peak.measured_by =
      "harness: parallel memcpy on " + std::to_string(omp_get_max_threads()) + " OpenMP threads";
  peak.bytes = host_copy_bytes();
  std::unique_ptr<char[]> source(new char[peak.bytes]);
  std::unique_ptr<char[]> target(new char[peak.bytes]);
  const std::int64_t bytes = static_cast<std::int64_t>(peak.bytes);
  auto parallel_copy = [&] {
#pragma omp parallel
    {
      std::int64_t threads = omp_get_num_threads(), id = omp_get_thread_num();
      std::int64_t begin = bytes * id / threads, end = bytes * (id + 1) / threads;
      std::memcpy(target.get() + begin, source.get() + begin,
                  static_cast<std::size_t>(end - begin));
    }
  };
  // First touch by the same threads that copy, so pages sit near them.
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < bytes; i += 4096) source[i] = target[i] = 1;
  parallel_copy();
  MeasureSettings settings{kCalibrationRepetitions, 0};
  Measurement m = measure("calibration/host_copy", settings, [&] {
    auto start = std::chrono::steady_clock::now();
    parallel_copy();
    Sample s;
    s.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return s;
  });
  peak.median_ms = m.total.median_ms;
  peak.gbps = 2.0 * double(peak.bytes) / (peak.median_ms * 1e6);
  return peak;
}

PeakBandwidth calibrate_plugin_peak(const PluginSession& session) {
  PeakBandwidth peak;
  peak.memory_space = "device";
  peak.measured_by = "plugin " + session.plugin().name + ": copy_within";
  if (auto info = session.device_info()) peak.device = info->name;
  peak.bytes = 1ull << 30;
  std::optional<PluginBuffer> source, target;
  // Halve the size until two buffers fit (a small device, or one already busy).
  while (true) {
    try {
      source.emplace(session, peak.bytes);
      target.emplace(session, peak.bytes);
      break;
    } catch (const PluginCallError&) {
      source.reset();
      target.reset();
      if (peak.bytes <= (16ull << 20)) throw;
      peak.bytes /= 2;
    }
  }
  ErrorBuffer error;
  auto copy = [&] {
    check_call(session.table().copy_within(session.handle(), target->get(), source->get(),
                                           peak.bytes, error.get()),
               "copy_within", error);
  };
  copy();
  session.sync();
  MeasureSettings settings{kCalibrationRepetitions, 0};
  Measurement m = measure("calibration/" + session.plugin().name + "_copy", settings, [&] {
    Sample s;
    s.total_ms = session.timed(copy);
    return s;
  });
  peak.median_ms = m.total.median_ms;
  peak.gbps = 2.0 * double(peak.bytes) / (peak.median_ms * 1e6);
  return peak;
}

}  // namespace plugbench
