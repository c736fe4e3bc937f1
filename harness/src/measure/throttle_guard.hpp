// throttle_guard.hpp: decides whether a GPU sample ran at a clock low enough that it measures the
// throttle rather than the kernel (nvbench's rule): such a sample is dropped and retaken after a
// pause that lets the GPU recover, with a guard so that a cell always ends with its samples.
#pragma once

namespace plugbench {

class ThrottleGuard {
 public:
  struct Verdict {
    bool drop = false;
    double pause_s = 0;  // how long to wait before retaking a dropped sample
  };

  // threshold: the fraction of default_clock_khz below which a sample is throttled (0: never).
  // After max_drops_in_a_row drops for one sample, the next throttled sample is kept; after that
  // happened twice with no full-clock sample between, no more samples are dropped.
  ThrottleGuard(double default_clock_khz, double threshold, int max_drops_in_a_row = 3,
                double first_pause_s = 0.05, double longest_pause_s = 0.5);

  // Judges one sample by its SM clock (0: not measured, always kept).
  Verdict judge(double sm_clock_khz);

  int dropped() const { return dropped_; }
  int kept_below_threshold() const { return kept_below_; }
  double threshold_khz() const { return threshold_khz_; }

 private:
  double threshold_khz_;
  int max_drops_in_a_row_;
  double first_pause_s_;
  double longest_pause_s_;
  double pause_s_;
  int drops_in_a_row_ = 0;
  int guard_kept_in_a_row_ = 0;  // samples kept by the guard with no full-clock sample between
  bool gave_up_ = false;         // the GPU stays below the threshold: keep every sample
  int dropped_ = 0;
  int kept_below_ = 0;
};

}  // namespace plugbench
