// captured_output.hpp: what a plugin's process wrote to stdout and stderr, held within fixed
// bounds however much it wrote: the first bytes (the lines a user reads under the cell), the last
// bytes (what a crash message quotes) and the count of all of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// What the plugin's worker process wrote to stdout and stderr during the cell: shown under its
// table, never in it (docs/fault-isolation.md).
struct PluginOutput {
  std::vector<std::string> first_lines;  // the first non-blank lines, valid UTF-8, each cut short
  std::uint64_t bytes = 0;               // all it wrote, shown or not
};

class CapturedOutput {
 public:
  static constexpr std::size_t kHeadBytes = 8192;
  static constexpr std::size_t kTailBytes = 8192;
  static constexpr std::size_t kShownLines = 10;
  static constexpr std::size_t kLineBytes = 300;

  void append(const char* data, std::size_t size);
  void clear() { *this = CapturedOutput(); }
  std::uint64_t bytes() const { return bytes_; }
  // Whether `text` occurs in the last bytes.
  bool tail_contains(const std::string& text) const { return tail_.find(text) != tail_.npos; }

  // The first kShownLines non-blank lines and the byte count; nullopt when nothing was written.
  std::optional<PluginOutput> summary() const;
  // The last `count` non-blank lines, joined by " | " (for a one-line message).
  std::string last_lines(std::size_t count) const;

 private:
  std::string head_;
  std::string tail_;
  std::uint64_t bytes_ = 0;
};

}  // namespace plugbench
