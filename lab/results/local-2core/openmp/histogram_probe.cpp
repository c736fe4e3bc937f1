// histogram_probe.cpp: single-thread 256-bin byte histogram variants on 1/DIVISOR of the 8K photo
// and flat images, thread CPU time per pixel (best of 15); the lab's throwaway probe, kept as run.
// g++ -O2 histogram_probe.cpp; ./a.out 16
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>
static double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
typedef void (*F)(const uint8_t*, uint64_t, uint32_t*);
__attribute__((noinline)) void sub8(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  alignas(64) uint32_t sub[8][256 + 16] = {};
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t w;
    memcpy(&w, bytes + i, 8);
    ++sub[0][w & 0xff];
    ++sub[1][(w >> 8) & 0xff];
    ++sub[2][(w >> 16) & 0xff];
    ++sub[3][(w >> 24) & 0xff];
    ++sub[4][(w >> 32) & 0xff];
    ++sub[5][(w >> 40) & 0xff];
    ++sub[6][(w >> 48) & 0xff];
    ++sub[7][w >> 56];
  }
  for (; i < count; ++i) ++sub[0][bytes[i]];
  for (int b = 0; b < 256; ++b) {
    uint32_t t = 0;
    for (auto& s : sub) t += s[b];
    out[b] = t;
  }
}
__attribute__((noinline)) void sub8b(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  alignas(64) uint32_t sub[8][256 + 16] = {};
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const uint8_t* p = bytes + i;
    ++sub[0][p[0]];
    ++sub[1][p[1]];
    ++sub[2][p[2]];
    ++sub[3][p[3]];
    ++sub[4][p[4]];
    ++sub[5][p[5]];
    ++sub[6][p[6]];
    ++sub[7][p[7]];
  }
  for (; i < count; ++i) ++sub[0][bytes[i]];
  for (int b = 0; b < 256; ++b) {
    uint32_t t = 0;
    for (auto& s : sub) t += s[b];
    out[b] = t;
  }
}
// 4 sub-histograms, 16-byte steps: two words, 32 increments, 4 tables (each table gets 4 per 16)
__attribute__((noinline)) void sub4x2(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  alignas(64) uint32_t sub[4][256 + 16] = {};
  uint64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    uint64_t w, v;
    memcpy(&w, bytes + i, 8);
    memcpy(&v, bytes + i + 8, 8);
    for (int k = 0; k < 8; ++k) {
      ++sub[k & 3][(w >> (8 * k)) & 0xff];
      ++sub[(k + 2) & 3][(v >> (8 * k)) & 0xff];
    }
  }
  for (; i < count; ++i) ++sub[0][bytes[i]];
  for (int b = 0; b < 256; ++b) {
    uint32_t t = 0;
    for (auto& s : sub) t += s[b];
    out[b] = t;
  }
}
// pairs: 16-bit index, one increment per 2 pixels, 2 tables alternate (uint32, 256 KiB each)
static uint32_t pairs[2][65536];
__attribute__((noinline)) void pair2(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  memset(pairs, 0, sizeof pairs);
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t w;
    memcpy(&w, bytes + i, 8);
    ++pairs[0][w & 0xffff];
    ++pairs[1][(w >> 16) & 0xffff];
    ++pairs[0][(w >> 32) & 0xffff];
    ++pairs[1][w >> 48];
  }
  uint32_t rest[256] = {};
  for (; i < count; ++i) ++rest[bytes[i]];
  for (int b = 0; b < 256; ++b) out[b] = rest[b];
  for (int t = 0; t < 2; ++t)
    for (int hi = 0; hi < 256; ++hi) {
      uint32_t s = 0;
      for (int lo = 0; lo < 256; ++lo) {
        uint32_t c = pairs[t][hi * 256 + lo];
        s += c;
        out[lo] += c;
      }
      out[hi] += s;
    }
}

