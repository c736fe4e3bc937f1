// calibration.hpp: the measured peak memory bandwidth of each memory space, from a large copy
// (bytes read plus bytes written over the median time), for the "% of peak" column.
#pragma once

#include "plugin_session.hpp"

#include <cstdint>
#include <string>

namespace plugbench {

struct PeakBandwidth {
  std::string memory_space;  // "host" or "device"
  std::string measured_by;   // "harness (OpenMP copy)" or the plugin that copied
  std::string device;        // the device's name, for device memory
  std::uint64_t bytes = 0;   // size of the copied buffer
  double gbps = 0;           // (read + written) bytes / median time
  double median_ms = 0;
};

// Host memory: a copy by all the harness's OpenMP threads over buffers larger than the caches.
PeakBandwidth calibrate_host_peak();

// A plugin's memory: its copy_within over buffers of up to 1 GiB. Throws PluginCallError.
PeakBandwidth calibrate_plugin_peak(const PluginSession& session);

}  // namespace plugbench
