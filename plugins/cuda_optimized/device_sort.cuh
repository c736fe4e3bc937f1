// device_sort.cuh: the onesweep radix sort's kernels and its device entry (a variant's `run` and
// workspace functions), generic in the tile shape (OnesweepShape: keys a thread, blocks an SM, the
// ranking's warp match). uint32 keys[n] -> uint32 sorted[n], ascending. Onesweep LSD radix sort
// (Adinets & Merrill 2022), 8-bit digits, 4 passes:
//   1. histogram kernel: one read of the keys builds all 4 digit histograms at once;
//   2. offsets kernel: exclusive scans of the 4 histograms (where each digit starts, per pass);
//   3. per pass, one kernel: each tile (256 threads x the shape's keys) is ranked stably in shared
//      memory (block_radix_rank.cuh), publishes its 256 digit counts, learns from decoupled
//      look-back how many keys of each digit earlier tiles hold, and scatters its keys,
//      digit-sorted, so that each digit's run goes out contiguously.
// Passes ping-pong input -> workspace -> output -> workspace -> output. Traffic: 5 reads and 4
// writes of the keys, plus small status words.
#pragma once

#include "block_radix_rank.cuh"
#include "block_scan.cuh"
#include "launch_config.cuh"
#include "thread_memory.cuh"

