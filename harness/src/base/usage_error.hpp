// usage_error.hpp: a mistake on the command line, said with the valid choices (exit code 2).
#pragma once

#include <stdexcept>

namespace plugbench {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace plugbench
