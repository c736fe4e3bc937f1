// streaming_store.hpp: stores that bypass the caches, for outputs too large to stay in them. A
// normal store first reads the line it writes (read for ownership), so an output written once
// costs its bytes twice; a streaming store writes whole lines without reading them, as memcpy's
// large copies do (and as the harness's host copy peak is measured).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace plugbench::openmp {

// Streaming pays only for an output that would not stay in the last-level cache anyway: below
// that, the next reader (the verifier, the next kernel) finds it there.
inline bool worth_streaming(std::uint64_t output_bytes) {
  static const long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::uint64_t cache = last_level > 0 ? static_cast<std::uint64_t>(last_level) : 32u << 20;
  return output_bytes > cache / 2;
}

// Copies `count` uint32 values to `target`; streams the 16-byte-aligned middle when `stream`.
inline void store_values(std::uint32_t* target, const std::uint32_t* values, std::uint64_t count,
                         bool stream) {
#if defined(__SSE2__)
  if (stream) {
    std::uint64_t i = 0;
    for (; i < count && reinterpret_cast<std::uintptr_t>(target + i) % 16 != 0; ++i) {
      target[i] = values[i];
    }
    for (; i + 4 <= count; i += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i));
      _mm_stream_si128(reinterpret_cast<__m128i*>(target + i), v);
    }
    for (; i < count; ++i) target[i] = values[i];
    return;
  }
#endif
  (void)stream;
  std::memcpy(target, values, count * sizeof(std::uint32_t));
}

// Streaming stores are weakly ordered: each thread fences its own before the team's barrier or
// the kernel's end, so that every later reader sees them.
inline void fence_streaming_stores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace plugbench::openmp
