// host_services.hpp: memory services for plugins whose data lives in ordinary host memory
// (cpu_serial, openmp, any CPU backend): aligned allocation, memcpy, a monotonic-clock timer, and
// a cache flush that streams over a buffer larger than the last-level cache.
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)

namespace plugbench::sdk {

class HostServices {
 public:
  static bool probe(std::string&) { return true; }

  explicit HostServices(int32_t /*device*/) {}

  void* alloc(uint64_t bytes) {
    // 64-byte alignment: whole cache lines, and room for any vector width.
    void* pointer = nullptr;
    if (posix_memalign(&pointer, 64, bytes == 0 ? 64 : bytes) != 0) {
      throw out_of_memory("posix_memalign of " + std::to_string(bytes) + " bytes failed");
    }
    return pointer;
  }
  void release(void* pointer) { std::free(pointer); }
  void* alloc_host(uint64_t bytes, pb_host_memory) { return alloc(bytes); }
  void release_host(void* pointer, pb_host_memory) { release(pointer); }
  void copy_in(void* target, const void* source, uint64_t bytes) {
    if (bytes) std::memcpy(target, source, bytes);
  }
  void copy_out(void* target, const void* source, uint64_t bytes) {
    if (bytes) std::memcpy(target, source, bytes);
  }
  void copy_within(void* target, const void* source, uint64_t bytes) {
    if (bytes) std::memcpy(target, source, bytes);
  }
  void sync() {}
  void timer_start() { start_ = std::chrono::steady_clock::now(); }
  double timer_stop() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }
  // Writes and reads a buffer of twice the last-level cache, so no problem data stays cached.
  void flush_cache() {
    if (flush_buffer_.empty()) flush_buffer_.assign(flush_bytes(), 1);
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < flush_buffer_.size(); i += 64) {
      flush_buffer_[i] = static_cast<unsigned char>(flush_buffer_[i] + 1);
      sink = sink + flush_buffer_[i];
    }
  }

 private:
  static size_t flush_bytes() {
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    long largest = l3 > 0 ? l3 : (l2 > 0 ? l2 : 0);
    const size_t fallback = size_t{64} << 20;  // when the OS does not say: 64 MiB
    return largest > 0 ? 2 * static_cast<size_t>(largest) : fallback;
  }

  std::chrono::steady_clock::time_point start_{};
  std::vector<unsigned char> flush_buffer_;
};

}  // namespace plugbench::sdk

#pragma GCC visibility pop
