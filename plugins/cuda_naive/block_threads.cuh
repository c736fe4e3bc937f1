// block_threads.cuh: the block size every cuda_naive kernel launches with, the lecture's 256.
#pragma once

namespace plugbench::cuda_naive {

constexpr unsigned kThreads = 256;

}  // namespace plugbench::cuda_naive
