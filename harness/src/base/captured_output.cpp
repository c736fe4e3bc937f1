// captured_output.cpp: keeping a worker's output within bounds and cutting it into lines.
#include "base/captured_output.hpp"

#include "base/safe_text.hpp"

#include <algorithm>
#include <vector>

namespace plugbench {
namespace {

// A line as it may be recorded: without '\r', valid UTF-8, cut between characters; empty when
// it holds only blanks.
std::string recorded_line(std::string line) {
  line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
  if (line.find_first_not_of(" \t") == std::string::npos) return "";
  if (line.size() > CapturedOutput::kLineBytes) {
    return valid_utf8_prefix(line, CapturedOutput::kLineBytes) + "...";
  }
  return valid_utf8(line);
}

}  // namespace

void CapturedOutput::append(const char* data, std::size_t size) {
  bytes_ += size;
  if (head_.size() < kHeadBytes) head_.append(data, std::min(size, kHeadBytes - head_.size()));
  if (size >= kTailBytes) {
    tail_.assign(data + size - kTailBytes, kTailBytes);
    return;
  }
  tail_.append(data, size);
  if (tail_.size() > kTailBytes) tail_.erase(0, tail_.size() - kTailBytes);
}

std::optional<PluginOutput> CapturedOutput::summary() const {
  if (bytes_ == 0) return std::nullopt;
  PluginOutput output;
  output.bytes = bytes_;
  std::size_t begin = 0;
  while (begin < head_.size() && output.first_lines.size() < kShownLines) {
    std::size_t end = head_.find('\n', begin);
    // The head's last line may go on past the bytes kept: shown as far as it was kept.
    if (end == std::string::npos) end = head_.size();
    if (std::string line = recorded_line(head_.substr(begin, end - begin)); !line.empty()) {
      output.first_lines.push_back(std::move(line));
    }
    begin = end + 1;
  }
  return output;
}

std::string CapturedOutput::last_lines(std::size_t count) const {
  std::vector<std::string> lines;
  std::size_t end = tail_.size();
  while (end > 0 && lines.size() < count) {
    std::size_t begin = tail_.rfind('\n', end - 1);
    begin = begin == std::string::npos ? 0 : begin + 1;
    if (std::string line = recorded_line(tail_.substr(begin, end - begin)); !line.empty()) {
      lines.push_back(std::move(line));
    }
    end = begin == 0 ? 0 : begin - 1;
  }
  std::string joined;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    joined += (joined.empty() ? "" : " | ") + *it;
  }
  return joined;
}

}  // namespace plugbench
