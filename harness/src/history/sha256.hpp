// sha256.hpp: SHA-256 (FIPS 180-4) of a byte string, as 64 hex digits: the digest by which the
// history knows a run it already holds. Written here to avoid a crypto library for one function.
#pragma once

#include <string>
#include <string_view>

namespace plugbench {

std::string sha256_hex(std::string_view bytes);

}  // namespace plugbench
