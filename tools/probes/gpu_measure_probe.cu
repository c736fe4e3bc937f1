// gpu_measure_probe.cu: times the cub plugin's reduce, scan and sort calls outside the harness,
// under the harness's measurement protocol (L2 flush, nvbench-style blocking kernel, CUDA events),
// and records the SM clock of every sample, so that its figures can be set beside the harness's
// (tools/probes/compare_probe.py).
//
// Self-contained on purpose: no harness or plugin code, only the CUDA runtime and CUB, so a
// difference between the two figures points at the harness and not at shared code. The CUB calls
// are the plugin's (plugins/cub/{reduce,scan,sort}.cu): same element types, a uint32_t item count
// (CUB then picks 32-bit offsets, as it does for the plugin), the temporary storage sized by one
// query and allocated outside the timed region, a non-blocking stream.
// Build and run on an sm_90 GPU:
//   nvcc -O3 -std=c++20 -arch=sm_90 tools/probes/gpu_measure_probe.cu -o /tmp/gpu_measure_probe
//   /tmp/gpu_measure_probe [--sizes 20,22,24,26,28] [--cache cold|warm|both] [-r R]
//                          [--workloads reduce,scan,sort] [--no-block] > gpu.csv
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

// --- device helpers -------------------------------------------------------------------------

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Host-mapped pinned memory shared by host and device: the blocking kernel's release and timeout
// flags and the two timestamp slots (0: before the start event, 1: after the stop event).
struct Mapped {
  volatile int release;
  volatile int timed_out;
  volatile unsigned long long timer_ns[2];
  volatile unsigned long long clock[2];
};

// Which block of a timestamp launch writes its slot: one only, so that the timer and the clock of
// a slot come from the same block. In device memory: atomics on mapped host memory need PCIe
// atomics that a host may not have.
__device__ unsigned g_claim[2];
__device__ unsigned g_flush_sink;

constexpr unsigned long long kBlockTimeoutNs = 1'000'000'000ull;  // 1 s, as nvbench's

// nvbench's blocking_kernel: holds the stream while the host queues the timed work behind it, so
// that the start event is not recorded until the launches are all queued and the measured time is
// the GPU's, not the launch latency. Gives up after a second so that a host that never releases
// (a call that synchronizes) cannot hang the probe.
__global__ void blocking_kernel(Mapped* m) {
  const unsigned long long start = global_timer();
  while (m->release == 0) {
    if (global_timer() - start > kBlockTimeoutNs) {
      m->timed_out = 1;
      __threadfence_system();
      return;
    }
  }
}

// 2 x SM-count one-thread blocks, so that some block lands on SM 0 and records the timer and its
// SM clock there (clock64 counts one SM's cycles: both slots must come from the same SM).
__global__ void timestamp_kernel(Mapped* m, int slot) {
  if (sm_id() != 0) return;
  if (atomicCAS(&g_claim[slot], 0u, 1u) != 0u) return;
  const unsigned long long t = global_timer();
  const long long c = clock64();
  m->timer_ns[slot] = t;
  m->clock[slot] = static_cast<unsigned long long>(c);
  __threadfence_system();
}

// Reads the whole flush buffer with 16-byte loads so that the L2 ends up holding clean lines of
// it (the memset before it leaves dirty ones whose write-backs the timed call would otherwise
// pay). The conditional store keeps the loads from being elided; `magic` is never hit in practice.
__global__ void flush_read_kernel(const uint4* p, size_t n4, unsigned magic) {
  unsigned sum = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n4;
       i += size_t{gridDim.x} * blockDim.x) {
    const uint4 v = p[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == magic) g_flush_sink = sum;
}

// The smallest step of %globaltimer seen in 10000 back-to-back reads: how finely the per-sample
// SM clock (a ratio over the timer) can resolve a short call.
__global__ void timer_resolution_kernel(unsigned long long* out) {
  unsigned long long previous = global_timer();
  const unsigned long long first = previous;
  unsigned long long smallest = ~0ull;
  unsigned long long changes = 0;
  for (int i = 0; i < 10000; ++i) {
    const unsigned long long t = global_timer();
    if (t != previous) {
      smallest = min(smallest, t - previous);
      ++changes;
      previous = t;
    }
  }
  out[0] = changes ? smallest : 0;
  out[1] = changes;
  out[2] = previous - first;
}

// --- the CUB calls, as the plugin makes them --------------------------------------------------

