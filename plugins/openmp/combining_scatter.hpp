// combining_scatter.hpp: a thread's scatter of its block of keys by digit, for the radix sorts.
// Keys of each digit gather in a block of BlockKeys (in L1/L2) and reach memory a block at a time,
// streamed when asked, instead of one store into each digit's place: whole blocks keep the
// memory's writes sequential.
#pragma once

#include <algorithm>
#include <cstdint>

#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace plugbench::openmp {

// A block is streamed only when this thread fills all of it; the partial blocks at the ends of a
// digit's run, shared with the neighbouring thread's run, are stored normally.
template <int Buckets, std::uint32_t BlockKeys>
class CombiningScatter {
 public:
  explicit CombiningScatter(bool stream) : stream_(stream) {}
  void set_streaming(bool stream) { stream_ = stream; }

  // Writes source[block] to target, the keys of digit d from offsets[d] on, where digit_of(key)
  // < Buckets. on_leave(keys, count, position) sees every run of keys as it reaches
  // target[position, position + count).
  template <class DigitOf, class OnLeave>
  void operator()(const std::uint32_t* source, ThreadRange block, DigitOf digit_of,
                  const std::uint64_t* offsets, std::uint32_t* target, OnLeave&& on_leave) {
    for (int digit = 0; digit < Buckets; ++digit) {
      line_start_[digit] = offsets[digit] - offsets[digit] % BlockKeys;
      first_[digit] = fill_[digit] = static_cast<std::uint32_t>(offsets[digit] % BlockKeys);
    }
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      const std::uint32_t key = source[i];
      const unsigned digit = digit_of(key);
      std::uint32_t fill = fill_[digit];
      lines_[digit].keys[fill] = key;
      if (++fill == BlockKeys) {
        write_line(digit, target, on_leave);
        fill = 0;
      }
      fill_[digit] = fill;
    }
    for (int digit = 0; digit < Buckets; ++digit) {
      const std::uint32_t first = first_[digit];
      const std::uint32_t* keys = lines_[digit].keys;
      std::copy(keys + first, keys + fill_[digit], target + line_start_[digit] + first);
      on_leave(keys + first, fill_[digit] - first, line_start_[digit] + first);
    }
  }

 private:
  template <class OnLeave>
  void write_line(unsigned digit, std::uint32_t* target, OnLeave& on_leave) {
    const std::uint32_t first = first_[digit];
    const std::uint32_t* keys = lines_[digit].keys;
    std::uint32_t* line = target + line_start_[digit];
    if (first == 0) {
      store_values(line, keys, BlockKeys, stream_);
    } else {
      std::copy(keys + first, keys + BlockKeys, line + first);
    }
    on_leave(keys + first, BlockKeys - first, line_start_[digit] + first);
    line_start_[digit] += BlockKeys;
    first_[digit] = 0;
  }

  struct alignas(64) Block {
    std::uint32_t keys[BlockKeys];
  };
  Block lines_[Buckets];
  std::uint64_t line_start_[Buckets];
  std::uint32_t first_[Buckets];
  std::uint32_t fill_[Buckets];
  bool stream_;
};

// The on_leave of a scatter that needs none.
struct IgnoreLeavingKeys {
  void operator()(const std::uint32_t*, std::uint32_t, std::uint64_t) const {}
};

}  // namespace plugbench::openmp
