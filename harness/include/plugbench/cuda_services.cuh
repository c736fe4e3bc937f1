// plugbench/cuda_services.cuh: the services a CUDA plugin hands to PLUGBENCH_PLUGIN
// (PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices, {...})): a session on one device with its own
// non-blocking stream, device memory, pinned or pageable staging memory, copies that finish before
// they return, CUDA-event timing held behind a blocking kernel with the SM clock of each sample
// (cuda/sample_timer.cuh), an L2 flush that leaves clean lines, the device's description, and a
// probe that asks for devices in a child process. Compile with nvcc; CMake: link
// plugbench::cuda_services.
#pragma once

#include <plugbench/cuda/check.cuh>
#include <plugbench/cuda/device_probe.cuh>
#include <plugbench/cuda/device_read.cuh>
#include <plugbench/cuda/sample_timer.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if __has_include(<cuda/version>)
#include <cuda/version>
#endif

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

// "13.0" from CUDA's encoding 1000 * major + 10 * minor.
inline std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

class CudaServices {
 public:
  // Can this machine run CUDA? Looks for the driver library first, so that a machine without one
  // gets a clear reason instead of the runtime's "insufficient driver".
  static bool probe(std::string& reason) {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) {
      reason = "no NVIDIA driver: libcuda.so.1 not found";
      return false;
    }
    dlclose(driver);
    // In a child process: the harness itself must not initialize CUDA (see device_probe.cuh).
    DeviceCount devices = count_devices_in_child();
    if (!devices.answered) {
      reason = "cannot query CUDA devices: " + devices.error;
      return false;
    }
    if (devices.status != cudaSuccess && devices.status != cudaErrorNoDevice) {
      reason = "cudaGetDeviceCount failed: " + devices.error;
      return false;
    }
    if (devices.status == cudaErrorNoDevice || devices.count == 0) {
      reason = "no CUDA device";
      return false;
    }
    return true;
  }

  explicit CudaServices(int32_t device) : device_(device) {
    int count = 0;
    PB_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count) {
      throw sdk::Failure(PB_ERROR, "CUDA device " + std::to_string(device) +
                                       " does not exist: this machine has " +
                                       std::to_string(count) + " device(s), numbered from 0");
    }
    try {
      PB_CUDA_CHECK(cudaSetDevice(device_));
      PB_CUDA_CHECK(cudaGetDeviceProperties(&properties_, device_));
      PB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      timer_.create(properties_.multiProcessorCount);
      PB_CUDA_CHECK(cudaMalloc(&read_sink_, sizeof(uint32_t)));
      // Loaded now, not inside a held sample (see SampleTimer::create).
      enqueue_read(read_sink_, sizeof(uint32_t), static_cast<uint32_t*>(read_sink_),
                   properties_.multiProcessorCount, stream_);
      PB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    } catch (...) {
      release_all();
      throw;
    }
  }

  CudaServices(const CudaServices&) = delete;
  CudaServices& operator=(const CudaServices&) = delete;

  ~CudaServices() { release_all(); }

  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }
  const cudaDeviceProp& properties() const { return properties_; }

  // Makes the session's device current on the calling thread (sessions on other devices, or other
  // code, may have changed it). Every service call does this first.
  void make_current() const {
    int current = -1;
    PB_CUDA_CHECK(cudaGetDevice(&current));
    if (current != device_) PB_CUDA_CHECK(cudaSetDevice(device_));
  }

  // State a plugin keeps for the life of the session (e.g. Thrust's cached temporary storage): one
  // T per session, built on first use as T(*this), destroyed with the session before its stream.
  template <class T>
  T& state() {
    static const char key = 0;  // one address per T, and per plugin (hidden visibility)
    for (auto& entry : states_) {
      if (entry.key == &key) return *static_cast<T*>(entry.object.get());
    }
    states_.push_back(
        {&key, StateObject(new T(*this), [](void* p) { delete static_cast<T*>(p); })});
    return *static_cast<T*>(states_.back().object.get());
  }

  void* alloc(uint64_t bytes) {
    make_current();
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    PB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes > free_bytes) {
      throw sdk::out_of_memory(out_of_memory_message(bytes, free_bytes, total_bytes));
    }
    void* pointer = nullptr;
    cudaError_t status = cudaMalloc(&pointer, bytes == 0 ? 1 : static_cast<size_t>(bytes));
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw sdk::out_of_memory(out_of_memory_message(bytes, free_bytes, total_bytes));
    }
    PB_CUDA_CHECK(status);
    return pointer;
  }
  void release(void* pointer) {
    if (pointer == nullptr) return;
    make_current();
    PB_CUDA_CHECK(cudaFree(pointer));
  }

  void* alloc_host(uint64_t bytes, pb_host_memory kind) {
    const size_t size = bytes == 0 ? 1 : static_cast<size_t>(bytes);
    if (kind == PB_HOST_PINNED) {
      make_current();
      void* pointer = nullptr;
      cudaError_t status = cudaMallocHost(&pointer, size);
      if (status == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        throw sdk::out_of_memory("cudaMallocHost of " + std::to_string(bytes) +
                                 " bytes of pinned host memory failed");
      }
      PB_CUDA_CHECK(status);
      return pointer;
    }
    void* pointer = std::malloc(size);
    if (pointer == nullptr) {
      throw sdk::out_of_memory("malloc of " + std::to_string(bytes) +
                               " bytes of host memory failed");
    }
    return pointer;
  }
  void release_host(void* pointer, pb_host_memory kind) {
    if (pointer == nullptr) return;
    if (kind == PB_HOST_PINNED) {
      make_current();
      PB_CUDA_CHECK(cudaFreeHost(pointer));
    } else {
      std::free(pointer);
    }
  }

  void copy_in(void* target, const void* host_source, uint64_t bytes) {
    if (bytes == 0) return;
    make_current();
    PB_CUDA_CHECK(cudaMemcpyAsync(target, host_source, bytes, cudaMemcpyHostToDevice, stream_));
    PB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void copy_out(void* host_target, const void* source, uint64_t bytes) {
    if (bytes == 0) return;
    make_current();
    PB_CUDA_CHECK(cudaMemcpyAsync(host_target, source, bytes, cudaMemcpyDeviceToHost, stream_));
    PB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void copy_within(void* target, const void* source, uint64_t bytes) {
    if (bytes == 0) return;
    make_current();
    PB_CUDA_CHECK(cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, stream_));
  }

  void sync() {
    make_current();
    PB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    PB_CUDA_CHECK(cudaGetLastError());
  }

  void timer_start() {
    make_current();
    timer_.start(stream_);
  }
  double timer_stop() {
    make_current();
    return timer_.stop(stream_);
  }
  // The sample's start waits behind a blocking kernel until timer_end (unless the timed work makes
  // the host wait for the device: flags has PB_TIMER_HOST_WAITS).
  void timer_begin(uint32_t flags) {
    make_current();
    timer_.begin(stream_, flags);
  }
  void timer_end(pb_sample_timing& timing) {
    make_current();
    timer_.end(stream_, timing);
  }

  void read_within(const void* source, uint64_t bytes) {
    make_current();
    enqueue_read(source, bytes, static_cast<uint32_t*>(read_sink_), properties_.multiProcessorCount,
                 stream_);
  }

  // Evicts the problem from L2 and leaves no dirty line for the next sample to write back: a
  // memset of twice the L2 (every line replaced; the previous sample's outputs written back now),
  // then a read of the same buffer, whose lines replace the memset's dirty ones with clean copies.
  // Persisting-L2 reservations some kernel may have made are reset too.
  void flush_cache() {
    make_current();
    if (flush_buffer_ == nullptr) {
      int l2_bytes = 0;
      PB_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device_));
      if (l2_bytes <= 0) return;
      flush_bytes_ = 2 * static_cast<size_t>(l2_bytes);
      PB_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
    }
    ++flush_value_;
    PB_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, flush_value_, flush_bytes_, stream_));
    enqueue_read(flush_buffer_, flush_bytes_, static_cast<uint32_t*>(read_sink_),
                 properties_.multiProcessorCount, stream_);
    PB_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  }

  void device_info(pb_device_info& info) {
    make_current();
    info = pb_device_info{};
    info.struct_size = sizeof(pb_device_info);
    std::snprintf(info.name, sizeof(info.name), "%s", properties_.name);
    std::snprintf(info.architecture, sizeof(info.architecture), "sm_%d%d", properties_.major,
                  properties_.minor);
    info.memory_bytes = properties_.totalGlobalMem;
    info.multiprocessors = static_cast<uint32_t>(properties_.multiProcessorCount);
    info.clock_khz = static_cast<uint32_t>(attribute(cudaDevAttrClockRate));
    info.memory_clock_khz = static_cast<uint32_t>(attribute(cudaDevAttrMemoryClockRate));
    info.memory_bus_bits = static_cast<uint32_t>(attribute(cudaDevAttrGlobalMemoryBusWidth));
    info.l2_bytes = static_cast<uint64_t>(attribute(cudaDevAttrL2CacheSize));
    int driver = 0;
    int runtime = 0;
    PB_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PB_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    std::snprintf(info.driver_version, sizeof(info.driver_version), "%s",
                  cuda_version_string(driver).c_str());
    std::snprintf(info.runtime_version, sizeof(info.runtime_version), "%s",
                  cuda_version_string(runtime).c_str());
    info.index = device_;
    if (info.struct_size >= offsetof(pb_device_info, pci_bus_id) + sizeof(info.pci_bus_id)) {
      uuid_text(properties_.uuid, info.uuid, sizeof(info.uuid));
      PB_CUDA_CHECK(cudaDeviceGetPCIBusId(info.pci_bus_id,
                                          static_cast<int>(sizeof(info.pci_bus_id)), device_));
    }
  }

 private:
  using StateObject = std::unique_ptr<void, void (*)(void*)>;
  struct State {
    const void* key;
    StateObject object;
  };

  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L and NVML write it.
  static void uuid_text(const cudaUUID_t& uuid, char* out, size_t capacity) {
    const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
    std::snprintf(out, capacity,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
  }

  int attribute(cudaDeviceAttr which) const {
    int value = 0;
    PB_CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device_));
    return value;
  }

  std::string out_of_memory_message(uint64_t bytes, size_t free_bytes, size_t total_bytes) const {
    return "cannot allocate " + std::to_string(bytes) + " bytes on CUDA device " +
           std::to_string(device_) + ": " + std::to_string(free_bytes) + " bytes free of " +
           std::to_string(total_bytes);
  }

  // Frees whatever exists, never throws: used by the destructor and by a constructor that failed.
  void release_all() noexcept {
    (void)cudaSetDevice(device_);
    while (!states_.empty()) states_.pop_back();  // newest first, before the stream goes
    if (flush_buffer_ != nullptr) (void)cudaFree(flush_buffer_);
    if (read_sink_ != nullptr) (void)cudaFree(read_sink_);
    timer_.release_all();
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    flush_buffer_ = nullptr;
    read_sink_ = nullptr;
    stream_ = nullptr;
    (void)cudaGetLastError();
  }

  int device_ = 0;
  cudaDeviceProp properties_{};
  cudaStream_t stream_ = nullptr;
  SampleTimer timer_;
  void* read_sink_ = nullptr;
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  unsigned char flush_value_ = 0;
  std::vector<State> states_;
};

