// throttle_guard.cpp: the drop-and-retake rule for throttled GPU samples.
#include "measure/throttle_guard.hpp"

#include <algorithm>

namespace plugbench {

ThrottleGuard::ThrottleGuard(double default_clock_khz, double threshold, int max_drops_in_a_row,
                             double first_pause_s, double longest_pause_s)
    : threshold_khz_(default_clock_khz > 0 && threshold > 0 ? default_clock_khz * threshold : 0),
      max_drops_in_a_row_(std::max(0, max_drops_in_a_row)),
      first_pause_s_(first_pause_s),
      longest_pause_s_(longest_pause_s),
      pause_s_(first_pause_s) {}

ThrottleGuard::Verdict ThrottleGuard::judge(double sm_clock_khz) {
  const bool throttled = threshold_khz_ > 0 && sm_clock_khz > 0 && sm_clock_khz < threshold_khz_;
  if (!throttled) {
    drops_in_a_row_ = 0;
    guard_kept_in_a_row_ = 0;
    pause_s_ = first_pause_s_;
    return {};
  }
  if (gave_up_) {
    ++kept_below_;
    return {};
  }
  if (drops_in_a_row_ >= max_drops_in_a_row_) {
    // The pauses did not help: keep this one, so the cell ends with its samples, and say so. Twice
    // in a row with no full-clock sample between, and the GPU runs at this clock (locked clocks, a
    // power cap): dropping more would only waste the cell's time.
    ++kept_below_;
    drops_in_a_row_ = 0;
    pause_s_ = first_pause_s_;
    gave_up_ = ++guard_kept_in_a_row_ >= 2;
    return {};
  }
  ++dropped_;
  ++drops_in_a_row_;
  Verdict verdict{true, pause_s_};
  // A GPU still throttled after a pause gets a longer one next time (nvbench grows it too).
  pause_s_ = std::min(longest_pause_s_, pause_s_ * 2);
  return verdict;
}

}  // namespace plugbench
