// write_out_check.cu: the bulk tile's compaction kernel with both packs (LaneVectorPack,
// BallotPack) and every write-out (RunsWriteOut, VectorWriteOut, WarpVectorWriteOut) on inputs
// --check-plugin does not make: every item kept, none, half, 99 %, 1 %, whole warps' segments on
// and off, 0-4 items a warp; sizes from 1 to 2^22 + 5 (partial tiles); the output starting 0-3
// words past a 16-byte boundary, and the words past the count checked untouched. Prints each
// failure and a summary.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Iplugins/cuda_optimized -Iharness/include \
//     lab/device/write_out_check.cu -o /tmp/write_out_check && /tmp/write_out_check
#include "device_compact.cuh"

#include <cstdio>
#include <random>
#include <vector>

using namespace plugbench::cuda::opt;
using Shape = SharedTileShape;

namespace {

int failures = 0;

template <class Pack, class WriteOut>
void check(const std::vector<uint32_t>& x, int offset, const char* name) {
  const uint64_t n = x.size();
  const uint64_t tiles = (n + Shape::Layout::kTileItems - 1) / Shape::Layout::kTileItems;
  const uint64_t words = n + 8;
  uint32_t *in, *out, *tile_counter;
  unsigned long long* count;
  uint64_t* status;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, words * 4);
  cudaMalloc(&count, 8);
  cudaMalloc(&status, tiles * 8);
  cudaMalloc(&tile_counter, 4);
  cudaMemcpy(in, x.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xAA, words * 4);
  cudaMemset(status, 0, tiles * 8);
  cudaMemset(tile_counter, 0, 4);
  compact_kernel_shared_tile<Shape, Pack, WriteOut><<<tiles, Shape::kThreads>>>(
      in, out + offset, count, n, static_cast<uint32_t>(tiles), status, tile_counter);
  std::vector<uint32_t> got(words);
  unsigned long long got_count = 0;
  cudaMemcpy(got.data(), out, words * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&got_count, count, 8, cudaMemcpyDeviceToHost);
  std::vector<uint32_t> expected;
  for (uint32_t v : x)
    if (v != 0) expected.push_back(v);
  bool ok = got_count == expected.size();
  for (uint64_t i = 0; i < words && ok; ++i) {
    const bool inside = i >= static_cast<uint64_t>(offset) && i - offset < expected.size();
    ok = got[i] == (inside ? expected[i - offset] : 0xAAAAAAAAu);
  }
  if (!ok) {
    ++failures;
    std::printf("FAIL %s n=%llu offset=%d\n", name, static_cast<unsigned long long>(n), offset);
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(count);
  cudaFree(status);
  cudaFree(tile_counter);
}

}  // namespace

int main() {
  std::mt19937 random(1);
  int checks = 0;
  for (uint64_t n : {1ull, 3ull, 4ull, 5ull, 100ull, 1025ull, 8191ull, 8192ull, 8193ull, 16421ull,
                     40963ull, 100000ull, 1ull << 20, (1ull << 22) + 5}) {
    for (int pattern = 0; pattern < 7; ++pattern) {
      std::vector<uint32_t> x(n);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t in_segment = i % 1024, segment = i / 1024;
        bool keep = false;
        switch (pattern) {
          case 0:
            keep = true;
            break;
          case 1:
            keep = false;
            break;
          case 2:
            keep = random() % 2;
            break;
          case 3:
            keep = random() % 100 != 0;
            break;
          case 4:
            keep = random() % 100 == 0;
            break;
          case 5:
            keep = segment % 3 == 1;
            break;
          default:
            keep = in_segment < segment % 5;
        }
        x[i] = keep ? static_cast<uint32_t>(i + 1) : 0;
      }
      for (int offset = 0; offset < 4; ++offset) {
        check<LaneVectorPack, VectorWriteOut>(x, offset, "LaneVectorPack+VectorWriteOut");
        check<BallotPack, VectorWriteOut>(x, offset, "BallotPack+VectorWriteOut");
        check<LaneVectorPack, RunsWriteOut>(x, offset, "LaneVectorPack+RunsWriteOut");
        check<BallotPack, RunsWriteOut>(x, offset, "BallotPack+RunsWriteOut");
        check<LaneVectorPack, WarpVectorWriteOut>(x, offset, "LaneVectorPack+WarpVectorWriteOut");
        check<BallotPack, WarpVectorWriteOut>(x, offset, "BallotPack+WarpVectorWriteOut");
        checks += 6;
      }
    }
  }
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("write_out_check: %d checks, %d failed, %s\n", checks, failures,
              cudaGetErrorString(error));
  return failures == 0 && error == cudaSuccess ? 0 : 1;
}
