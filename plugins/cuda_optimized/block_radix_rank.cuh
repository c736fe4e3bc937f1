// block_radix_rank.cuh: stable ranking of a tile's keys by one radix digit, in the "early counts,
// warp match" style of onesweep (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022). Keys are warp-striped: warp w holds the contiguous keys
// [w * 32 * kItems, (w + 1) * 32 * kItems) of the tile, its item u in lane l being key
// w * 32 * kItems + 32 * u + l, so (warp, item, lane) order is tile order.
//
// Steps, with a __syncthreads between each (the caller places them, since it publishes the counts
// for look-back in between):
//   1. count:   each warp builds a private histogram of its keys with shared atomics.
//   2. totals:  thread d (one per digit) turns column d into exclusive offsets across warps and
//               returns the tile's count of digit d.
//   3. offsets: thread d adds the tile-local start of digit d (an exclusive scan of the counts).
//   4. rank:    per item, the lanes holding the same digit find each other (warp_match_any); the
//               highest of them bumps the warp's counter for the digit by their number, and each
//               gets counter + (peers in lower lanes): its position in the digit-sorted tile.
// A digit of kDigits marks an invalid key (past the end of the last tile): it is neither counted
// nor ranked.
#pragma once

#include "warp_match.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

inline constexpr int kRadixRankDigits = 256;  // 8-bit digits

// Shared memory of the ranking: one row of digit counts per warp, and for the atomic-or match one
// row of lane masks per warp (zero between keys).
template <int kThreads, MatchStyle kMatch = MatchStyle::kPredicatedNot>
struct BlockRadixRankStorage {
  uint32_t warp_digit_counts[kThreads / kWarpThreads][kRadixRankDigits];
};

template <int kThreads>
struct BlockRadixRankStorage<kThreads, MatchStyle::kAtomicOr> {
  uint32_t warp_digit_counts[kThreads / kWarpThreads][kRadixRankDigits];
  uint32_t warp_digit_lanes[kThreads / kWarpThreads][kRadixRankDigits];
};

template <int kThreads, int kItems, MatchStyle kMatch = MatchStyle::kPredicatedNot>
struct BlockRadixRank {
  static constexpr int kDigits = kRadixRankDigits;
  static constexpr int kWarps = kThreads / kWarpThreads;
  static_assert(kThreads == kDigits, "one thread per digit");

  using Storage = BlockRadixRankStorage<kThreads, kMatch>;

  // Step 0 (before step 1, no barrier needed: the row is private to the warp).
  __device__ __forceinline__ static void clear(Storage& storage, int warp, int lane) {
#pragma unroll
    for (int d = lane; d < kDigits; d += kWarpThreads) {
      storage.warp_digit_counts[warp][d] = 0;
      if constexpr (kMatch == MatchStyle::kAtomicOr) storage.warp_digit_lanes[warp][d] = 0;
    }
    __syncwarp();
  }

  // digit_of(u): the digit of item u, or kDigits for an invalid key.
  template <class DigitOf>
  __device__ __forceinline__ static void count(Storage& storage, DigitOf digit_of, int warp) {
#pragma unroll
    for (int u = 0; u < kItems; ++u) {
      const uint32_t digit = digit_of(u);
      if (digit < kDigits) atomicAdd(&storage.warp_digit_counts[warp][digit], 1u);
    }
  }

  // Thread `digit` only. Returns the tile's count of that digit.
  __device__ __forceinline__ static uint32_t totals(Storage& storage, int digit) {
    uint32_t running = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const uint32_t count = storage.warp_digit_counts[w][digit];
      storage.warp_digit_counts[w][digit] = running;
      running += count;
    }
    return running;
  }

  // Thread `digit` only: `start` = number of keys of smaller digits in the tile.
  __device__ __forceinline__ static void offsets(Storage& storage, int digit, uint32_t start) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) storage.warp_digit_counts[w][digit] += start;
  }

  // Calls emit(u, position) for each valid item u, position being its place in the digit-sorted
  // tile. kWithInvalid: some digits may be kDigits (a partial tile).
  template <bool kWithInvalid, class DigitOf, class Emit>
  __device__ __forceinline__ static void rank(Storage& storage, DigitOf digit_of, Emit emit,
                                              int warp, int lane) {
    if constexpr (kMatch == MatchStyle::kAtomicOr) {
      rank_atomic_or<kWithInvalid>(storage, digit_of, emit, warp, lane);
    } else {
      rank_ballot<kWithInvalid>(storage, digit_of, emit, warp, lane);
    }
  }

  // As rank, the peers found with one ballot per digit bit (warp_match_any).
  template <bool kWithInvalid, class DigitOf, class Emit>
  __device__ __forceinline__ static void rank_ballot(Storage& storage, DigitOf digit_of, Emit emit,
                                                     int warp, int lane) {
#pragma unroll
    for (int u = 0; u < kItems; ++u) {
      const uint32_t digit = digit_of(u);
      const unsigned peers =
          kWithInvalid ? warp_match_any<9, kMatch>(digit) : warp_match_any<8, kMatch>(digit);
      const int leader = kWarpThreads - 1 - __clz(peers);
      uint32_t first = 0;
      if (lane == leader && digit < kDigits) {
        // An atomic, not a plain read-modify-write: the next item's leader for this digit may be
        // another lane, and atomics on one address are seen in order by every lane.
        first = atomicAdd(&storage.warp_digit_counts[warp][digit], __popc(peers));
      }
      first = __shfl_sync(kFullWarp, first, leader);
      if (!kWithInvalid || digit < kDigits) emit(u, first + __popc(peers & lanes_below(lane)));
    }
  }

  // As rank, the peers found through shared words instead of ballots: each lane sets its bit in
  // its digit's word, the warp synchronizes, each lane reads its digit's word back; the leader
  // moves the digit's counter on and clears the word before the next key. The warp synchronizes
  // after each key, so the counter needs no atomic.
  template <bool kWithInvalid, class DigitOf, class Emit>
  __device__ __forceinline__ static void rank_atomic_or(Storage& storage, DigitOf digit_of,
                                                        Emit emit, int warp, int lane) {
#pragma unroll
    for (int u = 0; u < kItems; ++u) {
      const uint32_t digit = digit_of(u);
      const bool valid = !kWithInvalid || digit < kDigits;
      uint32_t* lanes = &storage.warp_digit_lanes[warp][valid ? digit : 0];
      if (valid) atomicOr(lanes, 1u << lane);
      __syncwarp();
      const unsigned peers = valid ? *lanes : 0u;
      const int leader = kWarpThreads - 1 - __clz(peers);  // -1 for an invalid key: no lane
      uint32_t first = 0;
      if (lane == leader) {
        uint32_t& counter = storage.warp_digit_counts[warp][digit];
        first = counter;
        counter = first + __popc(peers);
      }
      // An invalid key's lane reads lane 31's value (the source wraps) and does not use it.
      first = __shfl_sync(kFullWarp, first, leader);
      if (lane == leader) *lanes = 0;
      __syncwarp();
      if (valid) emit(u, first + __popc(peers & lanes_below(lane)));
    }
  }
};

}  // namespace plugbench::cuda::opt
