// calibration.hpp: the measured peak memory bandwidth of each memory space for each access
// pattern, for the "% of peak" column: a large copy (bytes read plus bytes written over the median
// time) for workloads that write as much as they read, a large read for read-only workloads.
#pragma once

#include "base/memory_space.hpp"
#include "load/plugin_session.hpp"
#include "workload.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// One loop the calibration timed for a peak.
struct PeakMethod {
  std::string name;
  double gbps = 0;
  double best_ms = 0;
  double median_ms = 0;
};

struct PeakBandwidth {
  std::optional<MemorySpace> memory_space;  // none: a file's text kMemorySpaceNames lacks
  std::string pattern;                      // "copy" or "read" (to_string(MemoryPattern))
  std::string measured_by;                  // "harness (OpenMP copy)" or the plugin that copied
  std::string device;                       // the device's name, for device memory
  std::uint64_t bytes = 0;                  // size of the copied buffer
  double gbps = 0;                          // bytes moved (read + written for a copy) / best_ms
  double median_ms = 0;
  double best_ms = 0;  // the fastest repetition, which gbps is computed from
  // Where the harness tried several loops (host memory): each one's rate; the peak is the fastest.
  std::vector<PeakMethod> methods;
};

// One pass of a host reference loop, timed beside the cells of a round (docs/measurement.md).
struct HostReferencePass {
  std::string pattern;      // "copy" or "read"
  std::string loop;         // the loop's name: the pattern's reference loop
  std::uint64_t bytes = 0;  // of each buffer
  double bytes_moved = 0;   // read, or read + written for a copy
  double ms = 0;
};

// Host memory's reference loops: calibrated once (the peaks: a copy and a read by all the
// harness's OpenMP threads over buffers larger than the caches, each the fastest of several loops,
// host_stream_loops.hpp), then kept, buffers and all, so that each round of a problem's cells can
// time a pass of the loop its cells are held to. Throws sdk::Failure where even the smallest
// buffers cannot be had.
class HostReference {
 public:
  // Calibrates the patterns named (none: nothing, no buffers), each the fastest of its loops.
  explicit HostReference(const std::vector<MemoryPattern>& patterns = {MemoryPattern::copy,
                                                                       MemoryPattern::read});
  ~HostReference();
  HostReference(const HostReference&) = delete;
  HostReference& operator=(const HostReference&) = delete;
  const std::vector<PeakBandwidth>& peaks() const;
  // One timed pass of the pattern's reference loop (the same loop in every run of this build on
  // this CPU, not the fastest at calibration), over half of each buffer.
  // Throws std::logic_error for a pattern not calibrated (has() says).
  HostReferencePass pass(MemoryPattern pattern) const;
  bool has(MemoryPattern pattern) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The host's peaks alone (HostReference's, its buffers then freed).
std::vector<PeakBandwidth> calibrate_host_peaks(const std::vector<MemoryPattern>& patterns = {
                                                    MemoryPattern::copy, MemoryPattern::read});

// A plugin's memory: its copy_within and (where the plugin has it) read_within over buffers of up
// to 1 GiB. Throws PluginCallError.
std::vector<PeakBandwidth> calibrate_plugin_peaks(const PluginSession& session);

// "quick" under the test suite's scale (PLUGBENCH_CALIBRATION=quick: small peak buffers, and a host
// plugin's cold flush of 8 MiB), else "": what a results file's context.settings.test_scale says.
std::string test_scale();

// The peak a workload of `pattern` is held against: the read rate for a read-only workload where
// one was measured, else the copy rate; nullptr when the memory space has none.
const PeakBandwidth* peak_for(const std::vector<PeakBandwidth>& peaks, MemorySpace memory_space,
                              MemoryPattern pattern);

}  // namespace plugbench
