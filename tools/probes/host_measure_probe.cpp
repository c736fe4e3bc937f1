// host_measure_probe.cpp: times the openmp plugin's reduce and dot loops outside the harness, under
// the harness's measurement protocol (parallel cache flush, team wake-up, monotonic clock), so that
// its figures can be set beside the harness's (tools/probes/compare_probe.py).
//
// Self-contained on purpose: no harness or plugin code, only the standard library and OpenMP, so a
// difference between the two figures points at the harness and not at shared code.
// Build and run (no -march: the plugin is built without one):
//   g++ -O3 -std=c++20 -fopenmp tools/probes/host_measure_probe.cpp -o /tmp/host_measure_probe
//   /tmp/host_measure_probe [--sizes 20,22,24,26,28] [--cache cold|warm|both] [-r 20]
//                           [--workloads reduce,dot] > host.csv
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kLine = 64;

// --- the kernels: the plugin's loops, token for token (plugins/openmp/{reduce,dot}.cpp) --------
// noinline so that the timed call is the loop as compiled on its own, as in the plugin's library.

__attribute__((noinline)) std::int64_t reduce_parallel_for(const std::int32_t* x, std::int64_t n) {
  std::int64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i];
  return sum;
}

__attribute__((noinline)) double dot_parallel_for(const float* x, const float* y, std::int64_t n) {
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) {
    const float product = x[i] * y[i];
    sum += product;
  }
  return sum;
}

// --- sinks: results and flush sums are stored here so the compiler cannot drop the work --------

// One cache line per thread: threads storing to one shared volatile would race (and share a line).
struct alignas(kLine) Slot {
  volatile std::uint64_t value;
};

volatile std::int64_t g_result_sink;
volatile double g_dot_sink;

// --- the cache flush --------------------------------------------------------------------------

// Bytes that evict every level: twice the L3, or twice every thread's L2 when that is more (a
// non-inclusive L3 holds lines apart from the L2s); 64 MiB when the OS reports no cache sizes.
// Rounded up to whole lines per thread so that each share starts on a line.
std::size_t flush_bytes(int threads) {
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  std::size_t bytes = 0;
  if (l3 > 0) bytes = std::max(bytes, 2 * static_cast<std::size_t>(l3));
  if (l2 > 0) bytes = std::max(bytes, static_cast<std::size_t>(threads) * 2 * l2);
  if (bytes == 0) bytes = std::size_t{64} << 20;
  const std::size_t unit = kLine * static_cast<std::size_t>(threads);
  return (bytes + unit - 1) / unit * unit;
}

class CacheFlush {
 public:
  explicit CacheFlush(int threads) : threads_(threads), bytes_(flush_bytes(threads)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      std::perror("mmap (flush buffer)");
      std::exit(1);
    }
    buffer_ = static_cast<unsigned char*>(p);
    sums_ = std::make_unique<Slot[]>(threads_);
    // Written once, each share by the thread that will read it: its pages are then backed (no
    // zero-page reads) and sit on that thread's NUMA node, as the kernel's own share does.
#pragma omp parallel num_threads(threads_)
    {
      const auto [begin, end] = share(omp_get_thread_num(), omp_get_num_threads());
      std::memset(buffer_ + begin, 0x5a, end - begin);
    }
    // Read-only from now on: a flush that only reads leaves no dirty lines whose write-backs the
    // timed kernel would pay for.
    if (mprotect(buffer_, bytes_, PROT_READ) != 0) {
      std::perror("mprotect (flush buffer)");
      std::exit(1);
    }
  }
  ~CacheFlush() {
    munmap(buffer_, bytes_);
  }
  CacheFlush(const CacheFlush&) = delete;
  CacheFlush& operator=(const CacheFlush&) = delete;

  std::size_t bytes() const {
    return bytes_;
  }

  // Every thread of the team reads one word of each line of its share: the team together pulls
  // the whole buffer through every cache level, from all cores, as the kernel will.
  void flush() const {
#pragma omp parallel num_threads(threads_)
    {
      const int t = omp_get_thread_num();
      const auto [begin, end] = share(t, omp_get_num_threads());
      std::uint64_t sum = 0;
      for (std::size_t i = begin; i < end; i += kLine) {
        sum += *reinterpret_cast<const std::uint64_t*>(buffer_ + i);
      }
      sums_[t].value = sum;
    }
  }

 private:
  struct Range {
    std::size_t begin, end;
  };
  // Thread t of `team` owns [t*B/T, (t+1)*B/T), rounded to lines (B is a multiple of T lines).
  Range share(int t, int team) const {
    const std::size_t lines = bytes_ / kLine;
    return {lines * t / team * kLine, lines * (t + 1) / team * kLine};
  }

  int threads_;
  std::size_t bytes_;
  unsigned char* buffer_ = nullptr;
  std::unique_ptr<Slot[]> sums_;
};

