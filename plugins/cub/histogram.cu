// histogram.cu: 256-bin histogram of uint8 pixels with cub::DeviceHistogram::HistogramEven
// (levels 0, 1, ..., 256: bin b holds the value b).
#include "cub_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <cub/device/device_histogram.cuh>

#include <cstdint>
#include <string>

namespace plugbench::cub_plugin {
namespace {

constexpr int kBins = 256;

cudaError_t device_histogram(void* storage, size_t& bytes, const uint8_t* pixels, uint32_t* counts,
                             uint64_t n, cudaStream_t stream) {
  // A 64-bit sample count: CUB dispatches to 32-bit offsets itself when they suffice.
  return cub::DeviceHistogram::HistogramEven(storage, bytes, pixels, counts, kBins + 1, 0, kBins,
                                             static_cast<int64_t>(n), stream);
}

void require_256_bins(const pb_problem& problem) {
  if (problem.bins != kBins) {
    throw sdk::unsupported("histogram: only 256 bins (one per uint8 value), not " +
                           std::to_string(problem.bins));
  }
}

uint64_t histogram_workspace(void* session, const pb_problem& problem) {
  require_256_bins(problem);
  if (problem.n == 0) return 0;
  return query_temp_storage(session, "cub::DeviceHistogram::HistogramEven",
                            [&](void* storage, size_t& bytes, cudaStream_t stream) {
                              return device_histogram(storage, bytes, nullptr, nullptr, problem.n,
                                                      stream);
                            });
}

void histogram_library(sdk::Call& call) {
  require_256_bins(call.problem());
  uint32_t* counts = call.output<uint32_t>(0);
  if (call.n() == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(counts, 0, kBins * sizeof(uint32_t),
                                  call.session<cuda::CudaServices>().stream()));
    return;
  }
  run_with_temp_storage(call, "cub::DeviceHistogram::HistogramEven",
                        [&](void* storage, size_t& bytes, cudaStream_t stream) {
                          return device_histogram(storage, bytes, call.input<uint8_t>(0), counts,
                                                  call.n(), stream);
                        });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "library",
                  .description = "cub::DeviceHistogram::HistogramEven, 256 even bins",
                  .run = histogram_library,
                  .workspace = histogram_workspace});

}  // namespace plugbench::cub_plugin
