// host_stream_loops.cpp: the calibration's read and copy loops, the wide ones compiled for each
// x86 vector ISA (the harness is built for the baseline ISA) and run in the one asked for.
#include "measure/host_stream_loops.hpp"

#include <omp.h>

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PLUGBENCH_X86_STREAM_LOOPS 1
#include <immintrin.h>
#endif

namespace plugbench {
namespace {

constexpr std::uint64_t kLine = 64;

// This thread's share of `bytes`, in whole cache lines.
struct Share {
  std::uint64_t begin = 0, end = 0;
};

Share this_threads_share(std::uint64_t bytes) {
  const std::uint64_t lines = bytes / kLine;
  const auto threads = static_cast<std::uint64_t>(omp_get_num_threads());
  const auto id = static_cast<std::uint64_t>(omp_get_thread_num());
  return {lines * id / threads * kLine, lines * (id + 1) / threads * kLine};
}

HostStreamLoop plain_sum(const char* first, std::uint64_t bytes) {
  // The vectorizer's loop, in the baseline ISA: what a plain OpenMP reduction reaches.
  return {"sum of 64-bit words",
          [first, bytes] {
            const auto* words = reinterpret_cast<const std::uint64_t*>(first);
            const auto count = static_cast<std::int64_t>(bytes / 8);
            std::uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
            for (std::int64_t i = 0; i < count; ++i) sum += words[i];
            return sum;
          },
          double(bytes)};
}

HostStreamLoop memcpy_copy(char* target, const char* source, std::uint64_t bytes) {
  return {"memcpy",
          [target, source, bytes] {
#pragma omp parallel
            {
              const Share share = this_threads_share(bytes);
              std::memcpy(target + share.begin, source + share.begin, share.end - share.begin);
            }
            return std::uint64_t{0};
          },
          2.0 * double(bytes)};
}

#if defined(PLUGBENCH_X86_STREAM_LOOPS)

const char* isa_name(StreamIsa isa) {
  switch (isa) {
    case StreamIsa::avx512:
      return "AVX-512";
    case StreamIsa::avx2:
      return "AVX2";
    case StreamIsa::sse2:
      break;
  }
  return "SSE2";
}

// --- reads: four independent accumulators, so that no add waits on the one before; with a
// second buffer `b`, two for each, a line of each buffer in flight together. `bytes`: whole lines.

[[gnu::target("avx512f")]] std::uint64_t sum_avx512(const char* a, const char* b,
                                                    std::uint64_t bytes) {
  __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
  std::uint64_t i = 0;
  if (b == nullptr) {
    for (; i + 4 * 64 <= bytes; i += 4 * 64) {
      s0 = _mm512_add_epi64(s0, _mm512_load_si512(a + i));
      s1 = _mm512_add_epi64(s1, _mm512_load_si512(a + i + 64));
      s2 = _mm512_add_epi64(s2, _mm512_load_si512(a + i + 128));
      s3 = _mm512_add_epi64(s3, _mm512_load_si512(a + i + 192));
    }
    for (; i < bytes; i += 64) s0 = _mm512_add_epi64(s0, _mm512_load_si512(a + i));
  } else {
    for (; i + 2 * 64 <= bytes; i += 2 * 64) {
      s0 = _mm512_add_epi64(s0, _mm512_load_si512(a + i));
      s1 = _mm512_add_epi64(s1, _mm512_load_si512(b + i));
      s2 = _mm512_add_epi64(s2, _mm512_load_si512(a + i + 64));
      s3 = _mm512_add_epi64(s3, _mm512_load_si512(b + i + 64));
    }
    for (; i < bytes; i += 64) {
      s0 = _mm512_add_epi64(s0, _mm512_load_si512(a + i));
      s1 = _mm512_add_epi64(s1, _mm512_load_si512(b + i));
    }
  }
  alignas(64) std::uint64_t lanes[8];  // stored, not _mm512_reduce_add_epi64: GCC 12 warns there
  _mm512_store_si512(lanes, _mm512_add_epi64(_mm512_add_epi64(s0, s1), _mm512_add_epi64(s2, s3)));
  std::uint64_t sum = 0;
  for (std::uint64_t lane : lanes) sum += lane;
  return sum;
}

[[gnu::target("avx2")]] std::uint64_t sum_avx2(const char* a, const char* b, std::uint64_t bytes) {
#define PLUGBENCH_LOAD256(p) _mm256_load_si256(reinterpret_cast<const __m256i*>(p))
  __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
  std::uint64_t i = 0;
  if (b == nullptr) {
    for (; i + 4 * 32 <= bytes; i += 4 * 32) {
      s0 = _mm256_add_epi64(s0, PLUGBENCH_LOAD256(a + i));
      s1 = _mm256_add_epi64(s1, PLUGBENCH_LOAD256(a + i + 32));
      s2 = _mm256_add_epi64(s2, PLUGBENCH_LOAD256(a + i + 64));
      s3 = _mm256_add_epi64(s3, PLUGBENCH_LOAD256(a + i + 96));
    }
    for (; i < bytes; i += 32) s0 = _mm256_add_epi64(s0, PLUGBENCH_LOAD256(a + i));
  } else {
    for (; i < bytes; i += 64) {
      s0 = _mm256_add_epi64(s0, PLUGBENCH_LOAD256(a + i));
      s1 = _mm256_add_epi64(s1, PLUGBENCH_LOAD256(b + i));
      s2 = _mm256_add_epi64(s2, PLUGBENCH_LOAD256(a + i + 32));
      s3 = _mm256_add_epi64(s3, PLUGBENCH_LOAD256(b + i + 32));
    }
  }
#undef PLUGBENCH_LOAD256
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                     _mm256_add_epi64(_mm256_add_epi64(s0, s1), _mm256_add_epi64(s2, s3)));
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

std::uint64_t sum_sse2(const char* a, const char* b, std::uint64_t bytes) {
  const auto load = [](const char* p) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(p));
  };
  __m128i s0 = _mm_setzero_si128(), s1 = s0, s2 = s0, s3 = s0;
  if (b == nullptr) {
    for (std::uint64_t i = 0; i < bytes; i += 64) {
      s0 = _mm_add_epi64(s0, load(a + i));
      s1 = _mm_add_epi64(s1, load(a + i + 16));
      s2 = _mm_add_epi64(s2, load(a + i + 32));
      s3 = _mm_add_epi64(s3, load(a + i + 48));
    }
  } else {
    for (std::uint64_t i = 0; i < bytes; i += 32) {
      s0 = _mm_add_epi64(s0, load(a + i));
      s1 = _mm_add_epi64(s1, load(b + i));
      s2 = _mm_add_epi64(s2, load(a + i + 16));
      s3 = _mm_add_epi64(s3, load(b + i + 16));
    }
  }
  alignas(16) std::uint64_t lanes[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes),
                  _mm_add_epi64(_mm_add_epi64(s0, s1), _mm_add_epi64(s2, s3)));
  return lanes[0] + lanes[1];
}