cudaError_t device_sum(void* storage, size_t& bytes, const int32_t* in, int64_t* sum, uint32_t n,
                       cudaStream_t stream) {
  return cub::DeviceReduce::Sum(storage, bytes, in, sum, n, stream);
}

cudaError_t device_scan(void* storage, size_t& bytes, const uint32_t* in, uint32_t* out, uint32_t n,
                        cudaStream_t stream) {
  return cub::DeviceScan::ExclusiveSum(storage, bytes, in, out, n, stream);
}

// Input to output (no DoubleBuffer), all 32 bits: CUB keeps the alternate buffer in its storage.
cudaError_t device_sort(void* storage, size_t& bytes, const uint32_t* in, uint32_t* out, uint32_t n,
                        cudaStream_t stream) {
  return cub::DeviceRadixSort::SortKeys(storage, bytes, in, out, n, 0, 32, stream);
}

// --- statistics -----------------------------------------------------------------------------

struct Stats {
  double median = 0, mean = 0, min = 0, max = 0, cv = NAN;
};

// cv with the sample standard deviation (n - 1), as Google Benchmark computes it for the harness.
Stats statistics(std::vector<double> samples) {
  Stats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  s.min = samples.front();
  s.max = samples.back();
  double total = 0;
  for (double v : samples) total += v;
  s.mean = total / n;
  if (n > 1 && s.mean > 0) {
    double squares = 0;
    for (double v : samples) squares += (v - s.mean) * (v - s.mean);
    s.cv = std::sqrt(squares / (n - 1)) / s.mean;
  }
  return s;
}

// Every sample in the order taken, space-separated: compare_probe.py pools them over runs.
std::string joined_samples(const std::vector<double>& samples) {
  std::string text;
  char value[32];
  for (double v : samples) {
    std::snprintf(value, sizeof value, "%s%.6f", text.empty() ? "" : " ", v);
    text += value;
  }
  return text;
}

// --- the protocol ---------------------------------------------------------------------------

struct Options {
  std::vector<int> log2_sizes{20, 22, 24, 26, 28};
  std::vector<std::string> caches{"cold", "warm"};
  std::vector<std::string> workloads{"reduce", "scan", "sort"};
  int repetitions = 0;  // 0: the default, 20 (sort: 10)
  bool block = true;
};

