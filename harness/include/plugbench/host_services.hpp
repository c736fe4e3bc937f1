// host_services.hpp: memory services for plugins whose data lives in ordinary host memory
// (cpu_serial, openmp, any CPU backend): aligned allocation, memcpy, a monotonic-clock timer that
// starts with the plugin's thread team awake, and a cache flush that the whole team runs.
//
// A "team" says who runs the plugin's kernels. HostServices is for serial code;
// plugbench/openmp_services.hpp has OpenMPHostServices, whose flush and wake-up run on every
// thread of the OpenMP team (docs/measurement.md says why both matter).
#pragma once

#include <plugbench/plugin_sdk.hpp>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)

namespace plugbench::sdk {

// The team of serial code: the calling thread alone.
struct SerialTeam {
  static int size() { return 1; }
  // Runs body(thread, threads) on every thread of the team.
  template <class Body>
  static void run(Body&& body) {
    body(0, 1);
  }
  // Makes sure every thread of the team is running, not asleep, before a sample's clock starts.
  static void wake() {}
  static void describe(pb_execution_context& context) {
    context.threads = 1;
    std::snprintf(context.binding, sizeof context.binding, "%s", "serial");
    context.places[0] = '\0';
  }
};

// PLUGBENCH_CALIBRATION=quick: the test suite's setting (tests/CMakeLists.txt) for every harness
// it starts: buffers the size of a cache, so that a run in a test costs milliseconds, not seconds
// of every core's memory traffic. Never for figures anyone reads: each peak says so.
// Its host buffers (the peaks' loops, a host plugin's cold flush) are this size.
constexpr size_t kQuickScaleHostBytes = size_t{8} << 20;
inline bool quick_scale_for_tests() {
  const char* value = std::getenv("PLUGBENCH_CALIBRATION");
  return value != nullptr && std::strcmp(value, "quick") == 0;
}

// What one thread of the team read in a flush: bytes, and which OS thread it was.
struct FlushShare {
  uint64_t bytes = 0;
  long thread_id = 0;  // gettid()
};

// A buffer larger than every cache level the team can reach, written once and then only read: a
// flush that reads it evicts the problem's lines, writes the previous sample's dirty outputs back
// while it runs, and leaves only clean lines behind.
class HostFlushBuffer {
 public:
  HostFlushBuffer() = default;
  HostFlushBuffer(const HostFlushBuffer&) = delete;
  HostFlushBuffer& operator=(const HostFlushBuffer&) = delete;
  ~HostFlushBuffer() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }

  // At least twice the last-level cache, and twice each thread's private L2 for its share. Under
  // the test suite's quick scale (PLUGBENCH_CALIBRATION=quick: docs/measurement.md) 8 MiB, which
  // evicts no large cache: its tests check how samples are taken, never what a cold one costs.
  static size_t bytes_for(int threads) {
    if (quick_scale_for_tests()) return kQuickScaleHostBytes;
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    size_t bytes = 0;
    if (l3 > 0) bytes = 2 * static_cast<size_t>(l3);
    if (l2 > 0) bytes = std::max(bytes, 2 * static_cast<size_t>(l2) * std::max(threads, 1));
    if (bytes == 0) bytes = size_t{64} << 20;  // the OS does not say: 64 MiB
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
  }

  bool allocated() const { return data_ != nullptr; }
  const unsigned char* data() const { return data_; }
  size_t bytes() const { return bytes_; }

  // Allocates and fills the buffer on the team (each thread first-touches its own share), then
  // makes it read-only: no later flush can leave a dirty line.
  template <class Team>
  void allocate() {
    const size_t bytes = bytes_for(Team::size());
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      throw out_of_memory("cannot map a cache-flush buffer of " + std::to_string(bytes) + " bytes");
    }
    // Huge pages from the first touch: fewer TLB misses while flushing, and nothing left for the
    // kernel to collapse in the background while samples run (a core it takes stalls a team).
    (void)madvise(memory, bytes, MADV_HUGEPAGE);
    auto* data = static_cast<unsigned char*>(memory);
    try {
      Team::run([&](int thread, int threads) {
        const size_t begin = share_begin(bytes, thread, threads);
        const size_t end = share_begin(bytes, thread + 1, threads);
        std::memset(data + begin, 1 + thread % 255, end - begin);
      });
    } catch (...) {
      munmap(memory, bytes);
      throw;
    }
    if (mprotect(memory, bytes, PROT_READ) != 0) {
      munmap(memory, bytes);
      throw Failure(PB_ERROR, "cannot make the cache-flush buffer read-only");
    }
    data_ = data;
    bytes_ = bytes;
  }

  // Every thread of the team reads its share, one word a cache line (a line is fetched whole).
  // Returns what each thread read, indexed by its number in the team.
  template <class Team>
  std::vector<FlushShare> read_on() const {
    std::vector<FlushShare> read(static_cast<size_t>(std::max(Team::size(), 1)));
    const unsigned char* data = data_;
    const size_t bytes = bytes_;
    Team::run([&](int thread, int threads) {
      const size_t begin = share_begin(bytes, thread, threads);
      const size_t end = share_begin(bytes, thread + 1, threads);
      uint64_t sum = 0;
      for (size_t i = begin; i < end; i += 64) {
        uint64_t word;
        std::memcpy(&word, data + i, sizeof word);
        sum += word;
      }
      volatile uint64_t sink = sum;  // the reads must happen
      (void)sink;
      if (static_cast<size_t>(thread) < read.size()) {
        read[thread] = {end - begin, static_cast<long>(syscall(SYS_gettid))};
      }
    });
    return read;
  }

 private:
  // Equal shares of whole cache lines; the last thread also takes what does not divide.
  static size_t share_begin(size_t bytes, int thread, int threads) {
    if (thread >= threads) return bytes;
    return bytes / 64 / static_cast<size_t>(threads) * 64 * static_cast<size_t>(thread);
  }

  unsigned char* data_ = nullptr;
  size_t bytes_ = 0;
};