// The sum of `bytes` of `a`, and of `b` beside it where `b` is not null.
std::uint64_t wide_sum(StreamIsa isa, const char* a, const char* b, std::uint64_t bytes) {
  switch (isa) {
    case StreamIsa::avx512:
      return sum_avx512(a, b, bytes);
    case StreamIsa::avx2:
      return sum_avx2(a, b, bytes);
    case StreamIsa::sse2:
      break;
  }
  return sum_sse2(a, b, bytes);
}

// --- copies: streaming stores write whole lines without reading them first -------------------

[[gnu::target("avx512f")]] void stream_copy_avx512(char* t, const char* s, std::uint64_t bytes) {
  for (std::uint64_t i = 0; i < bytes; i += 64) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(t + i), _mm512_load_si512(s + i));
  }
}

[[gnu::target("avx2")]] void stream_copy_avx2(char* t, const char* s, std::uint64_t bytes) {
  for (std::uint64_t i = 0; i < bytes; i += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(t + i),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(s + i)));
  }
}

void stream_copy_sse2(char* t, const char* s, std::uint64_t bytes) {
  for (std::uint64_t i = 0; i < bytes; i += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(t + i),
                     _mm_load_si128(reinterpret_cast<const __m128i*>(s + i)));
  }
}

void stream_copy(StreamIsa isa, char* t, const char* s, std::uint64_t bytes) {
  switch (isa) {
    case StreamIsa::avx512:
      stream_copy_avx512(t, s, bytes);
      break;
    case StreamIsa::avx2:
      stream_copy_avx2(t, s, bytes);
      break;
    case StreamIsa::sse2:
      stream_copy_sse2(t, s, bytes);
      break;
  }
  _mm_sfence();  // streaming stores are weakly ordered: done before the team's barrier
}