// An untimed parallel region before each sample: the team's threads may have gone to sleep
// (OMP_WAIT_POLICY, GOMP_SPINCOUNT) during the flush or between samples; waking them is not the
// kernel's time. The volatile store keeps the region from being optimized away.
void wake_team(Slot* touch) {
#pragma omp parallel
  { touch[omp_get_thread_num()].value = 1; }
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
  const std::size_t n = samples.size();
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

// --- buffers --------------------------------------------------------------------------------

// Buffers as the SDK's host services make them (plugbench/host_services.hpp): 2 MiB and more are
// mapped on huge-page boundaries with MADV_HUGEPAGE; the copy in runs on the team, each thread its
// share of whole 4 KiB pages, so each page is first touched by a thread that will read it.
struct Unmapper {
  std::size_t length = 0;
  void* mapping = nullptr;
  void operator()(void* p) const {
    if (mapping != nullptr) {
      munmap(mapping, length);
    } else {
      std::free(p);
    }
  }
};
template <class T>
using Buffer = std::unique_ptr<T[], Unmapper>;

template <class T>
Buffer<T> copy_in(const std::vector<T>& source) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t bytes = source.size() * sizeof(T);
  void* p = nullptr;
  Unmapper unmapper;
  if (bytes < kHugePage) {
    if (posix_memalign(&p, kLine, std::max<std::size_t>(bytes, 1)) != 0) {
      std::fprintf(stderr, "posix_memalign of %zu bytes failed\n", bytes);
      std::exit(1);
    }
  } else {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    unmapper.length = rounded + kHugePage;
    unmapper.mapping =
        mmap(nullptr, unmapper.length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (unmapper.mapping == MAP_FAILED) {
      std::fprintf(stderr, "mmap of %zu bytes failed\n", bytes);
      std::exit(1);
    }
    const auto address = reinterpret_cast<std::uintptr_t>(unmapper.mapping);
    p = reinterpret_cast<void*>((address + kHugePage - 1) / kHugePage * kHugePage);
    (void)madvise(p, rounded, MADV_HUGEPAGE);
  }
  const std::uint64_t pages = (bytes + 4095) / 4096;
#pragma omp parallel
  {
    const std::uint64_t thread = omp_get_thread_num(), threads = omp_get_num_threads();
    const std::uint64_t begin = std::min<std::uint64_t>(bytes, pages * thread / threads * 4096);
    const std::uint64_t end = std::min<std::uint64_t>(bytes, pages * (thread + 1) / threads * 4096);
    if (end > begin) {
      std::memcpy(static_cast<char*>(p) + begin,
                  reinterpret_cast<const char*>(source.data()) + begin, end - begin);
    }
  }
  return Buffer<T>(static_cast<T*>(p), unmapper);
}

// --- the protocol ---------------------------------------------------------------------------

struct Options {
  std::vector<int> log2_sizes{20, 22, 24, 26, 28};
  std::vector<std::string> caches{"cold", "warm"};
  std::vector<std::string> workloads{"reduce", "dot"};
  int repetitions = 20;
};

// Checked call, one warm-up call (neither flushed, as in the harness), then the samples: flush
// (cold only: `flush` is null for warm), wake the team, time the kernel alone.
template <class Kernel>
std::vector<double> measure(const Kernel& kernel, const CacheFlush* flush, int repetitions,
                            Slot* touch) {
  kernel();  // in place of the checked call (the caller verified one answer before)
  kernel();  // warm-up
  std::vector<double> samples;
  for (int r = 0; r < repetitions; ++r) {
    if (flush != nullptr) flush->flush();
    wake_team(touch);
    const auto t0 = std::chrono::steady_clock::now();
    kernel();
    const auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return samples;
}

void print_row(const char* workload, std::int64_t n, const std::string& cache, int threads,
               const std::vector<double>& samples) {
  const Stats s = statistics(samples);
  char cv[32] = "";
  if (!std::isnan(s.cv)) std::snprintf(cv, sizeof cv, "%.6f", s.cv);
  std::printf("host,%s,%lld,%s,%d,%.6f,%.6f,%.6f,%.6f,%s,%zu,%s\n", workload,
              static_cast<long long>(n), cache.c_str(), threads, s.median, s.mean, s.min, s.max, cv,
              samples.size(), joined_samples(samples).c_str());
  std::fflush(stdout);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    if (end > start) parts.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

[[noreturn]] void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--sizes 20,22,24,26,28] [--cache cold|warm|both] [--repetitions|-r R]"
               " [--workloads reduce,dot]\n",
               argv0);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) usage(argv[0]);
    const std::string value = argv[++i];
    if (arg == "--sizes") {
      o.log2_sizes.clear();
      for (const std::string& s : split(value)) {
        const int k = std::atoi(s.c_str());
        if (k < 0 || k > 40) usage(argv[0]);
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
        if (w != "reduce" && w != "dot") usage(argv[0]);
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
  const int threads = omp_get_max_threads();
  const char* bind = std::getenv("OMP_PROC_BIND");
  const char* places = std::getenv("OMP_PLACES");
  std::fprintf(stderr, "host probe: %d OpenMP threads, OMP_PROC_BIND=%s, OMP_PLACES=%s\n", threads,
               bind ? bind : "(unset)", places ? places : "(unset)");
  std::fprintf(stderr, "host probe: L2 %ld B, L3 %ld B (sysconf)\n", sysconf(_SC_LEVEL2_CACHE_SIZE),
               sysconf(_SC_LEVEL3_CACHE_SIZE));

  const bool any_cold =
      std::find(options.caches.begin(), options.caches.end(), "cold") != options.caches.end();
  // Allocated (and so first written) only when a cold run needs it: it is gigabytes on a big L3.
  std::unique_ptr<CacheFlush> flush;
  if (any_cold) {
    flush = std::make_unique<CacheFlush>(threads);
    std::fprintf(stderr, "host probe: flush buffer %zu B (%.1f MiB)\n", flush->bytes(),
                 flush->bytes() / 1048576.0);
  } else {
    std::fprintf(stderr, "host probe: no flush buffer (warm only)\n");
  }
  auto touch = std::make_unique<Slot[]>(std::max(threads, omp_get_num_procs()) + 1);

  std::printf(
      "probe,workload,n,cache,threads,median_ms,mean_ms,min_ms,max_ms,cv,repetitions,samples_ms\n");
  int failures = 0;

  for (int log2n : options.log2_sizes) {
    const std::int64_t n = std::int64_t{1} << log2n;

    if (wanted(options, "reduce")) {
      // The harness's mod100 inputs: mt19937 seed 26, gen() % 100.
      std::vector<std::int32_t> source(n);
      std::mt19937 gen(26);
      std::int64_t expected = 0;
      for (std::int32_t& v : source) {
        v = static_cast<std::int32_t>(gen() % 100);
        expected += v;
      }
      Buffer<std::int32_t> x = copy_in(source);
      std::vector<std::int32_t>().swap(source);
      const std::int64_t got = reduce_parallel_for(x.get(), n);
      if (got != expected) {
        std::fprintf(stderr, "reduce n=%lld: sum %lld, expected %lld\n", static_cast<long long>(n),
                     static_cast<long long>(got), static_cast<long long>(expected));
        ++failures;
      }
      for (const std::string& cache : options.caches) {
        const auto kernel = [&] { g_result_sink = reduce_parallel_for(x.get(), n); };
        print_row("reduce", n, cache, threads,
                  measure(kernel, cache == "cold" ? flush.get() : nullptr, options.repetitions,
                          touch.get()));
      }
    }

    if (wanted(options, "dot")) {
      // The harness's uniform inputs: mt19937 seed 1, x[0], y[0], x[1], y[1], ... in [0, 1).
      std::vector<float> xs(n), ys(n);
      std::mt19937 gen(1);
      std::uniform_real_distribution<float> value(0.0f, 1.0f);
      double expected = 0, magnitude = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        xs[i] = value(gen);
        ys[i] = value(gen);
        const double p = static_cast<double>(xs[i]) * ys[i];
        expected += p;
        magnitude += std::fabs(p);
      }
      Buffer<float> x = copy_in(xs);
      Buffer<float> y = copy_in(ys);
      std::vector<float>().swap(xs);
      std::vector<float>().swap(ys);
      const double got = dot_parallel_for(x.get(), y.get(), n);
      if (!(std::fabs(got - expected) <= 1e-5 * magnitude)) {
        std::fprintf(stderr, "dot n=%lld: %.17g, expected %.17g\n", static_cast<long long>(n), got,
                     expected);
        ++failures;
      }
      for (const std::string& cache : options.caches) {
        const auto kernel = [&] { g_dot_sink = dot_parallel_for(x.get(), y.get(), n); };
        print_row("dot", n, cache, threads,
                  measure(kernel, cache == "cold" ? flush.get() : nullptr, options.repetitions,
                          touch.get()));
      }
    }
  }
  if (failures)
    std::fprintf(stderr, "host probe: %d wrong answers (timings still printed)\n", failures);
  return failures ? 1 : 0;
}
