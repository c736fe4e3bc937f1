// work_efficient_scan.cuh: Blelloch's work-efficient exclusive scan (an up-sweep that builds
// partial sums in a balanced tree, then a down-sweep that distributes them), one launch per tree
// level, on a buffer padded to a power of two. The scan, compact and sort kernels share it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace plugbench::cuda_naive {

// Length of the padded buffer for n elements: the smallest power of two >= n (0 for n = 0).
uint64_t padded_scan_length(uint64_t n);

// Replaces d_buffer[0, length) by its exclusive prefix sums modulo 2^32, enqueued on `stream`.
// `length` must be a power of two (or 0); the caller fills the padding with zeros.
void blelloch_scan_in_place(uint32_t* d_buffer, uint64_t length, cudaStream_t stream);

}  // namespace plugbench::cuda_naive
