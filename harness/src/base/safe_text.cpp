// safe_text.cpp: UTF-8 repair, cutting at character boundaries, and escaping for terminals.
#include "base/safe_text.hpp"

#include <cstdio>

namespace plugbench {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool is_continuation(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

// The length of the valid UTF-8 sequence at text[at], or 0 where none starts there; `consumed`
// says how many bytes the invalid part spans (at least 1), so that it becomes one U+FFFD.
std::size_t sequence_at(std::string_view text, std::size_t at, std::size_t& consumed) {
  const auto lead = static_cast<unsigned char>(text[at]);
  consumed = 1;
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte (no overlongs, no
                                          // surrogates, nothing past U+10FFFF)
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  std::size_t end = at + 1;
  if (end >= text.size()) return 0;
  const auto second = static_cast<unsigned char>(text[end]);
  if (second < low || second > high) return 0;
  ++end;
  while (end < text.size() && end - at < length &&
         is_continuation(static_cast<unsigned char>(text[end]))) {
    ++end;
  }
  consumed = end - at;
  return consumed == length ? length : 0;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::size_t consumed = 0;
    if (std::size_t length = sequence_at(text, at, consumed); length > 0) {
      clean.append(text.substr(at, length));
    } else {
      clean.append(kReplacement);
    }
    at += consumed;
  }
  return clean;
}

std::string valid_utf8_prefix(std::string_view text, std::size_t max_bytes) {
  std::string clean = valid_utf8(text);
  if (clean.size() <= max_bytes) return clean;
  std::size_t cut = max_bytes;
  while (cut > 0 && is_continuation(static_cast<unsigned char>(clean[cut]))) --cut;
  clean.resize(cut);
  return clean;
}

std::string printable_text(std::string_view text) {
  const std::string clean = valid_utf8(text);
  std::string shown;
  shown.reserve(clean.size());
  for (std::size_t at = 0; at < clean.size(); ++at) {
    const auto byte = static_cast<unsigned char>(clean[at]);
    char escape[8] = "";
    if (byte == '\n') {
      shown += "\\n";
    } else if (byte == '\r') {
      shown += "\\r";
    } else if (byte == '\t') {
      shown += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      shown += escape;
    } else if (byte == 0xC2 && at + 1 < clean.size() &&
               static_cast<unsigned char>(clean[at + 1]) <= 0x9F) {
      // U+0080..U+009F: the C1 controls (0x9B alone starts a terminal escape sequence).
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned char>(clean[at + 1]));
      shown += escape;
      ++at;
    } else {
      shown += clean[at];
    }
  }
  return shown;
}

std::string html_text(std::string_view text) {
  const std::string shown = printable_text(text);
  std::string escaped;
  escaped.reserve(shown.size());
  for (char c : shown) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

}  // namespace plugbench