class Bench {
 public:
  explicit Bench(const Options& options) : options_(options) {
    CHECK(cudaGetDevice(&device_));
    CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_));
    CHECK(cudaDeviceGetAttribute(&l2_bytes_, cudaDevAttrL2CacheSize, device_));
    CHECK(cudaDeviceGetAttribute(&clock_khz_, cudaDevAttrClockRate, device_));
    CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start_));
    CHECK(cudaEventCreate(&stop_));
    CHECK(cudaHostAlloc(&mapped_, sizeof(Mapped), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_device_), mapped_, 0));
    CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&claim_), g_claim));
    flush_bytes_ = 2 * static_cast<size_t>(std::max(l2_bytes_, 1 << 20));
    flush_bytes_ = (flush_bytes_ + 15) / 16 * 16;
    CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, device_));
    std::fprintf(stderr, "gpu probe: %s, %d SMs, L2 %d B, default SM clock %d MHz\n", prop.name,
                 sms_, l2_bytes_, clock_khz_ / 1000);
    std::fprintf(stderr, "gpu probe: flush buffer %zu B (%.1f MiB), blocking kernel %s\n",
                 flush_bytes_, flush_bytes_ / 1048576.0,
                 options_.block ? "on" : "off (--no-block)");
    report_timer_resolution();
  }
  ~Bench() {
    cudaFree(flush_buffer_);
    cudaFreeHost(mapped_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  cudaStream_t stream() const { return stream_; }

  // An untimed call in place of the harness's checked call (the caller verified one call's answer
  // before), one warm-up, then the samples; one CSV row.
  template <class Call>
  void run(const char* workload, uint64_t n, const std::string& cache, int repetitions,
           const Call& call) {
    const bool cold = cache == "cold";
    CHECK(call());  // the checked call's place
    CHECK(call());  // warm-up
    CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> samples, clocks_mhz;
    int timeouts = 0;
    for (int r = 0; r < repetitions; ++r) {
      mapped_->release = 0;
      mapped_->timed_out = 0;
      for (int s = 0; s < 2; ++s) {
        mapped_->timer_ns[s] = 0;
        mapped_->clock[s] = 0;
      }
      std::atomic_thread_fence(std::memory_order_seq_cst);
      if (cold) flush();
      CHECK(cudaMemsetAsync(claim_, 0, 2 * sizeof(unsigned), stream_));
      if (options_.block) {
        blocking_kernel<<<1, 1, 0, stream_>>>(mapped_device_);
        CHECK(cudaGetLastError());
      }
      timestamp_kernel<<<2 * sms_, 1, 0, stream_>>>(mapped_device_, 0);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(start_, stream_));
      CHECK(call());
      CHECK(cudaEventRecord(stop_, stream_));
      timestamp_kernel<<<2 * sms_, 1, 0, stream_>>>(mapped_device_, 1);
      CHECK(cudaGetLastError());
      if (options_.block) {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        mapped_->release = 1;
      }
      CHECK(cudaEventSynchronize(stop_));
      CHECK(cudaStreamSynchronize(stream_));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start_, stop_));
      samples.push_back(ms);
      if (mapped_->timed_out) ++timeouts;
      const unsigned long long t0 = mapped_->timer_ns[0], t1 = mapped_->timer_ns[1];
      const unsigned long long c0 = mapped_->clock[0], c1 = mapped_->clock[1];
      // 0 (not kept) when a slot is empty: no block of that launch ran on SM 0.
      if (t0 && t1 && c0 && c1 && t1 > t0) {
        clocks_mhz.push_back(static_cast<double>(c1 - c0) / static_cast<double>(t1 - t0) * 1e3);
      }
    }
    if (timeouts) {
      std::fprintf(stderr,
                   "gpu probe: %s n=%llu %s: the blocking kernel timed out in %d of %d samples "
                   "(those include launch latency)\n",
                   workload, static_cast<unsigned long long>(n), cache.c_str(), timeouts,
                   repetitions);
    }
    if (clocks_mhz.size() < samples.size()) {
      std::fprintf(stderr, "gpu probe: %s n=%llu %s: SM clock read in %zu of %zu samples\n",
                   workload, static_cast<unsigned long long>(n), cache.c_str(), clocks_mhz.size(),
                   samples.size());
    }
    print_row(workload, n, cache, samples, clocks_mhz);
  }

 private:
  // Dirty lines of a memset, then a read of the same buffer: L2 left full of clean lines of a
  // buffer twice its size. The value changes each time so that no flush repeats the last one.
  void flush() {
    CHECK(cudaCtxResetPersistingL2Cache());
    flush_value_ = flush_value_ % 255 + 1;
    CHECK(cudaMemsetAsync(flush_buffer_, flush_value_, flush_bytes_, stream_));
    flush_read_kernel<<<sms_ * 8, 256, 0, stream_>>>(static_cast<const uint4*>(flush_buffer_),
                                                     flush_bytes_ / 16, 0x9e3779b9u);
    CHECK(cudaGetLastError());
  }

  void report_timer_resolution() {
    unsigned long long* out = nullptr;
    CHECK(cudaMalloc(&out, 3 * sizeof(unsigned long long)));
    timer_resolution_kernel<<<1, 1, 0, stream_>>>(out);
    CHECK(cudaGetLastError());
    unsigned long long host[3] = {};
    CHECK(cudaMemcpyAsync(host, out, sizeof host, cudaMemcpyDeviceToHost, stream_));
    CHECK(cudaStreamSynchronize(stream_));
    CHECK(cudaFree(out));
    if (host[1] == 0) {
      std::fprintf(stderr, "gpu probe: %%globaltimer did not change in 10000 reads\n");
    } else {
      std::fprintf(stderr,
                   "gpu probe: %%globaltimer resolution %llu ns (smallest step; %llu steps over "
                   "%llu ns in 10000 reads)\n",
                   host[0], host[1], host[2]);
    }
  }

  void print_row(const char* workload, uint64_t n, const std::string& cache,
                 const std::vector<double>& samples, const std::vector<double>& clocks) {
    const Stats s = statistics(samples);
    char cv[32] = "", clock_mean[32] = "", clock_min[32] = "";
    if (!std::isnan(s.cv)) std::snprintf(cv, sizeof cv, "%.6f", s.cv);
    if (!clocks.empty()) {
      double total = 0;
      for (double c : clocks) total += c;
      std::snprintf(clock_mean, sizeof clock_mean, "%.1f", total / clocks.size());
      std::snprintf(clock_min, sizeof clock_min, "%.1f",
                    *std::min_element(clocks.begin(), clocks.end()));
    }
    // threads is left empty: a GPU call has no team size to report.
    std::printf("gpu,%s,%llu,%s,,%.6f,%.6f,%.6f,%.6f,%s,%zu,%s,%s,%d,%s\n", workload,
                static_cast<unsigned long long>(n), cache.c_str(), s.median, s.mean, s.min, s.max,
                cv, samples.size(), clock_mean, clock_min, clock_khz_ / 1000,
                joined_samples(samples).c_str());
    std::fflush(stdout);
  }

  const Options& options_;
  int device_ = 0, sms_ = 0, l2_bytes_ = 0, clock_khz_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  Mapped* mapped_ = nullptr;
  Mapped* mapped_device_ = nullptr;
  unsigned* claim_ = nullptr;
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  int flush_value_ = 0;
};

