// plugbench/cuda/sample_timer.cuh: CUDA-event timing of one sample, held back until the host has
// enqueued the work (a blocking kernel, nvbench's method: the host's launch latency is not in the
// sample), with the SM clock the sample ran at (%globaltimer and clock64 read on SM 0 just outside
// the events).
#pragma once

#include <plugbench/plugin_api.h>
#include <plugbench/cuda/check.cuh>

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

__device__ inline uint64_t global_timer_ns() {
  uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Spins until the host releases it, or gives up after timeout_ns: then the host is waiting for
// the device inside the timed work (a synchronizing kernel), and the sample says so.
template <int Unused = 0>
__global__ void hold_stream_kernel(const volatile int32_t* release, volatile int32_t* timed_out,
                                   uint64_t timeout_ns) {
  const uint64_t start = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

// The block that lands on SM 0 writes the global timer (ns) and that SM's cycle counter.
template <int Unused = 0>
__global__ void clock_stamp_kernel(volatile uint64_t* stamp) {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (sm == 0) {
    stamp[0] = global_timer_ns();
    stamp[1] = clock64();
  }
}

class SampleTimer {
 public:
  // A hold longer than this means the host waited for the device inside the timed work.
  static constexpr uint64_t kHoldTimeoutNs = 500'000'000;

  SampleTimer() = default;
  SampleTimer(const SampleTimer&) = delete;
  SampleTimer& operator=(const SampleTimer&) = delete;
  ~SampleTimer() { release_all(); }

  void create(int multiprocessors) {
    multiprocessors_ = multiprocessors;
    PB_CUDA_CHECK(cudaEventCreate(&start_));
    PB_CUDA_CHECK(cudaEventCreate(&stop_));
    PB_CUDA_CHECK(cudaHostAlloc(&mapped_, sizeof(Mapped), cudaHostAllocMapped));
    PB_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_mapped_), mapped_, 0));
    // Both kernels run once now, unheld: under CUDA's lazy loading a kernel's first launch loads
    // its module, which would wait for a blocking kernel already running.
    mapped_->release = 1;
    hold_stream_kernel<><<<1, 1>>>(&device_mapped_->release, &device_mapped_->timed_out, 0);
    PB_CUDA_CHECK(cudaGetLastError());
    clock_stamp_kernel<><<<1, 1>>>(device_mapped_->stamps);
    PB_CUDA_CHECK(cudaGetLastError());
    PB_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void release_all() noexcept {
    if (start_ != nullptr) (void)cudaEventDestroy(start_);
    if (stop_ != nullptr) (void)cudaEventDestroy(stop_);
    if (mapped_ != nullptr) (void)cudaFreeHost(mapped_);
    start_ = stop_ = nullptr;
    mapped_ = device_mapped_ = nullptr;
  }

  // Plain events, nothing held (timer_start / timer_stop of ABI 1.0).
  void start(cudaStream_t stream) { PB_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  double stop(cudaStream_t stream) {
    PB_CUDA_CHECK(cudaEventRecord(stop_, stream));
    PB_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  void begin(cudaStream_t stream, uint32_t flags) {
    Mapped* m = mapped_;
    m->release = 0;
    m->timed_out = 0;
    for (uint64_t& s : m->stamps) s = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    held_ = (flags & PB_TIMER_HOST_WAITS) == 0;
    if (held_) {
      hold_stream_kernel<><<<1, 1, 0, stream>>>(&device_mapped_->release,
                                                &device_mapped_->timed_out, kHoldTimeoutNs);
      PB_CUDA_CHECK(cudaGetLastError());
    }
    stamp(stream, 0);
    PB_CUDA_CHECK(cudaEventRecord(start_, stream));
  }

  void end(cudaStream_t stream, pb_sample_timing& timing) {
    PB_CUDA_CHECK(cudaEventRecord(stop_, stream));
    stamp(stream, 2);
    // Released before waiting: the work held behind the blocking kernel is all enqueued now.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    static_cast<volatile int32_t&>(mapped_->release) = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    PB_CUDA_CHECK(cudaStreamSynchronize(stream));
    float ms = 0;
    PB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    timing.elapsed_ms = ms;
    const volatile Mapped* m = mapped_;
    timing.hold = !held_ ? PB_HOLD_NONE : m->timed_out ? PB_HOLD_TIMED_OUT : PB_HOLD_RELEASED;
    const uint64_t t0 = m->stamps[0], c0 = m->stamps[1], t1 = m->stamps[2], c1 = m->stamps[3];
    timing.sm_clock_khz = 0;
    timing.clock_window_ms = 0;
    if (t0 != 0 && t1 > t0 && c1 > c0) {
      timing.sm_clock_khz = double(c1 - c0) / double(t1 - t0) * 1e6;
      timing.clock_window_ms = double(t1 - t0) / 1e6;
    }
  }

 private:
  struct Mapped {
    int32_t release;
    int32_t timed_out;
    uint64_t stamps[4];  // before: global timer, SM 0 cycles; after: the same
  };

  void stamp(cudaStream_t stream, int slot) {
    // Two blocks an SM: one of them lands on SM 0 however the blocks are placed.
    clock_stamp_kernel<><<<2 * multiprocessors_, 1, 0, stream>>>(device_mapped_->stamps + slot);
    PB_CUDA_CHECK(cudaGetLastError());
  }

  int multiprocessors_ = 1;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  Mapped* mapped_ = nullptr;
  Mapped* device_mapped_ = nullptr;
  bool held_ = false;
};

}  // namespace plugbench::cuda

#pragma GCC visibility pop
