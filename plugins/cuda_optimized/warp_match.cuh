// warp_match.cuh: which lanes of a full warp hold the same small label (a radix digit). One
// ballot per label bit: for 8-bit digits this beats match.any.sync, which is slow on few bits.
#pragma once

#include "warp_reduce.cuh"

namespace plugbench::cuda::opt {

// How each bit's ballot is folded into the mask of agreeing lanes.
//   kSelect: peers &= set ? ballot : ~ballot in C++. nvcc tests the bit twice (once into a
//     predicate for the vote, once for the select) and selects: 7 instructions per bit on sm_90.
//   kPredicatedNot: the vote and a predicated not in PTX (CUB's MatchAny does the same): 4.
//   kAtomicOr: no ballots; each lane ORs its bit into a per-warp shared word of its label, and
//     reads the word back (CUB's WARP_MATCH_ATOMIC_OR): a few shared-memory instructions a key
//     whatever the label's width. Only the block ranking (block_radix_rank.cuh) does this style;
//     warp_match_any below takes the other two.
enum class MatchStyle { kSelect, kPredicatedNot, kAtomicOr };

// Mask of the lanes whose label agrees with this lane's label in the low kBits bits.
template <int kBits, MatchStyle kStyle = MatchStyle::kPredicatedNot>
__device__ __forceinline__ unsigned warp_match_any(unsigned label) {
  static_assert(kStyle != MatchStyle::kAtomicOr, "the atomic-or match needs shared words");
  unsigned peers = kFullWarp;
#pragma unroll
  for (int bit = 0; bit < kBits; ++bit) {
    if constexpr (kStyle == MatchStyle::kSelect) {
      const bool set = (label >> bit) & 1u;
      const unsigned lanes_set = __ballot_sync(kFullWarp, set);
      peers &= set ? lanes_set : ~lanes_set;
    } else {
      unsigned agree;  // lanes whose bit `bit` equals this lane's
      asm volatile(
          "{\n\t.reg .pred p;\n\t.reg .b32 r;\n\t"
          "and.b32 r, %1, %2;\n\t"
          "setp.ne.u32 p, r, 0;\n\t"
          "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
          "@!p not.b32 %0, %0;\n\t}"
          : "=r"(agree)
          : "r"(label), "r"(1u << bit));
      peers &= agree;
    }
  }
  return peers;
}

__device__ __forceinline__ unsigned lanes_below(int lane) {
  return (1u << lane) - 1u;
}

}  // namespace plugbench::cuda::opt
