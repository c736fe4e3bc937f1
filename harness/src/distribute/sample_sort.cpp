// sample_sort.cpp: samples, splitters and bucket bounds of sample sort.
#include "distribute/sample_sort.hpp"

#include <algorithm>

namespace plugbench {

int samples_per_rank(int ranks) {
  return ranks > 1 ? kOversampling * ranks - 1 : 0;
}

std::vector<std::uint64_t> sample_positions(std::uint64_t n, int ranks) {
  std::vector<std::uint64_t> positions;
  if (n == 0) return positions;
  const int samples = samples_per_rank(ranks);
  for (int i = 0; i < samples; ++i) {
    positions.push_back((i + 1) * n / static_cast<std::uint64_t>(samples + 1));
  }
  return positions;
}

std::vector<std::int64_t> encode_samples(const std::vector<std::uint32_t>& keys,
                                         const std::vector<std::uint64_t>& positions, int rank,
                                         int ranks) {
  std::vector<std::int64_t> words;
  for (int i = 0; i < samples_per_rank(ranks); ++i) {
    if (static_cast<std::size_t>(i) < positions.size()) {
      words.insert(words.end(), {static_cast<std::int64_t>(keys[i]), rank,
                                 static_cast<std::int64_t>(positions[i])});
    } else {
      words.insert(words.end(), {0, -1, 0});
    }
  }
  return words;
}

std::vector<SortPosition> choose_splitters(const std::vector<std::int64_t>& gathered, int ranks) {
  std::vector<SortPosition> samples;
  for (std::size_t i = 0; i + 2 < gathered.size(); i += 3) {
    if (gathered[i + 1] >= 0) samples.push_back({gathered[i], gathered[i + 1], gathered[i + 2]});
  }
  std::sort(samples.begin(), samples.end());
  std::vector<SortPosition> splitters;
  // No samples: no rank holds a key, and any splitter cuts nothing.
  if (samples.empty()) return std::vector<SortPosition>(ranks > 0 ? ranks - 1 : 0);
  for (int j = 1; j < ranks; ++j) {
    splitters.push_back(samples[j * samples.size() / static_cast<std::size_t>(ranks)]);
  }
  return splitters;
}

std::vector<std::uint64_t> bucket_bounds(
    const std::vector<SortPosition>& splitters, int rank, std::uint64_t n,
    const std::function<std::uint64_t(std::uint32_t)>& lower_bound,
    const std::function<std::uint64_t(std::uint32_t)>& upper_bound) {
  std::vector<std::uint64_t> bounds = {0};
  for (const SortPosition& splitter : splitters) {
    // The keys before the splitter: those below its key, and of the keys equal to it those of an
    // earlier rank, or of this rank before the splitter's position.
    const auto key = static_cast<std::uint32_t>(splitter.key);
    const std::uint64_t below = lower_bound(key);
    const std::uint64_t equal = std::max(upper_bound(key), below) - below;
    std::uint64_t before = below;
    if (rank < splitter.rank) {
      before += equal;
    } else if (rank == splitter.rank) {
      const std::int64_t mine = splitter.position - static_cast<std::int64_t>(below);
      before += static_cast<std::uint64_t>(std::clamp<std::int64_t>(mine, 0, equal));
    }
    bounds.push_back(std::clamp(before, bounds.back(), n));
  }
  bounds.push_back(n);
  return bounds;
}

std::uint64_t search_keys(std::uint64_t n, std::uint32_t key, bool upper,
                          const std::function<std::uint32_t(std::uint64_t)>& key_at) {
  std::uint64_t low = 0, high = n;
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    const std::uint32_t value = key_at(middle);
    if (upper ? value <= key : value < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

}  // namespace plugbench