// Temporary storage of the size one query asks for (at least 1 byte, as the plugin's workspace),
// allocated before any timing.
struct DeviceBuffer {
  void* p = nullptr;
  size_t bytes = 0;
  explicit DeviceBuffer(size_t b) : bytes(b) { CHECK(cudaMalloc(&p, std::max<size_t>(b, 1))); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class T>
std::vector<T> copy_out(const DeviceBuffer& buffer, size_t count) {
  std::vector<T> host(count);
  CHECK(cudaMemcpy(host.data(), buffer.p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

int g_failures = 0;

void fail(const char* workload, uint64_t n, const char* what) {
  std::fprintf(stderr, "gpu probe: %s n=%llu: wrong answer: %s (timings still printed)\n", workload,
               static_cast<unsigned long long>(n), what);
  ++g_failures;
}

void probe_reduce(Bench& bench, const Options& options, uint32_t n, int repetitions) {
  // The harness's mod100 inputs: mt19937 seed 26, gen() % 100.
  std::vector<int32_t> x(n);
  std::mt19937 gen(26);
  int64_t expected = 0;
  for (int32_t& v : x) {
    v = static_cast<int32_t>(gen() % 100);
    expected += v;
  }
  DeviceBuffer in(n * sizeof(int32_t)), out(sizeof(int64_t));
  CHECK(cudaMemcpy(in.p, x.data(), in.bytes, cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CHECK(device_sum(nullptr, temp_bytes, nullptr, nullptr, n, bench.stream()));
  DeviceBuffer temp(temp_bytes);
  auto call = [&] {
    size_t bytes = temp_bytes;  // CUB's in-out argument: a copy per call, as the plugin's
    return device_sum(temp.p, bytes, in.as<int32_t>(), out.as<int64_t>(), n, bench.stream());
  };
  CHECK(cudaMemset(out.p, 0xff, out.bytes));  // poisoned, as the harness's checked call
  CHECK(call());
  CHECK(cudaStreamSynchronize(bench.stream()));
  if (copy_out<int64_t>(out, 1)[0] != expected) fail("reduce", n, "sum differs");
  for (const std::string& cache : options.caches) bench.run("reduce", n, cache, repetitions, call);
}

void probe_scan(Bench& bench, const Options& options, uint32_t n, int repetitions) {
  // The harness's random inputs: mt19937 seed 3, full 32-bit values; the sums wrap mod 2^32.
  std::vector<uint32_t> x(n);
  std::mt19937 gen(3);
  for (uint32_t& v : x) v = static_cast<uint32_t>(gen());
  DeviceBuffer in(n * sizeof(uint32_t)), out(n * sizeof(uint32_t));
  CHECK(cudaMemcpy(in.p, x.data(), in.bytes, cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CHECK(device_scan(nullptr, temp_bytes, nullptr, nullptr, n, bench.stream()));
  DeviceBuffer temp(temp_bytes);
  auto call = [&] {
    size_t bytes = temp_bytes;  // CUB's in-out argument: a copy per call, as the plugin's
    return device_scan(temp.p, bytes, in.as<uint32_t>(), out.as<uint32_t>(), n, bench.stream());
  };
  CHECK(cudaMemset(out.p, 0xff, out.bytes));
  CHECK(call());
  CHECK(cudaStreamSynchronize(bench.stream()));
  const std::vector<uint32_t> prefix = copy_out<uint32_t>(out, n);
  uint32_t running = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (prefix[i] != running) {
      fail("scan", n, "prefix sums differ");
      break;
    }
    running += x[i];
  }
  for (const std::string& cache : options.caches) bench.run("scan", n, cache, repetitions, call);
}

void probe_sort(Bench& bench, const Options& options, uint32_t n, int repetitions) {
  // The harness's uniform inputs: mt19937 seed 7, keys = gen().
  std::vector<uint32_t> keys(n);
  std::mt19937 gen(7);
  for (uint32_t& v : keys) v = static_cast<uint32_t>(gen());
  DeviceBuffer in(n * sizeof(uint32_t)), out(n * sizeof(uint32_t));
  CHECK(cudaMemcpy(in.p, keys.data(), in.bytes, cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CHECK(device_sort(nullptr, temp_bytes, nullptr, nullptr, n, bench.stream()));
  DeviceBuffer temp(temp_bytes);
  auto call = [&] {
    size_t bytes = temp_bytes;  // CUB's in-out argument: a copy per call, as the plugin's
    return device_sort(temp.p, bytes, in.as<uint32_t>(), out.as<uint32_t>(), n, bench.stream());
  };
  CHECK(cudaMemset(out.p, 0xff, out.bytes));
  CHECK(call());
  CHECK(cudaStreamSynchronize(bench.stream()));
  // Ascending, and the same keys by two order-blind checksums: a sanity check, not a full
  // comparison (a host sort of 2^28 keys would take longer than the probe).
  const std::vector<uint32_t> sorted = copy_out<uint32_t>(out, n);
  uint64_t sum_in = 0, sum_out = 0, mix_in = 0, mix_out = 0;
  for (uint32_t i = 0; i < n; ++i) {
    sum_in += keys[i];
    sum_out += sorted[i];
    mix_in += (uint64_t{keys[i]} * keys[i]) ^ (uint64_t{keys[i]} << 17);
    mix_out += (uint64_t{sorted[i]} * sorted[i]) ^ (uint64_t{sorted[i]} << 17);
  }
  if (!std::is_sorted(sorted.begin(), sorted.end()) || sum_in != sum_out || mix_in != mix_out) {
    fail("sort", n, "output not the input's keys in ascending order");
  }
  for (const std::string& cache : options.caches) bench.run("sort", n, cache, repetitions, call);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const size_t end = comma == std::string::npos ? text.size() : comma;
    if (end > start) parts.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

[[noreturn]] void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--sizes 20,22,24,26,28] [--cache cold|warm|both] [--repetitions|-r R]"
               " [--workloads reduce,scan,sort] [--no-block]\n",
               argv0);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--no-block") {
      o.block = false;
      continue;
    }
    if (i + 1 >= argc) usage(argv[0]);
    const std::string value = argv[++i];
    if (arg == "--sizes") {
      o.log2_sizes.clear();
      for (const std::string& s : split(value)) {
        const int k = std::atoi(s.c_str());
        // The plugin's item count is 32 bits: n < 2^32.
        if (k < 0 || k > 31) usage(argv[0]);
        o.log2_sizes.push_back(k);
      }
    } else if (arg == "--cache") {
      if (value == "both") {
        o.caches = {"cold", "warm"};
      } else if (value == "cold" || value == "warm") {
        o.caches = {value};
      } else {
        usage(argv[0]);
      }
    } else if (arg == "--repetitions" || arg == "-r") {
      o.repetitions = std::atoi(value.c_str());
      if (o.repetitions < 1) usage(argv[0]);
    } else if (arg == "--workloads") {
      o.workloads = split(value);
      for (const std::string& w : o.workloads) {
        if (w != "reduce" && w != "scan" && w != "sort") usage(argv[0]);
      }
    } else {
      usage(argv[0]);
    }
  }
  if (o.log2_sizes.empty() || o.workloads.empty()) usage(argv[0]);
  return o;
}

bool wanted(const Options& o, const char* workload) {
  return std::find(o.workloads.begin(), o.workloads.end(), workload) != o.workloads.end();
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  Bench bench(options);
  std::printf(
      "probe,workload,n,cache,threads,median_ms,mean_ms,min_ms,max_ms,cv,repetitions,"
      "sm_clock_mean_mhz,sm_clock_min_mhz,default_clock_mhz,samples_ms\n");
  const int r = options.repetitions;
  for (int log2n : options.log2_sizes) {
    const uint32_t n = uint32_t{1} << log2n;
    if (wanted(options, "reduce")) probe_reduce(bench, options, n, r ? r : 20);
    if (wanted(options, "scan")) probe_scan(bench, options, n, r ? r : 20);
    if (wanted(options, "sort")) probe_sort(bench, options, n, r ? r : 10);
  }
  if (g_failures) std::fprintf(stderr, "gpu probe: %d wrong answers\n", g_failures);
  return g_failures ? 1 : 0;
}
