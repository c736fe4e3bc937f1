// library_checksum.hpp: a checksum of a plugin's library file, recorded with the run, so that
// compare can tell whether a baseline is the same code on both sides (docs/comparing-results.md).
#pragma once

#include <string>

namespace plugbench {

// "crc32:" and the CRC-32 of the file's bytes in 8 hex digits; "" where it cannot be read.
std::string library_checksum(const std::string& path);

}  // namespace plugbench