#endif

StreamIsa widest_stream_isa() {
  const std::vector<StreamIsa> isas = stream_isas_this_cpu_runs();
  return isas.empty() ? StreamIsa::sse2 : isas.back();
}

}  // namespace

std::vector<StreamIsa> stream_isas_this_cpu_runs() {
#if defined(PLUGBENCH_X86_STREAM_LOOPS)
  std::vector<StreamIsa> isas{StreamIsa::sse2};
  if (__builtin_cpu_supports("avx2")) isas.push_back(StreamIsa::avx2);
  if (__builtin_cpu_supports("avx512f")) isas.push_back(StreamIsa::avx512);
  return isas;
#else
  return {};
#endif
}

std::vector<HostStreamLoop> host_read_loops(const char* first, const char* second,
                                            std::uint64_t bytes) {
  return host_read_loops(first, second, bytes, widest_stream_isa());
}

std::vector<HostStreamLoop> host_read_loops(const char* first, const char* second,
                                            std::uint64_t bytes, StreamIsa isa) {
  std::vector<HostStreamLoop> loops{plain_sum(first, bytes)};
#if defined(PLUGBENCH_X86_STREAM_LOOPS)
  loops.push_back({std::string(isa_name(isa)) + " loads into 4 accumulators",
                   [first, bytes, isa] {
                     std::uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
                     {
                       const Share share = this_threads_share(bytes);
                       sum += wide_sum(isa, first + share.begin, nullptr, share.end - share.begin);
                     }
                     return sum;
                   },
                   double(bytes)});
  // Each thread reads its share of both buffers, each share first touched by that thread.
  loops.push_back({std::string(isa_name(isa)) + " loads from two buffers at once",
                   [first, second, bytes, isa] {
                     std::uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
                     {
                       const Share share = this_threads_share(bytes);
                       sum += wide_sum(isa, first + share.begin, second + share.begin,
                                       share.end - share.begin);
                     }
                     return sum;
                   },
                   2.0 * double(bytes)});
#else
  (void)second;
  (void)isa;
#endif
  return loops;
}

std::vector<HostStreamLoop> host_copy_loops(char* target, const char* source, std::uint64_t bytes) {
  return host_copy_loops(target, source, bytes, widest_stream_isa());
}

std::vector<HostStreamLoop> host_copy_loops(char* target, const char* source, std::uint64_t bytes,
                                            StreamIsa isa) {
  std::vector<HostStreamLoop> loops{memcpy_copy(target, source, bytes)};
#if defined(PLUGBENCH_X86_STREAM_LOOPS)
  loops.push_back({std::string(isa_name(isa)) + " loads, streaming stores",
                   [target, source, bytes, isa] {
#pragma omp parallel
                     {
                       const Share share = this_threads_share(bytes);
                       stream_copy(isa, target + share.begin, source + share.begin,
                                   share.end - share.begin);
                     }
                     return std::uint64_t{0};
                   },
                   2.0 * double(bytes)});
#else
  (void)isa;
#endif
  return loops;
}

}  // namespace plugbench
