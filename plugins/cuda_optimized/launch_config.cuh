// launch_config.cuh: host-side helpers shared by the device entries (one per workload): the
// session's stream and multiprocessor count, grid sizing, workspace layout and input checks.
#pragma once

#include "bulk_copy.cuh"

#include <plugbench/cuda/check.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace plugbench::cuda::opt {

constexpr uint64_t div_up(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
constexpr uint64_t align_up(uint64_t a, uint64_t alignment) {
  return div_up(a, alignment) * alignment;
}

inline CudaServices& services_of(sdk::Call& call) {
  return call.session<CudaServices>();
}
inline CudaServices& services_of(void* session) {
  return *static_cast<CudaServices*>(session);
}

inline int multiprocessors(const CudaServices& services) {
  return std::max(1, services.properties().multiProcessorCount);
}

// A grid for a grid-stride kernel: enough blocks to fill the device `blocks_per_sm` deep, but no
// more blocks than there are pieces of work (small problems launch small grids).
inline unsigned grid_for(const CudaServices& services, int blocks_per_sm, uint64_t work_blocks) {
  const uint64_t full = static_cast<uint64_t>(multiprocessors(services)) * blocks_per_sm;
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min(full, work_blocks)));
}

// The vectorized paths read and write 16 bytes at a time from the start of each buffer; the
// harness's buffers come from cudaMalloc (256-byte aligned). Anything else is refused loudly
// rather than read misaligned.
inline void require_aligned(const void* pointer, const char* what) {
  if (reinterpret_cast<uintptr_t>(pointer) % 16 != 0) {
    throw sdk::Failure(
        PB_ERROR, std::string("cuda_optimized needs 16-byte aligned buffers; ") + what + " is not");
  }
}

// Kernels built on Hopper's bulk copies refuse an older GPU as unsupported, with the reason.
inline void require_bulk_copies(const CudaServices& services, const char* what) {
  const std::string reason =
      bulk_copy_unsupported_reason(what, services.properties().major, services.properties().minor);
  if (!reason.empty()) throw sdk::unsupported(reason);
}

// Carves a workspace into aligned pieces, in order; used the same way to size it and to use it.
class WorkspaceLayout {
 public:
  explicit WorkspaceLayout(void* base = nullptr) : base_(static_cast<char*>(base)) {}
  template <class T>
  T* take(uint64_t count) {
    offset_ = align_up(offset_, 256);
    T* piece = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
    offset_ += count * sizeof(T);
    return piece;
  }
  uint64_t bytes() const { return offset_; }

 private:
  char* base_;
  uint64_t offset_ = 0;
};

// The table entry of a variant whose device entry is the type Entry (Entry::kWorkload,
// Entry::run, Entry::workspace, Entry::kMaxN), for PLUGBENCH_KERNEL.
template <class Entry>
sdk::Kernel kernel_entry(const char* variant, const char* description, uint32_t flags = 0) {
  return {.workload = Entry::kWorkload,
          .variant = variant,
          .description = description,
          .run = Entry::run,
          .flags = flags,
          .workspace = Entry::workspace,
          .max_n = Entry::kMaxN};
}

}  // namespace plugbench::cuda::opt
