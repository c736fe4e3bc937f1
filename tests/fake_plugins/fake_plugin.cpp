// fake_plugin.cpp: one small reduce plugin, built several times with FAKE_* definitions, each copy
// broken in one way, so that the tests can check that the harness refuses or records it exactly
// (and one, fake_device, that poses as a GPU plugin for the crossover). The fault plugins
// (FAKE_SEGFAULT, FAKE_ABORT, FAKE_HANG, FAKE_MEMORY_HOG) take their worker process down in
// fake_loop and declare a correct good_loop after it, to show that the next cell runs in a fresh
// one.
#include <plugbench/host_services.hpp>
#include <plugbench/plugin_sdk.hpp>
#ifdef FAKE_FLUSH_SPY
#include <plugbench/openmp_services.hpp>
#endif

#include <sched.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <thread>
#include <vector>

#if defined(FAKE_SEGFAULT) || defined(FAKE_ABORT) || defined(FAKE_HANG) || defined(FAKE_MEMORY_HOG)
#define FAKE_FAULT 1
#endif

#ifndef FAKE_NAME
#error "FAKE_NAME must name the plugin"
#endif

namespace {

#if defined(FAKE_DEVICE_MEMORY) || defined(FAKE_THROTTLED) || defined(FAKE_ABI_1_0)
// The fake device's live buffers and their sizes (the harness allocates from one thread at a time).
std::map<void*, std::uint64_t>& device_buffers() {
  static std::map<void*, std::uint64_t> buffers;
  return buffers;
}

std::uint64_t device_bytes_held() {
  std::uint64_t held = 0;
  for (const auto& [pointer, bytes] : device_buffers()) held += bytes;
  return held;
}
#endif

#ifdef FAKE_FLUSH_SPY
using Services = plugbench::sdk::OpenMPHostServices;

// The permissions of the mapping that holds `address`, from /proc/self/maps ("r--p" when the
// flush buffer is read-only, as it must be).
std::string mapping_permissions(const void* address) {
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return "?";
  const auto where = reinterpret_cast<std::uintptr_t>(address);
  char line[512];
  std::string permissions = "?";
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long begin = 0, end = 0;
    char perms[8] = {};
    if (std::sscanf(line, "%lx-%lx %7s", &begin, &end, perms) == 3 && begin <= where &&
        where < end) {
      permissions = perms;
      break;
    }
  }
  std::fclose(maps);
  return permissions;
}

// Each call appends what the flush before it did: the team size, each thread's bytes read, and
// the flush buffer's permissions (tests/harness/test_measurement_protocol.cpp reads it).
void report_flush(plugbench::sdk::Call& call) {
  const char* path = std::getenv("PLUGBENCH_FAKE_FLUSH_LOG");
  if (path == nullptr) return;
  const Services& services = call.session<Services>();
  std::FILE* log = std::fopen(path, "a");
  if (log == nullptr) return;
  std::fprintf(log, "team %d buffer %zu %s read", omp_get_max_threads(),
               services.flush_buffer().bytes(),
               services.flush_buffer().allocated()
                   ? mapping_permissions(services.flush_buffer().data()).c_str()
                   : "none");
  for (const plugbench::sdk::FlushShare& share : services.last_flush_read()) {
    std::fprintf(log, " %llu:%ld", static_cast<unsigned long long>(share.bytes), share.thread_id);
  }
  std::fprintf(log, "\n");
  std::fclose(log);
}
#elif defined(FAKE_THROTTLED)
// Poses as a GPU whose default clock is 1000 MHz and whose timer reports a scripted SM clock: two
// samples in three at 400 MHz (throttled), or, with PLUGBENCH_FAKE_ALWAYS_THROTTLED, all of them.
// With PLUGBENCH_FAKE_HOLD_TIMES_OUT, every held sample reports that its hold timed out, as a
// kernel that waits for the device from the host makes a real GPU's blocking kernel do.
class Services : public plugbench::sdk::HostServices {
 public:
  using plugbench::sdk::HostServices::BasicHostServices;
  void timer_begin(std::uint32_t flags) {
    held_ = (flags & PB_TIMER_HOST_WAITS) == 0;
    timer_start();
  }
  void timer_end(pb_sample_timing& timing) {
    timing.elapsed_ms = timer_stop();
    // A sample whose hold timed out must be discarded: a time no kept sample could have.
    if (held_ && std::getenv("PLUGBENCH_FAKE_HOLD_TIMES_OUT")) timing.elapsed_ms = 999;
    ++samples_;
    const bool throttled = std::getenv("PLUGBENCH_FAKE_ALWAYS_THROTTLED") || samples_ % 3 != 0;
    timing.sm_clock_khz = throttled ? 400'000 : 1'000'000;
    timing.clock_window_ms = timing.elapsed_ms;
    timing.hold = !held_                                         ? PB_HOLD_NONE
                  : std::getenv("PLUGBENCH_FAKE_HOLD_TIMES_OUT") ? PB_HOLD_TIMED_OUT
                                                                 : PB_HOLD_RELEASED;
  }
  void device_info(pb_device_info& info) {
    std::snprintf(info.name, sizeof info.name, "%s", "fake throttled GPU");
    info.clock_khz = 1'000'000;
  }

