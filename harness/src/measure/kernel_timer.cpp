// kernel_timer.cpp: the timing of a cell's kernel samples.
#include "measure/kernel_timer.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace plugbench {
namespace {

double default_clock_khz(const PluginSession& session) {
  auto info = session.device_info();
  return info ? double(info->clock_khz) : 0.0;
}

}  // namespace

KernelTimer::KernelTimer(const PluginSession& session, const KernelRecord& kernel,
                         double throttle_threshold)
    : session_(session), guard_(default_clock_khz(session), throttle_threshold) {
  record_.default_clock_mhz = default_clock_khz(session) / 1e3;
  // Recorded only where it is applied: samples with a measured clock of a known default.
  record_.throttle_threshold = record_.default_clock_mhz > 0 ? throttle_threshold : 0;
  if (session.plugin().memory_space != MemorySpace::device) {
    record_.start = SampleStart::host_plugin;
  } else if (!session.has_sample_timer()) {
    record_.start = SampleStart::no_sample_timer;
  } else if (kernel.flags & PB_KERNEL_SYNCHRONIZES_HOST) {
    flags_ = PB_TIMER_HOST_WAITS;
    record_.start = SampleStart::flagged_host_waits;
  } else {
    record_.start = SampleStart::held;
  }
}

double KernelTimer::first_call(const std::function<void()>& call) {
  return session_.timed_sample(flags_ | PB_TIMER_HOST_WAITS, call).ms;
}

TimedSample KernelTimer::time_call(const std::function<void()>& call, bool& trusted) {
  TimedSample sample = session_.timed_sample(flags_, call);
  trusted = sample.hold != PB_HOLD_TIMED_OUT;
  if (!trusted && (flags_ & PB_TIMER_HOST_WAITS)) {
    // Asked not to hold, it held: retaking would never end.
    throw PluginCallError(PB_ERROR,
                          "timer_end reported a timed-out hold for a sample begun with "
                          "PB_TIMER_HOST_WAITS, which must not be held");
  }
  if (!trusted) {
    flags_ |= PB_TIMER_HOST_WAITS;
    record_.start = SampleStart::host_waited;
  }
  return sample;
}

double KernelTimer::sample(const std::function<void()>& call, bool cold) {
  while (true) {
    if (cold) session_.flush_cache();
    ++calls_;
    bool trusted = true;
    TimedSample sample = time_call(call, trusted);
    busy_ms_ += sample.ms;
    if (!trusted) continue;
    ThrottleGuard::Verdict verdict = guard_.judge(sample.sm_clock_khz);
    if (verdict.drop) {
      std::this_thread::sleep_for(std::chrono::duration<double>(verdict.pause_s));
      continue;
    }
    if (sample.sm_clock_khz > 0) {
      const double mhz = sample.sm_clock_khz / 1e3;
      clock_sum_mhz_ += mhz;
      record_.clock_min_mhz = std::min(record_.clock_min_mhz.value_or(mhz), mhz);
      record_.clock_window_min_ms = std::min(
          record_.clock_window_min_ms.value_or(sample.clock_window_ms), sample.clock_window_ms);
      ++record_.clock_samples;
    }
    return sample.ms;
  }
}

SamplingRecord KernelTimer::record() const {
  SamplingRecord record = record_;
  record.dropped_throttled = guard_.dropped();
  record.kept_throttled = guard_.kept_below_threshold();
  if (record.clock_samples > 0) record.clock_mean_mhz = clock_sum_mhz_ / record.clock_samples;
  return record;
}

}  // namespace plugbench
