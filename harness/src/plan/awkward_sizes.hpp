// awkward_sizes.hpp: the small and awkward problem sizes every kernel is checked on, by
// harness --check-plugin and by the plugin-matrix tests: one list, so both check the same edges.
#pragma once

#include "workload.hpp"

#include <cstdint>
#include <iterator>
#include <vector>

namespace plugbench {

// Empty, one, tiny odd, just past a warp (32) and a block (256), not a power of two, primes.
inline constexpr std::uint64_t kAwkwardCounts[] = {0, 1, 7, 33, 257, 1000, 4099, 65537, 1000003};

// Mandelbrot costs about 1 us a pixel on one core: smaller, odd shapes (width x height = n).
inline constexpr Shape kAwkwardImages[] = {
    {0, 0, 1}, {1, 1, 1}, {21, 7, 3}, {4087, 61, 67}, {36720, 255, 144}};

// The awkward shapes of one workload: the images for an image workload (Mandelbrot), the counts
// (as the workload lays them out) for every other one.
inline std::vector<Shape> awkward_shapes(const Workload& workload) {
  if (workload.is_image()) return {std::begin(kAwkwardImages), std::end(kAwkwardImages)};
  std::vector<Shape> shapes;
  for (std::uint64_t n : kAwkwardCounts) shapes.push_back(workload.shape_for_count(n));
  return shapes;
}

}  // namespace plugbench