 private:
  bool held_ = false;
  long samples_ = 0;
};
#else
using Services = plugbench::sdk::HostServices;
#endif

// Where a test asks, the kernel writes how many CPUs its OpenMP team may spread over: the CPUs of
// all OpenMP places of its worker process (fake_good only, the one built with OpenMP).
void report_openmp_cpus() {
#ifdef _OPENMP
  const char* path = std::getenv("PLUGBENCH_FAKE_CPUS_FILE");
  if (path == nullptr) return;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int place = 0; place < omp_get_num_places(); ++place) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, ids.data());
    for (int id : ids) CPU_SET(id, &cpus);
  }
  if (std::FILE* file = std::fopen(path, "w")) {
    std::fprintf(file, "%d\n", CPU_COUNT(&cpus));
    std::fclose(file);
  }
#endif
}

void reduce_loop(plugbench::sdk::Call& call) {
  [[maybe_unused]] const auto call_started = std::chrono::steady_clock::now();
  report_openmp_cpus();
#ifdef FAKE_FLUSH_SPY
  report_flush(call);
#endif
  const std::int32_t* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
#ifdef FAKE_WRONG_ANSWER
  sum += 1;  // off by one: the verifier must catch it
#endif
#ifdef FAKE_KERNEL_ERROR
  throw std::runtime_error("fake kernel error: the device caught fire");
#endif
#ifdef FAKE_SEGFAULT
  // PLUGBENCH_FAKE_CRASH_ON_CALL=k: the k-th call of this worker crashes (a sample, past the
  // checked call), the calls before it are right; unset: every call crashes.
  static int calls = 0;
  const char* crash_on = std::getenv("PLUGBENCH_FAKE_CRASH_ON_CALL");
  if (crash_on == nullptr || ++calls >= std::atoi(crash_on)) {
    volatile std::uintptr_t wild = 8;  // a wild pointer, opaque to the compiler
    *reinterpret_cast<std::int64_t*>(wild) = sum;
  }
#endif
#ifdef FAKE_ABORT
  std::fputs("fake plugin: an assertion failed, calling abort()\n", stderr);
  std::abort();
#endif
#ifdef FAKE_HANG
  // A test that must act while the hang is in flight waits for this file, not for a fixed time.
  if (const char* marker = std::getenv("PLUGBENCH_FAKE_HANG_MARKER")) {
    if (std::FILE* file = std::fopen(marker, "w")) std::fclose(file);
  }
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
#endif
#ifdef FAKE_MEMORY_HOG
  // Leaks without bound, as a runaway allocation would; the memory stays taken.
  static std::vector<void*> hoard;
  hoard.reserve(1 << 20);
  while (true) {
    void* block = std::malloc(std::size_t{256} << 20);
    if (block == nullptr) throw std::bad_alloc();
    hoard.push_back(block);
  }
#endif
#ifdef FAKE_SLOWDOWN
  // PLUGBENCH_FAKE_SLOWDOWN=f: the same answer, then f times the call's own time spent on
  // nothing: a slowdown of f for the comparison's A/B proof, whatever the machine.
  if (const char* slowdown = std::getenv("PLUGBENCH_FAKE_SLOWDOWN")) {
    const auto took = std::chrono::steady_clock::now() - call_started;
    const auto until =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(took * std::atof(slowdown));
    while (std::chrono::steady_clock::now() < until) {
    }
  }
#endif
  *call.output<std::int64_t>(0) = sum;
}

PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "fake_loop", .description = "fake", .run = reduce_loop});

#ifdef FAKE_DEVICE_MEMORY
// A second cell in the same worker, for a device too small for both (PLUGBENCH_FAKE_DEVICE_BYTES).
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "fake_loop_twin",
                  .description = "fake_loop again",
                  .run = reduce_loop});
#endif

#ifdef FAKE_FAULT
#ifdef FAKE_HANG
// A hang that also ignores SIGTERM: the harness must escalate to SIGKILL.
void reduce_deaf(plugbench::sdk::Call&) {
  std::signal(SIGTERM, SIG_IGN);
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "ignores_sigterm",
                  .description = "hangs, deaf to SIGTERM",
                  .run = reduce_deaf});