namespace plugbench::cuda::opt {
// Internal: each source that includes this (sort.cu, tunings/sort_tunings.cu) gets its own copy of
// the kernels and their host stubs, so both can instantiate shapes without clashing at link time.
namespace {

constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;

constexpr int kHistogramThreads = 256;
constexpr int kHistogramBlocksPerSm = 8;

constexpr int kOnesweepThreads = 256;  // one thread per digit

// A pass's tile: 256 threads of kItems keys each, kBlocksPerSm blocks an SM (the launch bound), and
// the ranking's warp match (warp_match.cuh).
template <int kItemsPerThread, int kBlocksPerSmBound, MatchStyle kMatchStyle>
struct OnesweepShape {
  static constexpr int kItems = kItemsPerThread;
  static constexpr int kBlocksPerSm = kBlocksPerSmBound;
  static constexpr MatchStyle kMatch = kMatchStyle;
  static constexpr int kWarpKeys = kItems * kWarpThreads;
  static constexpr int kTileKeys = kOnesweepThreads * kItems;
};

// The middle one of the shipped sort's three shapes (24 keys a thread, 3 blocks an SM) with a
// given warp match: what the variants that change only the match are made of.
template <MatchStyle kMatch>
using OnesweepMiddleTile = OnesweepShape<24, 3, kMatch>;

// Look-back words, one per (tile, digit): 0 = nothing yet; else a flag and a 30-bit count.
constexpr uint32_t kLookbackAggregate = 1u << 30;  // count of the digit in this tile
constexpr uint32_t kLookbackPrefix = 1u << 31;  // count of the digit in this and all earlier tiles
constexpr uint32_t kLookbackValue = kLookbackAggregate - 1;
constexpr uint64_t kSortMaxN = kLookbackValue;  // counts must fit in 30 bits

template <class Shape>
using RankOf = BlockRadixRank<kOnesweepThreads, Shape::kItems, Shape::kMatch>;

// The digit of a key. The shift is volatile, so that the compiler re-extracts the digit where it
// is needed instead of keeping all of a thread's digits alive across the ranking (a register per
// key); the mask is plain C++, so the compiler knows the digit is below kDigits. (bfe.u32 has no
// sm_90 instruction: it became three, and hid the digit's range.)
__device__ __forceinline__ uint32_t digit_at(uint32_t key, int shift) {
  uint32_t shifted;
  asm volatile("shr.b32 %0, %1, %2;" : "=r"(shifted) : "r"(key), "r"(shift));
  return shifted & (kDigits - 1);
}

__global__ void __launch_bounds__(kHistogramThreads, kHistogramBlocksPerSm)
    digit_histograms_kernel(const uint32_t* __restrict__ keys, uint64_t n,
                            uint32_t* __restrict__ histograms) {
  __shared__ uint32_t counts[kPasses][kDigits];
  for (int i = threadIdx.x; i < kPasses * kDigits; i += kHistogramThreads) (&counts[0][0])[i] = 0;
  __syncthreads();
  const auto add_key = [&](uint32_t key) {
#pragma unroll
    for (int pass = 0; pass < kPasses; ++pass) {
      atomicAdd(&counts[pass][(key >> (kRadixBits * pass)) & (kDigits - 1)], 1u);
    }
  };
  const uint4* vectors = reinterpret_cast<const uint4*>(keys);
  const uint64_t vector_count = n / 4;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * kHistogramThreads;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * kHistogramThreads + threadIdx.x;
       i < vector_count; i += stride) {
    const uint4 v = load_readonly(vectors + i);
    add_key(v.x);
    add_key(v.y);
    add_key(v.z);
    add_key(v.w);
  }
  const uint64_t tail = n - vector_count * 4;
  if (blockIdx.x == 0 && threadIdx.x < tail) add_key(keys[vector_count * 4 + threadIdx.x]);
  __syncthreads();
  for (int i = threadIdx.x; i < kPasses * kDigits; i += kHistogramThreads) {
    const uint32_t count = (&counts[0][0])[i];
    if (count != 0) atomicAdd(histograms + i, count);
  }
}

// One block per pass: where each digit's keys start in that pass's output.
__global__ void __launch_bounds__(kDigits)
    digit_offsets_kernel(const uint32_t* __restrict__ histograms, uint32_t* __restrict__ offsets) {
  using Scan = BlockScan<kDigits>;
  __shared__ Scan::Storage storage;
  const int i = blockIdx.x * kDigits + threadIdx.x;
  uint32_t total;
  offsets[i] = Scan::exclusive_sum(histograms[i], total, storage);
}

template <class Shape>
struct OnesweepStorage {
  uint32_t keys[Shape::kTileKeys];  // the tile, digit-sorted
  BlockRadixRankStorage<kOnesweepThreads, Shape::kMatch> rank;
  uint32_t global_base[kDigits];  // output index of a digit's key = base[digit] + tile position
  BlockScan<kOnesweepThreads>::Storage scan;
  uint32_t tile;
};

// Thread layer: the count of `digit` in all tiles before `tile` (> 0). Reads the words of
// kLookbackWindow predecessors at once (one L2 round trip for all of them), adds them nearest
// first up to the first prefix; stops at an unpublished word and reads again from there. Tiles
// before the first read as a prefix of 0 (tile 0 always publishes a prefix, so the walk never
// needs them; this only keeps reads in bounds).
constexpr int kLookbackWindow = 8;
constexpr unsigned kLookbackRetryDelayNs = 100;  // sleep before reading an unpublished word again
__device__ __forceinline__ uint32_t lookback_digit(const uint32_t* status, uint32_t tile,
                                                   int digit) {
  uint32_t earlier = 0;
  int64_t nearest = static_cast<int64_t>(tile) - 1;
  for (;;) {
    uint32_t words[kLookbackWindow];
#pragma unroll
    for (int i = 0; i < kLookbackWindow; ++i) {
      const int64_t j = nearest - i;
      words[i] = j >= 0 ? load_relaxed(status + static_cast<uint64_t>(j) * kDigits + digit)
                        : kLookbackPrefix;
    }
    int consumed = 0;
#pragma unroll
    for (int i = 0; i < kLookbackWindow; ++i) {
      if (words[i] == 0) break;  // not published yet: read again from here
      earlier += words[i] & kLookbackValue;
      if (words[i] & kLookbackPrefix) return earlier;
      consumed = i + 1;
    }
    if (consumed == 0 && kLookbackRetryDelayNs > 0) __nanosleep(kLookbackRetryDelayNs);
    nearest -= consumed;
  }
}

// Agent: one tile of one pass.
template <class Shape, bool kFull>
__device__ __forceinline__ void onesweep_tile(const uint32_t* __restrict__ in,
                                              uint32_t* __restrict__ out, uint32_t tile,
                                              uint32_t valid, int shift,
                                              const uint32_t* __restrict__ digit_offsets,
                                              uint32_t* status, OnesweepStorage<Shape>& s) {
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const int digit = threadIdx.x;  // the digit this thread answers for in steps 2, 3 and look-back
  const uint64_t tile_base = uint64_t{tile} * Shape::kTileKeys;
  const uint32_t warp_first = warp * Shape::kWarpKeys;

  uint32_t keys[Shape::kItems];
#pragma unroll
  for (int u = 0; u < Shape::kItems; ++u) {
    const uint32_t index = warp_first + u * kWarpThreads + lane;
    keys[u] = (kFull || index < valid) ? in[tile_base + index] : 0u;
  }
  const auto digit_of = [&](int u) -> uint32_t {
    if (!kFull && warp_first + u * kWarpThreads + lane >= valid) return kDigits;
    return digit_at(keys[u], shift);
  };

  using Rank = RankOf<Shape>;
  Rank::count(s.rank, digit_of, warp);
  __syncthreads();

  // Publish this tile's counts early, so later tiles' look-backs find them.
  const uint32_t digit_count = Rank::totals(s.rank, digit);
  uint32_t* my_status = status + uint64_t{tile} * kDigits + digit;
  store_relaxed(my_status, (tile == 0 ? kLookbackPrefix : kLookbackAggregate) | digit_count);
  uint32_t tile_keys;
  const uint32_t digit_start =
      BlockScan<kOnesweepThreads>::exclusive_sum(digit_count, tile_keys, s.scan);
  Rank::offsets(s.rank, digit, digit_start);
  __syncthreads();

  Rank::template rank<!kFull>(
      s.rank, digit_of, [&](int u, uint32_t position) { s.keys[position] = keys[u]; }, warp, lane);
  __syncthreads();

  // Look-back for this thread's digit: add earlier tiles' counts until one carries a prefix.
  uint32_t earlier = 0;
  if (tile != 0) {
    earlier = lookback_digit(status, tile, digit);
    store_relaxed(my_status, kLookbackPrefix | (earlier + digit_count));
  }
  // Unsigned wrap-around is intended: base + position >= digit_offset + earlier for every key.
  s.global_base[digit] = digit_offsets[digit] + earlier - digit_start;
  __syncthreads();

#pragma unroll
  for (int u = 0; u < Shape::kItems; ++u) {
    const uint32_t position = u * kOnesweepThreads + threadIdx.x;
    if (kFull || position < valid) {
      const uint32_t key = s.keys[position];
      out[s.global_base[(key >> shift) & (kDigits - 1)] + position] = key;
    }
  }
}

template <class Shape>
__global__ void __launch_bounds__(kOnesweepThreads, Shape::kBlocksPerSm)
    onesweep_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                    int shift, const uint32_t* __restrict__ digit_offsets, uint32_t* status,
                    uint32_t* tile_counter) {
  __shared__ OnesweepStorage<Shape> s;
  // Tiles are numbered in the order blocks start, so a look-back only waits for running blocks.
  if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
  RankOf<Shape>::clear(s.rank, threadIdx.x / kWarpThreads, threadIdx.x % kWarpThreads);
  __syncthreads();
  const uint32_t tile = s.tile;
  const uint64_t tile_base = uint64_t{tile} * Shape::kTileKeys;
  const uint32_t valid =
      static_cast<uint32_t>(n - tile_base < Shape::kTileKeys ? n - tile_base : Shape::kTileKeys);
  if (valid == Shape::kTileKeys) {
    onesweep_tile<Shape, true>(in, out, tile, valid, shift, digit_offsets, status, s);
  } else {
    onesweep_tile<Shape, false>(in, out, tile, valid, shift, digit_offsets, status, s);
  }
}

