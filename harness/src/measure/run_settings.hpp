// run_settings.hpp: how cells are measured (the options a worker needs), and the text each mode is
// written as in options, messages and results files.
#pragma once

#include "base/enum_names.hpp"

#include <optional>
#include <string>

namespace plugbench {

enum class CacheMode { cold, warm };
enum class HostMemoryMode { pageable, pinned, both };
// process: each plugin's cells run in a worker process of its own (docs/fault-isolation.md);
// none: in the harness's own process, as a debugger wants it.
enum class IsolationMode { process, none };
// interleaved: a problem's cells held open together and sampled in rounds, one sample of each per
// round in a fresh random order (docs/measurement.md); sequential: one cell's samples after
// another's, as plugbench measured before rounds.
enum class MeasurementOrder { interleaved, sequential };

// Each mode's spelling in options, messages and results files, in the order messages list them.
inline constexpr EnumName<CacheMode> kCacheModeNames[] = {{CacheMode::cold, "cold"},
                                                          {CacheMode::warm, "warm"}};
inline constexpr EnumName<HostMemoryMode> kHostMemoryModeNames[] = {
    {HostMemoryMode::pageable, "pageable"},
    {HostMemoryMode::pinned, "pinned"},
    {HostMemoryMode::both, "both"}};
inline constexpr EnumName<IsolationMode> kIsolationModeNames[] = {
    {IsolationMode::process, "process"}, {IsolationMode::none, "none"}};
inline constexpr EnumName<MeasurementOrder> kMeasurementOrderNames[] = {
    {MeasurementOrder::interleaved, "interleaved"}, {MeasurementOrder::sequential, "sequential"}};

inline const char* to_string(CacheMode mode) {
  return name_in(kCacheModeNames, mode);
}
inline const char* to_string(HostMemoryMode mode) {
  return name_in(kHostMemoryModeNames, mode);
}
inline const char* to_string(IsolationMode mode) {
  return name_in(kIsolationModeNames, mode);
}
inline const char* to_string(MeasurementOrder order) {
  return name_in(kMeasurementOrderNames, order);
}

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

}  // namespace plugbench
