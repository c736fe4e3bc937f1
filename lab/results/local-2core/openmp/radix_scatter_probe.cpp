// radix_scatter_probe.cpp: single-thread LSD radix variants (digit width, keys per block, counts
// reread or made while scattering), thread CPU time per key; the lab's throwaway probe, kept as
// run. g++ -O2 radix_scatter_probe.cpp; ./a.out LOG2N DIST(0 uniform, 1 sorted, 2 few) STREAM(0/1)
#include <emmintrin.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
static double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
inline void store_values(uint32_t* target, const uint32_t* values, uint64_t count, bool stream) {
  if (stream) {
    uint64_t i = 0;
    for (; i < count && reinterpret_cast<uintptr_t>(target + i) % 16 != 0; ++i)
      target[i] = values[i];
    for (; i + 4 <= count; i += 4) {
      __m128i v = _mm_loadu_si128((const __m128i*)(values + i));
      _mm_stream_si128((__m128i*)(target + i), v);
    }
    for (; i < count; ++i) target[i] = values[i];
    return;
  }
  memcpy(target, values, count * 4);
}
template <int Bits, uint32_t BK>
struct Comb {
  static constexpr int B = 1 << Bits;
  struct alignas(64) Blk {
    uint32_t k[BK];
  };
  Blk lines[B];
  uint64_t ls[B];
  uint32_t first[B], fill[B];
  bool stream;
  int next = -1;
  uint32_t* nc = nullptr;
  static unsigned dig(uint32_t k, int p) { return (k >> (p * Bits)) & (B - 1); }
  void count(const uint32_t* k, uint32_t c) {
    if (next < 0) return;
    for (uint32_t i = 0; i < c; ++i) ++nc[dig(k[i], next)];
  }
  void wl(unsigned d, uint32_t* t) {
    uint32_t f = first[d];
    uint32_t* line = t + ls[d];
    if (f == 0)
      store_values(line, lines[d].k, BK, stream);
    else
      std::copy(lines[d].k + f, lines[d].k + BK, line + f);
    count(lines[d].k + f, BK - f);
    ls[d] += BK;
    first[d] = 0;
  }
  void run(const uint32_t* s, uint64_t n, int pass, const uint64_t* off, uint32_t* t) {
    for (int d = 0; d < B; ++d) {
      ls[d] = off[d] - off[d] % BK;
      first[d] = fill[d] = off[d] % BK;
    }
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t key = s[i];
      unsigned d = dig(key, pass);
      uint32_t f = fill[d];
      lines[d].k[f] = key;
      if (++f == BK) {
        wl(d, t);
        f = 0;
      }
      fill[d] = f;
    }
    for (int d = 0; d < B; ++d) {
      std::copy(lines[d].k + first[d], lines[d].k + fill[d], t + ls[d] + first[d]);
      count(lines[d].k + first[d], fill[d] - first[d]);
    }
  }
};
template <int Bits, uint32_t BK>
void sortit(uint32_t*& a, uint32_t*& b, size_t n, bool fused, bool stream, double& tc, double& ts) {
  constexpr int B = 1 << Bits, P = (32 + Bits - 1) / Bits;
  auto c = std::make_unique<Comb<Bits, BK>>();
  c->stream = stream;
  std::vector<uint32_t> cnt(P * B, 0), nc(B);
  double c0 = cpu_ms();
  for (size_t i = 0; i < n; ++i) {
    uint32_t k = a[i];
    for (int p = 0; p < P; ++p) ++cnt[p * B + Comb<Bits, BK>::dig(k, p)];
  }
  tc += cpu_ms() - c0;
  std::vector<uint64_t> cur(cnt.begin(), cnt.begin() + B);
  for (int p = 0; p < P; ++p) {
    uint64_t off[B], r = 0;
    if (!fused && p > 0) {
      double c1 = cpu_ms();
      std::fill(cur.begin(), cur.end(), 0);
      for (size_t i = 0; i < n; ++i) ++cur[Comb<Bits, BK>::dig(a[i], p)];
      tc += cpu_ms() - c1;
    }
    for (int d = 0; d < B; ++d) {
      off[d] = r;
      r += cur[d];
    }
    std::fill(nc.begin(), nc.end(), 0);
    c->next = (fused && p + 1 < P) ? p + 1 : -1;
    c->nc = nc.data();
    double c1 = cpu_ms();
    c->run(a, n, p, off, b);
    _mm_sfence();
    ts += cpu_ms() - c1;
    if (fused) std::copy(nc.begin(), nc.end(), cur.begin());
    std::swap(a, b);
  }
}
int main(int argc, char** argv) {
  size_t n = size_t(1) << atoi(argv[1]);
  int dist = atoi(argv[2]);
  bool stream = atoi(argv[3]);
  uint32_t *a0 = (uint32_t*)aligned_alloc(64, n * 4), *a = (uint32_t*)aligned_alloc(64, n * 4),
           *b = (uint32_t*)aligned_alloc(64, n * 4);
  std::mt19937 g(7);
  for (size_t i = 0; i < n; ++i) a0[i] = g();
  if (dist == 1) std::sort(a0, a0 + n);
  if (dist == 2) {
    uint32_t pool[16];
    for (auto& p : pool) p = g();
    for (size_t i = 0; i < n; ++i) a0[i] = pool[g() % 16];
  }
  memset(b, 0, n * 4);
  auto go = [&](const char* name, auto f) {
    double best = 1e9, bc = 0, bs = 0;
    for (int rep = 0; rep < 5; ++rep) {
      memcpy(a, a0, n * 4);
      double tc = 0, ts = 0;
      f(tc, ts);
      if (tc + ts < best) {
        best = tc + ts;
        bc = tc;
        bs = ts;
      }
      if (!std::is_sorted(a, a + n) && !std::is_sorted(b, b + n)) printf("UNSORTED\n");
    }
    printf("%-12s total %6.2f count %5.2f scatter %5.2f ns/key\n", name, best * 1e6 / n,
           bc * 1e6 / n, bs * 1e6 / n);
  };
  go("8b64", [&](double& tc, double& ts) { sortit<8, 64>(a, b, n, false, stream, tc, ts); });
  go("8b64f", [&](double& tc, double& ts) { sortit<8, 64>(a, b, n, true, stream, tc, ts); });
  go("11b64f", [&](double& tc, double& ts) { sortit<11, 64>(a, b, n, true, stream, tc, ts); });
  go("11b32f", [&](double& tc, double& ts) { sortit<11, 32>(a, b, n, true, stream, tc, ts); });
  go("11b16f", [&](double& tc, double& ts) { sortit<11, 16>(a, b, n, true, stream, tc, ts); });
  go("11b16", [&](double& tc, double& ts) { sortit<11, 16>(a, b, n, false, stream, tc, ts); });
}
