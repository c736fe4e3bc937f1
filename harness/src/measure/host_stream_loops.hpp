// host_stream_loops.hpp: the loops that calibrate host memory's peaks, run by every thread of the
// harness's OpenMP team over its share of the buffers. A pattern's peak is the fastest of its
// loops, so that a tuned kernel cannot beat the peak it is held against only because it loads
// wider, reads two streams at once or stores past the caches: reads are a plain sum, wide loads
// into several accumulators and two streams read together; copies are memcpy and streaming stores.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plugbench {

struct HostStreamLoop {
  std::string name;  // what the loop does, for the results file
  // One pass over the buffers by the whole team; a read returns the sum of the 64-bit words it
  // read (so that each loop can be checked to read every word once), a copy 0.
  std::function<std::uint64_t()> run;
  double bytes_per_pass = 0;  // read, or read + written for a copy
};

// Loops that read `bytes` from `source` (64-byte aligned, `bytes` a multiple of 128).
std::vector<HostStreamLoop> host_read_loops(const char* source, std::uint64_t bytes);

// Loops that copy `bytes` from `source` to `target` (both 64-byte aligned, `bytes` a multiple of
// 128).
std::vector<HostStreamLoop> host_copy_loops(char* target, const char* source, std::uint64_t bytes);

}  // namespace plugbench
