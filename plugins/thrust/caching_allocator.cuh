// caching_allocator.cuh: Thrust's temporary storage for a session, kept and reused across calls
// (after Thrust's custom_temporary_allocation example), so that only the first call at a size
// pays cudaMalloc. Every Thrust call of a session runs on the session's one stream, so a block
// freed by one call may be handed to the next without waiting: stream order protects it.
#pragma once

#include <plugbench/cuda/check.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#pragma GCC visibility push(hidden)

namespace plugbench::thrust_plugin {

class CachingAllocator {
 public:
  using value_type = char;

  explicit CachingAllocator(cuda::CudaServices& session) : session_(session) {}
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;
  ~CachingAllocator() {
    for (auto& [size, pointer] : free_) (void)cudaFree(pointer);
    for (auto& [pointer, size] : in_use_) (void)cudaFree(pointer);
  }

  char* allocate(std::ptrdiff_t requested) {
    const size_t bytes = round_up(static_cast<size_t>(requested));
    // The smallest cached block that fits, unless it is more than twice the request: a huge
    // block (a sort's) must not be tied up by a small request (a reduce's).
    auto cached = free_.lower_bound(bytes);
    if (cached != free_.end() && cached->first <= 2 * bytes) {
      char* pointer = cached->second;
      in_use_.emplace(pointer, cached->first);
      free_.erase(cached);
      return pointer;
    }
    char* pointer = nullptr;
    cudaError_t status = cudaMalloc(&pointer, bytes);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      release_cached();  // give the cache back and try once more
      status = cudaMalloc(&pointer, bytes);
      if (status == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        throw sdk::out_of_memory("Thrust temporary storage: cudaMalloc of " +
                                 std::to_string(bytes) + " bytes failed on CUDA device " +
                                 std::to_string(session_.device()));
      }
    }
    PB_CUDA_CHECK(status);
    in_use_.emplace(pointer, bytes);
    return pointer;
  }

  void deallocate(char* pointer, size_t) {
    auto block = in_use_.find(pointer);
    if (block == in_use_.end()) return;  // not ours: nothing sensible to do
    free_.emplace(block->second, pointer);
    in_use_.erase(block);
  }

 private:
  static size_t round_up(size_t bytes) {
    constexpr size_t granule = 512;
    return (bytes == 0 ? granule : (bytes + granule - 1) / granule * granule);
  }

  void release_cached() {
    // The stream may still use a freed block; cudaFree waits for the device before it frees.
    for (auto& [size, pointer] : free_) (void)cudaFree(pointer);
    free_.clear();
  }

  cuda::CudaServices& session_;
  std::multimap<size_t, char*> free_;         // size -> block
  std::unordered_map<char*, size_t> in_use_;  // block -> size
};

}  // namespace plugbench::thrust_plugin

#pragma GCC visibility pop