// Problem buffers of 2 MiB and more are mapped on huge-page boundaries and asked for huge pages:
// the pages then exist from the first touch, and the OS has nothing to collapse in the background
// while samples run (on the H200's host the first samples of a fresh 64 MiB buffer ran 2-5x
// slower until that work ended).
class HugePageBuffers {
 public:
  static constexpr size_t kHugePage = size_t{2} << 20;

  HugePageBuffers() = default;
  HugePageBuffers(const HugePageBuffers&) = delete;
  HugePageBuffers& operator=(const HugePageBuffers&) = delete;
  ~HugePageBuffers() {
    for (const auto& [pointer, mapping] : mappings_) munmap(mapping.first, mapping.second);
  }

  void* alloc(uint64_t bytes) {
    if (bytes < kHugePage) {
      // 64-byte alignment: whole cache lines, and room for any vector width.
      void* pointer = nullptr;
      if (posix_memalign(&pointer, 64, bytes == 0 ? 64 : bytes) != 0) {
        throw out_of_memory("posix_memalign of " + std::to_string(bytes) + " bytes failed");
      }
      return pointer;
    }
    const size_t length = (bytes + kHugePage - 1) / kHugePage * kHugePage + kHugePage;
    void* mapping =
        mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
      throw out_of_memory("mmap of " + std::to_string(bytes) + " bytes of host memory failed");
    }
    const auto address = reinterpret_cast<uintptr_t>(mapping);
    auto* aligned = reinterpret_cast<void*>((address + kHugePage - 1) / kHugePage * kHugePage);
    (void)madvise(aligned, (bytes + kHugePage - 1) / kHugePage * kHugePage, MADV_HUGEPAGE);
    mappings_[aligned] = {mapping, length};
    return aligned;
  }
  void release(void* pointer) {
    auto it = mappings_.find(pointer);
    if (it == mappings_.end()) {
      std::free(pointer);
      return;
    }
    munmap(it->second.first, it->second.second);
    mappings_.erase(it);
  }

 private:
  std::map<void*, std::pair<void*, size_t>> mappings_;  // aligned -> the whole mapping
};

template <class Team>
class BasicHostServices {
 public:
  static bool probe(std::string&) { return true; }

  explicit BasicHostServices(int32_t /*device*/) {}

  void* alloc(uint64_t bytes) { return buffers_.alloc(bytes); }
  void release(void* pointer) { buffers_.release(pointer); }
  void* alloc_host(uint64_t bytes, pb_host_memory) { return alloc(bytes); }
  void release_host(void* pointer, pb_host_memory) { release(pointer); }
  // Copies run on the team, each thread its share: a buffer's pages are first touched by the
  // threads (and so near the cores) that will read them.
  void copy_in(void* target, const void* source, uint64_t bytes) {
    team_copy(target, source, bytes);
  }
  void copy_out(void* target, const void* source, uint64_t bytes) {
    team_copy(target, source, bytes);
  }
  void copy_within(void* target, const void* source, uint64_t bytes) {
    team_copy(target, source, bytes);
  }
  void sync() {}
  // The team is woken outside the timed region: a sample never pays for threads that fell asleep
  // while the harness flushed or verified.
  void timer_start() {
    Team::wake();
    start_ = std::chrono::steady_clock::now();
  }
  double timer_stop() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }
  // Every thread of the team reads its share of a read-only buffer larger than the caches.
  void flush_cache() {
    if (!flush_buffer_.allocated()) flush_buffer_.template allocate<Team>();
    last_flush_read_ = flush_buffer_.template read_on<Team>();
  }
  void execution_context(pb_execution_context& context) { Team::describe(context); }

  // For tests and curious plugins: the flush buffer, and what each thread read in the last flush.
  const HostFlushBuffer& flush_buffer() const { return flush_buffer_; }
  const std::vector<FlushShare>& last_flush_read() const { return last_flush_read_; }

 private:
  static void team_copy(void* target, const void* source, uint64_t bytes) {
    if (bytes == 0) return;
    Team::run([&](int thread, int threads) {
      // Shares of whole 4 KiB pages, so that no page is first touched by two threads.
      const uint64_t pages = (bytes + 4095) / 4096;
      const uint64_t begin = std::min<uint64_t>(bytes, pages * thread / threads * 4096);
      const uint64_t end = std::min<uint64_t>(bytes, pages * (thread + 1) / threads * 4096);
      if (end > begin) {
        std::memcpy(static_cast<char*>(target) + begin, static_cast<const char*>(source) + begin,
                    end - begin);
      }
    });
  }

  HugePageBuffers buffers_;
  std::chrono::steady_clock::time_point start_{};
  HostFlushBuffer flush_buffer_;
  std::vector<FlushShare> last_flush_read_;
};

using HostServices = BasicHostServices<SerialTeam>;

}  // namespace plugbench::sdk

#pragma GCC visibility pop
