// host_peak_probe.cpp: host memory's read and copy rates outside the harness, to set beside the
// peaks a harness results file records (context.peaks[].methods). The same patterns, written
// independently: plain loops that the compiler vectorizes for this machine (-march=native; not
// `omp simd`, whose uint64 reduction GCC 12 made 3x slower here), and streaming stores through the
// widest intrinsic the build has. Each loop: one untimed pass, then R timed passes by the whole
// OpenMP team; the rate is from the fastest pass, as the harness's.
//
// Build and run (OMP_PLACES / OMP_PROC_BIND as for the harness run it is set beside):
//   g++ -O3 -march=native -std=c++20 -fopenmp tools/probes/host_peak_probe.cpp -o /tmp/peak_probe
//   /tmp/peak_probe [-r 10] [--bytes N] > peaks.csv
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

// As the harness sizes its buffers: four times the last-level cache, at least 64 MiB, at most
// 2 GiB or 1/16 of RAM, whole 2 MiB pages.
std::uint64_t default_bytes() {
  const std::uint64_t ram = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::uint64_t cache = l3 > 0 ? std::uint64_t(l3) : 32ull << 20;
  const std::uint64_t ceiling =
      std::max<std::uint64_t>(std::min<std::uint64_t>(ram / 16, 2ull << 30), 64ull << 20);
  return std::clamp<std::uint64_t>(4 * cache, 64ull << 20, ceiling) / (2ull << 20) * (2ull << 20);
}

char* huge_page_buffer(std::uint64_t bytes) {
  void* p =
      mmap(nullptr, bytes + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  auto* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(p) + (2u << 20) - 1) &
                                          ~std::uintptr_t((2u << 20) - 1));
  madvise(aligned, bytes, MADV_HUGEPAGE);
  return aligned;
}

volatile std::uint64_t g_sink;

#if defined(__x86_64__)
void streaming_copy(char* t, const char* s, std::int64_t bytes) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < bytes; i += 64) {
#if defined(__AVX512F__)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(t + i), _mm512_load_si512(s + i));
#elif defined(__AVX__)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(t + i),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(s + i)));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(t + i + 32),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(s + i + 32)));
#else
    for (int k = 0; k < 64; k += 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(t + i + k),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(s + i + k)));
    }
#endif
  }
  _mm_sfence();
}

// Four independent vector sums, so that no add waits on the one before (the harness's read
// reference loop, "... loads into 4 accumulators", written again here).
std::uint64_t vector_read(const char* s, std::int64_t bytes) {
  std::uint64_t total = 0;
#pragma omp parallel reduction(+ : total)
  {
    const std::int64_t blocks = bytes / 256, threads = omp_get_num_threads(),
                       id = omp_get_thread_num();
    const char* begin = s + blocks * id / threads * 256;
    const char* end = s + blocks * (id + 1) / threads * 256;
#if defined(__AVX512F__)
    __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
    for (const char* p = begin; p < end; p += 256) {
      a = _mm512_add_epi64(a, _mm512_load_si512(p));
      b = _mm512_add_epi64(b, _mm512_load_si512(p + 64));
      c = _mm512_add_epi64(c, _mm512_load_si512(p + 128));
      d = _mm512_add_epi64(d, _mm512_load_si512(p + 192));
    }
    total +=
        _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d)));
#elif defined(__AVX2__)
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    for (const char* p = begin; p < end; p += 128) {
      a = _mm256_add_epi64(a, _mm256_load_si256(reinterpret_cast<const __m256i*>(p)));
      b = _mm256_add_epi64(b, _mm256_load_si256(reinterpret_cast<const __m256i*>(p + 32)));
      c = _mm256_add_epi64(c, _mm256_load_si256(reinterpret_cast<const __m256i*>(p + 64)));
      d = _mm256_add_epi64(d, _mm256_load_si256(reinterpret_cast<const __m256i*>(p + 96)));
    }
    alignas(32) std::uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                       _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d)));
    total += lanes[0] + lanes[1] + lanes[2] + lanes[3];
#else
    std::uint64_t a = 0, b = 0, c = 0, d = 0;
    for (const char* p = begin; p < end; p += 32) {
      const auto* w = reinterpret_cast<const std::uint64_t*>(p);
      a += w[0];
      b += w[1];
      c += w[2];
      d += w[3];
    }
    total += a + b + c + d;
#endif
  }
  return total;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int repetitions = 10;
  std::uint64_t bytes = default_bytes();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "-r") repetitions = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--bytes") bytes = std::strtoull(argv[i + 1], nullptr, 10) / 256 * 256;
  }
  char* source = huge_page_buffer(bytes);
  char* target = huge_page_buffer(bytes);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(bytes); i += 4096) source[i] = target[i] = 1;

  const auto* words = reinterpret_cast<const std::uint64_t*>(source);
  const auto* second = reinterpret_cast<const std::uint64_t*>(target);
  const std::int64_t count = std::int64_t(bytes / 8);
  struct Loop {
    const char* name;
    double bytes_moved;
    std::function<void()> pass;
  };
  const std::vector<Loop> loops = {
    {"read: sum of 64-bit words", double(bytes),
     [&] {
       std::uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
       for (std::int64_t i = 0; i < count; ++i) sum += words[i];
       g_sink = sum;
     }},
    {"read: two buffers side by side", 2.0 * double(bytes),
     [&] {
       std::uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
       for (std::int64_t i = 0; i < count; ++i) sum += words[i] + second[i];
       g_sink = sum;
     }},
    {"copy: memcpy of each thread's share", 2.0 * double(bytes),
     [&] {
#pragma omp parallel
       {
         const std::uint64_t lines = bytes / 64, t = omp_get_num_threads(),
                             id = omp_get_thread_num();
         const std::uint64_t begin = lines * id / t * 64, end = lines * (id + 1) / t * 64;
         std::memcpy(target + begin, source + begin, end - begin);
       }
     }},
#if defined(__x86_64__)
#if defined(__AVX2__) || defined(__AVX512F__)
    {"read: vector loads into 4 accumulators", double(bytes),
#else
    {"read: 64-bit loads into 4 accumulators", double(bytes),
#endif
     [&] { g_sink = vector_read(source, std::int64_t(bytes)); }},
    {"copy: streaming stores", 2.0 * double(bytes),
     [&] { streaming_copy(target, source, std::int64_t(bytes)); }},
#endif
  };
  std::printf("loop,bytes,threads,best_ms,median_ms,gbps\n");
  for (const Loop& loop : loops) {
    loop.pass();
    std::vector<double> ms;
    for (int r = 0; r < repetitions; ++r) {
      const auto start = std::chrono::steady_clock::now();
      loop.pass();
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    std::sort(ms.begin(), ms.end());
    const double median =
        ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    std::printf("%s,%llu,%d,%.4f,%.4f,%.2f\n", loop.name, (unsigned long long)bytes,
                omp_get_max_threads(), ms.front(), median, loop.bytes_moved / (ms.front() * 1e6));
  }
  return 0;
}