struct SortWorkspace {
  uint32_t* alternate;   // n keys: the ping-pong partner of the output
  uint32_t* histograms;  // [pass][digit]; zeroed from here to the end
  uint32_t* offsets;     // [pass][digit]
  uint32_t* tile_counters;
  uint32_t* status;  // [pass][tile][digit]
  uint64_t cleared_bytes;
  uint64_t bytes;
};

SortWorkspace sort_workspace_layout(void* base, uint64_t n, uint64_t tile_count) {
  WorkspaceLayout layout(base);
  SortWorkspace w{};
  w.alternate = layout.take<uint32_t>(n);
  const uint64_t cleared_from = layout.bytes();
  w.histograms = layout.take<uint32_t>(kPasses * kDigits);
  w.offsets = layout.take<uint32_t>(kPasses * kDigits);
  w.tile_counters = layout.take<uint32_t>(kPasses);
  w.status = layout.take<uint32_t>(kPasses * tile_count * kDigits);
  w.bytes = layout.bytes();
  w.cleared_bytes = w.bytes - align_up(cleared_from, 256);
  return w;
}

template <class Shape>
uint64_t sort_tile_count(uint64_t n) {
  return div_up(n, Shape::kTileKeys);
}

template <class Shape>
uint64_t sort_workspace(void*, const pb_problem& problem) {
  return sort_workspace_layout(nullptr, problem.n, sort_tile_count<Shape>(problem.n)).bytes;
}