#define PLUGBENCH_CUDA_STRINGIZE_(x) #x
#define PLUGBENCH_CUDA_STRINGIZE(x) PLUGBENCH_CUDA_STRINGIZE_(x)

// The GPU architectures this code was compiled for, "80,90": the target's CUDA_ARCHITECTURES as
// plugbench::cuda_services passes it (PLUGBENCH_CUDA_ARCHITECTURES), else nvcc's own list
// (__CUDA_ARCH_LIST__, "800,900"), which is also used where CMake's value names no architecture.
inline std::string cuda_architectures() {
  std::string from_build;
#if defined(PLUGBENCH_CUDA_ARCHITECTURES)
  from_build = PLUGBENCH_CUDA_ARCHITECTURES;
#endif
  if (!from_build.empty() && from_build != "native" && from_build != "all" &&
      from_build != "all-major") {
    return from_build;
  }
#if defined(__CUDA_ARCH_LIST__)
  const std::string nvcc_list = PLUGBENCH_CUDA_STRINGIZE(__CUDA_ARCH_LIST__);
  std::string architectures;
  size_t begin = 0;
  while (begin < nvcc_list.size()) {
    size_t end = nvcc_list.find(',', begin);
    if (end == std::string::npos) end = nvcc_list.size();
    if (!architectures.empty()) architectures += ",";
    architectures += std::to_string(std::stoi(nvcc_list.substr(begin, end - begin)) / 10);
    begin = end + 1;
  }
  return architectures;
#else
  return from_build;
#endif
}

// Build facts of a CUDA plugin: runtime, CCCL and the GPU architectures it carries code for.
inline std::vector<std::pair<std::string, std::string>> cuda_build_info() {
  std::vector<std::pair<std::string, std::string>> info;
  info.emplace_back("cuda_runtime", cuda_version_string(CUDART_VERSION));
#if defined(CCCL_MAJOR_VERSION)
  info.emplace_back("cccl", std::to_string(CCCL_MAJOR_VERSION) + "." +
                                std::to_string(CCCL_MINOR_VERSION) + "." +
                                std::to_string(CCCL_PATCH_VERSION));
#endif
  if (std::string architectures = cuda_architectures(); !architectures.empty()) {
    info.emplace_back("cuda_architectures", architectures);
  }
#if defined(PLUGBENCH_CUDA_RUNTIME_LIBRARY)
  info.emplace_back("cuda_runtime_library", PLUGBENCH_CUDA_RUNTIME_LIBRARY);
#endif
  return info;
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