#endif

void reduce_good(plugbench::sdk::Call& call) {
  const std::int32_t* x = call.input<std::int32_t>(0);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < call.n(); ++i) sum += x[i];
  *call.output<std::int64_t>(0) = sum;
}
PLUGBENCH_KERNEL(
    {.workload = "reduce", .variant = "good_loop", .description = "correct", .run = reduce_good});
#endif

#ifdef FAKE_ABI_1_0
[[noreturn]] void read_past_the_table() {
  std::fputs("fake plugin: the harness read past an ABI 1.0 table\n", stderr);
  std::abort();
}
#endif

#ifndef FAKE_NO_ENTRY
const pb_plugin* fake_entry(std::uint16_t major, std::uint16_t minor, pb_error* error) {
#ifdef FAKE_NULL_ENTRY
  (void)major;
  (void)minor;
  plugbench::sdk::write_message(error, "fake plugin refuses to start");
  return nullptr;
#else
  (void)minor;
  const pb_plugin* table = plugbench::sdk::entry<Services>(
      {.name = FAKE_NAME, .version = "0.0.1", .description = "a test plugin"}, major, error);
  if (table == nullptr) return nullptr;
  static pb_plugin copy = *table;
#ifdef FAKE_ABI_MAJOR
  copy.abi_major = FAKE_ABI_MAJOR;
#endif
#ifdef FAKE_ABI_MINOR
  copy.abi_minor = FAKE_ABI_MINOR;
#endif
#ifdef FAKE_ABI_1_0
  // A table as an ABI 1.0 plugin built it: it ends at kernel_count. What lies past it is not the
  // plugin's, and a harness that read it would call these (the plugin poses as device memory, so
  // that such a harness would reach for the sample timer and read_within too).
  copy.abi_minor = 0;
  copy.struct_size = offsetof(pb_plugin, kernel_count) + sizeof(copy.kernel_count);
  copy.execution_context = [](void*, pb_execution_context*, pb_error*) -> pb_status {
    read_past_the_table();
  };
  copy.timer_begin = [](void*, std::uint32_t, pb_error*) -> pb_status { read_past_the_table(); };
  copy.timer_end = [](void*, pb_sample_timing*, pb_error*) -> pb_status { read_past_the_table(); };
  copy.read_within = [](void*, const void*, std::uint64_t, pb_error*) -> pb_status {
    read_past_the_table();
  };
#endif
#if defined(FAKE_DEVICE_MEMORY) || defined(FAKE_THROTTLED) || defined(FAKE_ABI_1_0)
  // Host memory posing as a device's, so that copies are timed apart and crossovers computed; a
  // small "device" (64 MiB buffers at most) keeps the harness's bandwidth calibration short.
  // PLUGBENCH_FAKE_DEVICE_BYTES=N: the device holds N bytes in all (its buffers alive at once).
  static const auto host_alloc = copy.alloc;
  static const auto host_release = copy.release;
  copy.memory_space = PB_MEMORY_DEVICE;
  copy.alloc = [](void* session, std::uint64_t bytes, void** pointer, pb_error* e) {
    if (bytes > (std::uint64_t{64} << 20)) {
      plugbench::sdk::write_message(e, "fake device: 64 MiB buffers at most");
      return PB_OUT_OF_MEMORY;
    }
    const char* limit = std::getenv("PLUGBENCH_FAKE_DEVICE_BYTES");
    if (limit != nullptr && device_bytes_held() + bytes > std::strtoull(limit, nullptr, 10)) {
      plugbench::sdk::write_message(e, "fake device: PLUGBENCH_FAKE_DEVICE_BYTES is full");
      return PB_OUT_OF_MEMORY;
    }
    const pb_status status = host_alloc(session, bytes, pointer, e);
    if (status == PB_OK) device_buffers()[*pointer] = bytes;
    return status;
  };
  copy.release = [](void* session, void* pointer) {
    device_buffers().erase(pointer);
    host_release(session, pointer);
  };
#endif
#ifdef FAKE_UNAVAILABLE
  copy.probe = [](pb_error* e) {
    plugbench::sdk::write_message(e, "fake device is switched off");
    return PB_UNAVAILABLE;
  };
#endif
  return &copy;
#endif
}
#endif

}  // namespace

#ifndef FAKE_NO_ENTRY
BOOST_DLL_ALIAS(fake_entry, plugbench_plugin_entry)
#else
// Exports something, but not the entry.
extern "C" __attribute__((visibility("default"))) int fake_not_an_entry() {
  return 42;
}
#endif