// Device entry.
template <class Shape>
void sort_onesweep(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const uint64_t n = call.n();
  if (n == 0) return;
  if (n > kSortMaxN) throw sdk::unsupported("cuda_optimized onesweep sorts at most 2^30 - 1 keys");
  const auto* keys = call.input<uint32_t>(0);
  auto* sorted = call.output<uint32_t>(0);
  require_aligned(keys, "keys");
  const uint64_t tile_count = sort_tile_count<Shape>(n);
  const SortWorkspace w = sort_workspace_layout(call.workspace<void>(), n, tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, "sort: workspace smaller than asked for");
  }
  PB_CUDA_CHECK(cudaMemsetAsync(w.histograms, 0, w.cleared_bytes, stream));

  const unsigned histogram_grid =
      grid_for(services, kHistogramBlocksPerSm, div_up(n / 4, kHistogramThreads));
  digit_histograms_kernel<<<histogram_grid, kHistogramThreads, 0, stream>>>(keys, n, w.histograms);
  PB_CUDA_CHECK_LAUNCH();
  digit_offsets_kernel<<<kPasses, kDigits, 0, stream>>>(w.histograms, w.offsets);
  PB_CUDA_CHECK_LAUNCH();

  const uint32_t* source = keys;
  uint32_t* target = w.alternate;
  for (int pass = 0; pass < kPasses; ++pass) {
    onesweep_kernel<Shape><<<static_cast<unsigned>(tile_count), kOnesweepThreads, 0, stream>>>(
        source, target, n, kRadixBits * pass, w.offsets + pass * kDigits,
        w.status + pass * tile_count * kDigits, w.tile_counters + pass);
    PB_CUDA_CHECK_LAUNCH();
    source = target;
    target = target == w.alternate ? sorted : w.alternate;
  }
  // Passes 0..3 wrote alternate, sorted, alternate, sorted: the result is in the output.
}

// How many waves of Shape's tiles the keys make: tiles over the blocks the SMs hold at once.
template <class Shape>
double waves_of(const CudaServices& services, uint64_t n) {
  const double slots =
      static_cast<double>(multiprocessors(services)) * Shape::kBlocksPerSm * Shape::kTileKeys;
  return static_cast<double>(n) / slots;
}

enum class SizedShape { kSmall, kMiddle, kLarge };

// Small while its tiles fill under half the SMs' slots (the sort is then latency-bound: more,
// smaller tiles finish sooner); Large from four waves of its tiles on (its last, partial wave a
// fifth of the work at most, fewer look-backs and longer digit runs to write); Middle between.
// H100, one run, paired over rounds (lab/performance-log.md, issue #38): 16x6 beat 24x3 up to 2^20
// and tied at 2^21; 32x3 lost to it at 2^22 (1.3 waves) and won from 2^24 (5.2 waves).
template <class Small, class Large>
SizedShape sized_shape(const CudaServices& services, uint64_t n) {
  if (waves_of<Small>(services, n) < 0.5) return SizedShape::kSmall;
  return waves_of<Large>(services, n) >= 4 ? SizedShape::kLarge : SizedShape::kMiddle;
}

template <class Small, class Middle, class Large>
uint64_t sort_workspace_sized(void* session, const pb_problem& problem) {
  switch (sized_shape<Small, Large>(services_of(session), problem.n)) {
    case SizedShape::kSmall:
      return sort_workspace<Small>(session, problem);
    case SizedShape::kMiddle:
      return sort_workspace<Middle>(session, problem);
    default:
      return sort_workspace<Large>(session, problem);
  }
}

}  // namespace

// The device entry of a shape, for kernel_entry (launch_config.cuh).
template <class Shape>
struct DeviceSort {
  static constexpr const char* kWorkload = "sort";
  static constexpr uint64_t kMaxN = kSortMaxN;
  static constexpr sdk::WorkspaceFunction workspace = sort_workspace<Shape>;
  static void run(sdk::Call& call) { sort_onesweep<Shape>(call); }
};

// The device entry of three shapes chosen by the problem's size (sized_shape).
template <class Small, class Middle, class Large>
struct DeviceSortSized {
  static constexpr const char* kWorkload = "sort";
  static constexpr uint64_t kMaxN = kSortMaxN;
  static constexpr sdk::WorkspaceFunction workspace = sort_workspace_sized<Small, Middle, Large>;
  static void run(sdk::Call& call) {
    switch (sized_shape<Small, Large>(services_of(call), call.n())) {
      case SizedShape::kSmall:
        sort_onesweep<Small>(call);
        break;
      case SizedShape::kMiddle:
        sort_onesweep<Middle>(call);
        break;
      default:
        sort_onesweep<Large>(call);
        break;
    }
  }
};

}  // namespace plugbench::cuda::opt
