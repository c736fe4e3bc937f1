// sizes.cpp: parsing of size expressions, with messages that say what was wrong.
#include "plan/sizes.hpp"

#include <boost/algorithm/string.hpp>

#include <cctype>

namespace plugbench {
namespace {

const char* const kForms =
    "accepted forms: N, NK/NM/NG (binary), 2^k, WxH, A..B (doubling), A..B*K; e.g. "
    "1000003,1M,2^28,7680x4320,2^10..2^20*4";

[[noreturn]] void fail(const std::string& token, const std::string& why) {
  throw SizeError("bad size '" + token + "': " + why + " (" + kForms + ")");
}

std::uint64_t parse_digits(const std::string& digits, const std::string& token) {
  if (digits.empty()) fail(token, "a number is missing");
  std::uint64_t value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      if (c == '-') fail(token, "sizes cannot be negative");
      fail(token, std::string("unexpected character '") + c + "'");
    }
    std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (kMaxProblemSize - digit) / 10) fail(token, "larger than 2^40 elements");
    value = value * 10 + digit;
  }
  return value;
}

// A single count: N, NK, NM, NG or 2^k.
std::uint64_t parse_count(const std::string& text, const std::string& token) {
  if (text.empty()) fail(token, "empty size");
  if (auto caret = text.find('^'); caret != std::string::npos) {
    if (text.substr(0, caret) != "2") fail(token, "only powers of two are written with ^");
    std::uint64_t exponent = parse_digits(text.substr(caret + 1), token);
    if (exponent > 40) fail(token, "larger than 2^40 elements");
    return std::uint64_t{1} << exponent;
  }
  unsigned shift = 0;
  char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  if (last == 'K') shift = 10;
  if (last == 'M') shift = 20;
  if (last == 'G') shift = 30;
  std::string digits = shift ? text.substr(0, text.size() - 1) : text;
  std::uint64_t value = parse_digits(digits, token);
  if (shift && value > (kMaxProblemSize >> shift)) fail(token, "larger than 2^40 elements");
  return value << shift;
}

SizeRequest count_request(std::uint64_t n, const std::string& text) {
  SizeRequest request;
  request.n = n;
  request.text = text;
  return request;
}

void parse_token(const std::string& token, std::vector<SizeRequest>& out) {
  if (auto dots = token.find(".."); dots != std::string::npos) {
    std::string from = token.substr(0, dots);
    std::string to = token.substr(dots + 2);
    std::uint64_t factor = 2;
    if (auto star = to.find('*'); star != std::string::npos) {
      factor = parse_digits(to.substr(star + 1), token);
      to = to.substr(0, star);
      if (factor < 2) fail(token, "the sweep factor must be at least 2");
    }
    std::uint64_t first = parse_count(from, token);
    std::uint64_t last = parse_count(to, token);
    if (first == 0) fail(token, "a sweep cannot start at 0");
    if (first > last) fail(token, "the sweep's start is larger than its end");
    for (std::uint64_t n = first; n <= last; n *= factor) {
      out.push_back(count_request(n, describe_count(n)));
      if (n > last / factor) break;
    }
    return;
  }
  if (auto x = token.find_first_of("xX"); x != std::string::npos) {
    SizeRequest request;
    request.width = parse_count(token.substr(0, x), token);
    request.height = parse_count(token.substr(x + 1), token);
    if (request.width == 0 || request.height == 0) fail(token, "an image needs W and H above 0");
    if (request.width > kMaxProblemSize / request.height) fail(token, "larger than 2^40 elements");
    request.n = request.width * request.height;
    request.text = token;
    out.push_back(request);
    return;
  }
  out.push_back(count_request(parse_count(token, token), token));
}

}  // namespace

std::vector<SizeRequest> parse_sizes(const std::string& list) {
  std::vector<std::string> tokens;
  boost::split(tokens, list, boost::is_any_of(","));
  std::vector<SizeRequest> sizes;
  for (std::string token : tokens) {
    boost::trim(token);
    if (token.empty()) {
      throw SizeError("bad size list '" + list + "': an empty entry (" + kForms + ")");
    }
    parse_token(token, sizes);
  }
  return sizes;
}

std::string describe_count(std::uint64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int exponent = 0;
    while ((std::uint64_t{1} << exponent) != n) ++exponent;
    return "2^" + std::to_string(exponent);
  }
  return std::to_string(n);
}

}  // namespace plugbench
