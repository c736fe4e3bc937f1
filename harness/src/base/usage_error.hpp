// usage_error.hpp: a mistake on the command line, said with the valid choices (exit code 2).
#pragma once

#include "base/safe_text.hpp"

#include <stdexcept>
#include <string>

namespace plugbench {

// Its message quotes what was typed (a name, a path, a size), which may hold control characters
// (-p $'cpu\x1b[2J'): they are written as escapes, so that an error line cannot clear or recolour
// the terminal it is read on.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(printable_text(message)) {}
};

}  // namespace plugbench
