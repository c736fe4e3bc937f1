// plugin_text.hpp: text a plugin wrote, read without trusting it: a fixed-size field or message
// buffer is read up to its size even when it holds no NUL, a string field up to a bound, and
// either comes back as valid UTF-8 (base/safe_text.hpp).
#pragma once

#include "base/safe_text.hpp"

#include <cstddef>
#include <cstring>
#include <string>

namespace plugbench {

// The longest text the harness takes from a plugin's string field (a name, a version, a
// description, a build fact); the rest is cut.
inline constexpr std::size_t kMaxPluginStringBytes = 4096;

// The characters of `text` up to its first NUL or `capacity`, whichever comes first.
inline std::string bounded_text(const char* text, std::size_t capacity) {
  if (text == nullptr) return "";
  return valid_utf8(std::string_view(text, strnlen(text, capacity)));
}

// A string field of the plugin's table (may be NULL: then empty), at most kMaxPluginStringBytes.
inline std::string plugin_string(const char* text) {
  if (text == nullptr) return "";
  return valid_utf8_prefix(std::string_view(text, strnlen(text, kMaxPluginStringBytes)),
                           kMaxPluginStringBytes);
}

}  // namespace plugbench
