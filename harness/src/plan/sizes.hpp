// sizes.hpp: the size expressions users type (--sizes 1M,2^28,7680x4320,2^10..2^20*4).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

// One requested size: a count, or an image shape when the user wrote WxH.
struct SizeRequest {
  std::uint64_t n = 0;
  std::uint64_t width = 0;  // both nonzero only for WxH
  std::uint64_t height = 0;
  std::string text;  // as the user wrote it (for messages and the JSON)
  bool is_shape() const { return width != 0; }
};

class SizeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The largest problem plugbench accepts: 2^40 elements (4 TiB of int32).
constexpr std::uint64_t kMaxProblemSize = std::uint64_t{1} << 40;

// Parses a comma list of size expressions:
//   N          a count (digits)
//   NK NM NG   binary multiples (K = 2^10, M = 2^20, G = 2^30)
//   2^k        a power of two
//   WxH        an image of W columns and H rows
//   A..B       A, 2A, 4A, ... up to B;  A..B*K  multiplies by K instead
// Throws SizeError with a message that names the bad token and the accepted forms.
std::vector<SizeRequest> parse_sizes(const std::string& list);

// "2^20" for powers of two of at least 1024, else the digits.
std::string describe_count(std::uint64_t n);

}  // namespace plugbench
