// sample_sort.hpp: the arithmetic of sample sort's exchange, apart from MPI and from where the keys
// live: which keys a rank offers as samples, the splitters all ranks choose from them, and where
// the splitters cut a rank's sorted keys. Equal keys are ordered by (rank, position), so that a
// problem of one repeated key is still split evenly (docs/mpi.md: the exchange).
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <vector>

namespace plugbench {

// A key's place in the order of the whole problem: its value, then the rank holding it and its
// position among that rank's sorted keys.
struct SortPosition {
  std::int64_t key = 0;
  std::int64_t rank = 0;
  std::int64_t position = 0;
  auto operator<=>(const SortPosition&) const = default;
};

// Regular samples a rank offers: kOversampling * ranks - 1 (none for one rank). PSRS's ranks - 1
// leaves a rank up to twice its share; more samples bring the buckets closer to n / ranks, for
// a gather of 24 * ranks^2 bytes a rank.
inline constexpr int kOversampling = 8;
int samples_per_rank(int ranks);

// The positions of a rank's regular samples among its n sorted keys, evenly spread
// ((i + 1) * n / (samples + 1)); none when n is 0.
std::vector<std::uint64_t> sample_positions(std::uint64_t n, int ranks);

// A rank's samples as the int64 words every rank gathers: 3 per sample (key, rank, position), a
// fixed samples_per_rank a rank, unused ones with rank -1. `keys[i]`: the key at positions[i].
std::vector<std::int64_t> encode_samples(const std::vector<std::uint32_t>& keys,
                                         const std::vector<std::uint64_t>& positions, int rank,
                                         int ranks);

// The ranks - 1 splitters from every rank's encoded samples: the samples sorted, then ranks - 1
// of them evenly spread. Rank r receives the keys from splitter r - 1 (inclusive) to splitter r.
std::vector<SortPosition> choose_splitters(const std::vector<std::int64_t>& gathered, int ranks);

// Where the splitters cut rank `rank`'s n sorted keys: ranks + 1 bounds, 0 first and n last;
// the keys for rank d are [bounds[d], bounds[d + 1]). `lower_bound(key)` and `upper_bound(key)`
// search the sorted keys. The bounds never go down, even for keys that are not sorted.
std::vector<std::uint64_t> bucket_bounds(
    const std::vector<SortPosition>& splitters, int rank, std::uint64_t n,
    const std::function<std::uint64_t(std::uint32_t)>& lower_bound,
    const std::function<std::uint64_t(std::uint32_t)>& upper_bound);

// Binary searches over n sorted keys read one at a time by `key_at` (device memory, a copy per
// read): the first position whose key is >= `key` (lower) or > `key` (upper).
std::uint64_t search_keys(std::uint64_t n, std::uint32_t key, bool upper,
                          const std::function<std::uint32_t(std::uint64_t)>& key_at);

}  // namespace plugbench
