// bulk_copy.cuh: whole-tile copies between global and shared memory by the copy engine of Hopper
// (cp.async.bulk, sm_90): one thread starts a copy of many kilobytes, no registers hold the data,
// and the block's threads wait on an mbarrier in shared memory for it to land. For older
// architectures the functions compile to a trap: callers check the device first
// (bulk_copy_supported) and refuse with a clear reason.
#pragma once

#include <cstdint>
#include <string>

namespace plugbench::cuda::opt {

inline bool bulk_copy_supported(int compute_capability_major) {
  return compute_capability_major >= 9;
}

// Host: why a kernel built on bulk copies cannot run on this GPU (empty when it can).
inline std::string bulk_copy_unsupported_reason(const char* what, int major, int minor) {
  if (bulk_copy_supported(major)) return {};
  return std::string(what) +
         " copies tiles with Hopper's bulk copies (sm_90 and later); this GPU is sm_" +
         std::to_string(major) + std::to_string(minor);
}

__device__ __forceinline__ uint32_t shared_address(const void* pointer) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

// One thread: an mbarrier expecting `arrivals` arrivals, made visible to the copy engine.
__device__ __forceinline__ void bulk_barrier_init(uint64_t* barrier, uint32_t arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)),
               "r"(arrivals)
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  __trap();
#endif
}

// One thread: arrives on `barrier` expecting `bytes` more, and starts copying `bytes` (a multiple
// of 16, both addresses 16-byte aligned) from global to shared memory; the barrier's phase
// completes when they have landed.
__device__ __forceinline__ void bulk_load(void* shared_destination, const void* global_source,
                                          uint32_t bytes, uint64_t* barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)),
      "r"(bytes)
      : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(shared_address(shared_destination)),
      "l"(global_source), "r"(bytes), "r"(shared_address(barrier))
      : "memory");
#else
  __trap();
#endif
}

// Every thread that reads the destination: waits until phase `phase` of `barrier` completes.
__device__ __forceinline__ void bulk_wait(uint64_t* barrier, uint32_t phase) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(shared_address(barrier)), "r"(phase)
        : "memory");
  }
#else
  __trap();
#endif
}

// Every thread that wrote the source of a bulk store, before the barrier that precedes the store:
// its ordinary shared-memory writes become visible to the copy engine.
__device__ __forceinline__ void bulk_fence_shared_writes() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  __trap();
#endif
}

// One thread: starts copying `bytes` from shared to global memory (committed as one bulk group of
// this thread); the shared source must stay until bulk_wait_stores_read.
__device__ __forceinline__ void bulk_store_async(void* global_destination,
                                                 const void* shared_source, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(global_destination),
      "r"(shared_address(shared_source)), "r"(bytes)
      : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#else
  __trap();
#endif
}

// The thread that started them: waits until the copy engine has read the sources of all its bulk
// stores (the block may then exit, or reuse them).
__device__ __forceinline__ void bulk_wait_stores_read() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#else
  __trap();
#endif
}

// One thread: copies `bytes` from shared to global memory and waits until the copy engine has
// read the shared source.
__device__ __forceinline__ void bulk_store(void* global_destination, const void* shared_source,
                                           uint32_t bytes) {
  bulk_store_async(global_destination, shared_source, bytes);
  bulk_wait_stores_read();
}

// Every thread of a block of kThreads: copies the kTileItems 32-bit items of `in` from `tile_base`
// into shared memory. kFull (the whole tile lies below n): one bulk copy, waited for on `loaded`
// (phase 0, initialized for one arrival); otherwise item by item, items at or past n read as 0.
// Either way the tile is visible to every thread of the block on return.
template <int kThreads, int kTileItems, bool kFull>
__device__ __forceinline__ void load_tile_to_shared(uint32_t* shared_tile,
                                                    const uint32_t* __restrict__ in,
                                                    uint64_t tile_base, uint64_t n,
                                                    uint64_t* loaded) {
  if constexpr (kFull) {
    if (threadIdx.x == 0) bulk_load(shared_tile, in + tile_base, kTileItems * 4u, loaded);
    bulk_wait(loaded, 0);
  } else {
    const auto valid = static_cast<uint32_t>(n - tile_base);
    for (uint32_t i = threadIdx.x; i < kTileItems; i += kThreads) {
      shared_tile[i] = i < valid ? in[tile_base + i] : 0u;
    }
    __syncthreads();
  }
}

}  // namespace plugbench::cuda::opt
