// plugin_text.hpp: text a plugin wrote into a fixed-size field, read without trusting it to end
// in a NUL.
#pragma once

#include <cstddef>
#include <string>

namespace plugbench {

// The characters of `text` up to its first NUL or `capacity`, whichever comes first.
inline std::string bounded_text(const char* text, std::size_t capacity) {
  std::size_t length = 0;
  while (length < capacity && text[length] != '\0') ++length;
  return std::string(text, length);
}

}  // namespace plugbench
