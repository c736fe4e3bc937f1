// kernel_timer.hpp: how a cell's kernel samples are timed (docs/measurement.md): held behind a
// blocking kernel unless the kernel makes the host wait for the device (flagged, or found out on a
// sample), flushed first when cold, and retaken when the GPU ran below the throttle threshold.
#pragma once

#include "load/plugin_session.hpp"
#include "measure/cell_result.hpp"
#include "measure/throttle_guard.hpp"

#include <cstdint>
#include <functional>

namespace plugbench {

class KernelTimer {
 public:
  // throttle_threshold: the fraction of the device's default clock below which a sample is
  // dropped (0: none).
  KernelTimer(const PluginSession& session, const KernelRecord& kernel, double throttle_threshold);

  // The checked call is never held: a kernel's first launch may load its module (CUDA's lazy
  // loading), which waits for the device and so for the blocking kernel.
  double first_call(const std::function<void()>& call);

  // One kept sample: flush (cold), the timed call; a throttled or untrusted sample is retaken.
  double sample(const std::function<void()>& call, bool cold);

  long calls() const { return calls_; }
  // The time of every call taken, kept or not.
  double busy_ms() const { return busy_ms_; }

  SamplingRecord record() const;

 private:
  // One call timed as a sample. A hold that timed out means the host waited for the device while
  // enqueuing: that sample is not trusted, and later ones are not held.
  TimedSample time_call(const std::function<void()>& call, bool& trusted);

  const PluginSession& session_;
  ThrottleGuard guard_;
  std::uint32_t flags_ = 0;
  SamplingRecord record_;
  double clock_sum_mhz_ = 0;
  long calls_ = 0;
  double busy_ms_ = 0;
};

}  // namespace plugbench
