// host_stream_loops.hpp: the loops that calibrate host memory's peaks, run by every thread of the
// harness's OpenMP team over its share of the buffers. A pattern's peak is the fastest of its
// loops, so that a tuned kernel cannot beat the peak it is held against only because it loads
// wider, reads two streams at once or stores past the caches: reads are a plain sum, wide loads
// into several accumulators and two buffers read together; copies are memcpy and streaming stores.
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

// The x86 vector instruction sets the wide loops are compiled for. They run in the widest this
// CPU has, or in the one given (so that the tests run each).
enum class StreamIsa { sse2, avx2, avx512 };

// The ISAs this CPU runs, narrowest first; empty where the wide loops are not built (not x86).
std::vector<StreamIsa> stream_isas_this_cpu_runs();

// Loops that read `bytes` of `first` (a plain sum, wide loads) and of `first` and `second`
// together (two streams, each thread its share of each, as dot reads x and y). Both 64-byte
// aligned, `bytes` whole 64-byte lines.
std::vector<HostStreamLoop> host_read_loops(const char* first, const char* second,
                                            std::uint64_t bytes);
std::vector<HostStreamLoop> host_read_loops(const char* first, const char* second,
                                            std::uint64_t bytes, StreamIsa isa);

// Loops that copy `bytes` from `source` to `target` (both 64-byte aligned, whole 64-byte lines).
std::vector<HostStreamLoop> host_copy_loops(char* target, const char* source, std::uint64_t bytes);
std::vector<HostStreamLoop> host_copy_loops(char* target, const char* source, std::uint64_t bytes,
                                            StreamIsa isa);

}  // namespace plugbench
