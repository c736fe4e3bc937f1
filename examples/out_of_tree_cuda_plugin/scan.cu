// scan.cu (example_cuda): exclusive prefix sums of int32, modulo 2^32, with CUB's
// cub::DeviceScan::ExclusiveSum (shipped with the CUDA toolkit). CUB's temporary storage is the
// kernel's workspace: its size is asked for before the timed region, and the harness allocates it.
#include <plugbench/cuda_services.cuh>

#include <cub/device/device_scan.cuh>

#include <cstdint>

namespace {

using plugbench::cuda::CudaServices;

// The data viewed as uint32, so that the sums wrap modulo 2^32 with defined behaviour.
cudaError_t exclusive_sum(void* storage, size_t& bytes, const pb_problem& problem, const void* x,
                          void* prefix, cudaStream_t stream) {
  return cub::DeviceScan::ExclusiveSum(storage, bytes, static_cast<const uint32_t*>(x),
                                       static_cast<uint32_t*>(prefix),
                                       static_cast<uint32_t>(problem.n), stream);
}

// CUB's two-phase protocol, phase one: with no storage, it only says how many bytes it needs. At
// least one, so that the run gets storage: given none, CUB would only answer the query again.
uint64_t scan_workspace(void* session, const pb_problem& problem) {
  size_t bytes = 0;
  PB_CUDA_CHECK(exclusive_sum(nullptr, bytes, problem, nullptr, nullptr,
                              static_cast<CudaServices*>(session)->stream()));
  return bytes == 0 ? 1 : bytes;
}

// Inputs: int32 x[n]. Outputs: int32 prefix[n], prefix[i] = x[0] + ... + x[i-1].
void scan_cub(plugbench::sdk::Call& call) {
  if (call.n() == 0) return;  // nothing to write
  size_t bytes = call.workspace_bytes();
  PB_CUDA_CHECK(exclusive_sum(call.workspace<void>(), bytes, call.problem(), call.input<int32_t>(0),
                              call.output<int32_t>(0), call.session<CudaServices>().stream()));
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "cub",
                  .description = "cub::DeviceScan::ExclusiveSum in the harness's workspace",
                  .run = scan_cub,
                  .workspace = scan_workspace,
                  .max_n = UINT32_MAX});  // CUB's item count here is 32 bits