static uint32_t pairs4[4][65536];
__attribute__((noinline)) void pair4(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  memset(pairs4, 0, sizeof pairs4);
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t w;
    memcpy(&w, bytes + i, 8);
    ++pairs4[0][w & 0xffff];
    ++pairs4[1][(w >> 16) & 0xffff];
    ++pairs4[2][(w >> 32) & 0xffff];
    ++pairs4[3][w >> 48];
  }
  uint32_t rest[256] = {};
  for (; i < count; ++i) ++rest[bytes[i]];
  for (int b = 0; b < 256; ++b) out[b] = rest[b];
  for (int t = 0; t < 4; ++t)
    for (int hi = 0; hi < 256; ++hi) {
      uint32_t s = 0;
      for (int lo = 0; lo < 256; ++lo) {
        uint32_t c = pairs4[t][hi * 256 + lo];
        s += c;
        out[lo] += c;
      }
      out[hi] += s;
    }
}
__attribute__((noinline)) void pair2w(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  memset(pairs, 0, sizeof pairs);
  uint64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    uint64_t w, v;
    memcpy(&w, bytes + i, 8);
    memcpy(&v, bytes + i + 8, 8);
    ++pairs[0][w & 0xffff];
    ++pairs[1][(w >> 16) & 0xffff];
    ++pairs[0][(w >> 32) & 0xffff];
    ++pairs[1][w >> 48];
    ++pairs[0][v & 0xffff];
    ++pairs[1][(v >> 16) & 0xffff];
    ++pairs[0][(v >> 32) & 0xffff];
    ++pairs[1][v >> 48];
  }
  uint32_t rest[256] = {};
  for (; i < count; ++i) ++rest[bytes[i]];
  for (int b = 0; b < 256; ++b) out[b] = rest[b];
  for (int t = 0; t < 2; ++t)
    for (int hi = 0; hi < 256; ++hi) {
      uint32_t s = 0;
      for (int lo = 0; lo < 256; ++lo) {
        uint32_t c = pairs[t][hi * 256 + lo];
        s += c;
        out[lo] += c;
      }
      out[hi] += s;
    }
}
__attribute__((noinline)) void sub16(const uint8_t* bytes, uint64_t count, uint32_t* out) {
  alignas(64) uint32_t sub[16][256 + 16] = {};
  uint64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    uint64_t w, v;
    memcpy(&w, bytes + i, 8);
    memcpy(&v, bytes + i + 8, 8);
    ++sub[0][w & 0xff];
    ++sub[1][(w >> 8) & 0xff];
    ++sub[2][(w >> 16) & 0xff];
    ++sub[3][(w >> 24) & 0xff];
    ++sub[4][(w >> 32) & 0xff];
    ++sub[5][(w >> 40) & 0xff];
    ++sub[6][(w >> 48) & 0xff];
    ++sub[7][w >> 56];
    ++sub[8][v & 0xff];
    ++sub[9][(v >> 8) & 0xff];
    ++sub[10][(v >> 16) & 0xff];
    ++sub[11][(v >> 24) & 0xff];
    ++sub[12][(v >> 32) & 0xff];
    ++sub[13][(v >> 40) & 0xff];
    ++sub[14][(v >> 48) & 0xff];
    ++sub[15][v >> 56];
  }
  for (; i < count; ++i) ++sub[0][bytes[i]];
  for (int b = 0; b < 256; ++b) {
    uint32_t t = 0;
    for (auto& s : sub) t += s[b];
    out[b] = t;
  }
}
int main(int argc, char** argv) {
  uint64_t n = 7680ull * 4320 / atoi(argv[1]);  // per-thread part
  std::vector<uint8_t> photo(n), flat(n, 128);
  std::mt19937 g(8);
  std::normal_distribution<float> nd(0, 12);
  for (uint64_t i = 0; i < n; ++i) {
    float c = i % 7680;
    photo[i] = (uint8_t)std::clamp(60.f + 140.f * c / 7680 + nd(g), 0.f, 255.f);
  }
  uint32_t ref[256], o[256];
  struct {
    const char* name;
    F f;
  } fs[] = {{"sub8", sub8},   {"sub8b", sub8b},   {"sub4x2", sub4x2}, {"pair2", pair2},
            {"pair4", pair4}, {"pair2w", pair2w}, {"sub16", sub16}};
  for (int d = 0; d < 2; ++d) {
    auto& img = d ? flat : photo;
    memset(ref, 0, sizeof ref);
    for (auto p : img) ++ref[p];
    for (auto& f : fs) {
      double best = 1e9;
      for (int r = 0; r < 15; ++r) {
        double c0 = cpu_ms();
        f.f(img.data(), n, o);
        best = std::min(best, cpu_ms() - c0);
      }
      printf("%s %-7s %.3f ns/pixel %s\n", d ? "flat " : "photo", f.name, best * 1e6 / n,
             memcmp(o, ref, sizeof ref) ? "WRONG" : "ok");
    }
  }
}
