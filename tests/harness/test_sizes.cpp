// test_sizes.cpp: the size expressions users type, and the messages for the ones they mistype.
#include "plan/sizes.hpp"

#include <gtest/gtest.h>

namespace plugbench {
namespace {

std::vector<std::uint64_t> counts(const std::string& text) {
  std::vector<std::uint64_t> n;
  for (const SizeRequest& request : parse_sizes(text)) n.push_back(request.n);
  return n;
}

std::string error_for(const std::string& text) {
  try {
    parse_sizes(text);
  } catch (const SizeError& e) {
    return e.what();
  }
  return "";
}

TEST(Sizes, PlainPowersAndBinarySuffixes) {
  EXPECT_EQ(counts("1000003"), std::vector<std::uint64_t>{1000003});
  EXPECT_EQ(counts("0,1"), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(counts("2^28"), std::vector<std::uint64_t>{1ull << 28});
  EXPECT_EQ(counts("1K, 16M,1G"), (std::vector<std::uint64_t>{1024, 16ull << 20, 1ull << 30}));
  EXPECT_EQ(counts("3k"), std::vector<std::uint64_t>{3072});
}

TEST(Sizes, ImageShapesKeepWidthAndHeight) {
  std::vector<SizeRequest> sizes = parse_sizes("7680x4320");
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_TRUE(sizes[0].is_shape());
  EXPECT_EQ(sizes[0].width, 7680u);
  EXPECT_EQ(sizes[0].height, 4320u);
  EXPECT_EQ(sizes[0].n, 7680u * 4320u);
  EXPECT_EQ(sizes[0].text, "7680x4320");
}

TEST(Sizes, SweepsDoubleOrMultiply) {
  EXPECT_EQ(counts("2^10..2^13"), (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(counts("2^10..2^16*4"), (std::vector<std::uint64_t>{1024, 4096, 16384, 65536}));
  EXPECT_EQ(counts("3..20"), (std::vector<std::uint64_t>{3, 6, 12}));
  EXPECT_EQ(parse_sizes("2^10..2^11")[1].text, "2^11");
}

TEST(Sizes, MalformedSizesNameTheTokenAndTheForms) {
  EXPECT_NE(error_for("2^x").find("bad size '2^x'"), std::string::npos);
  EXPECT_NE(error_for("-5").find("cannot be negative"), std::string::npos);
  EXPECT_NE(error_for("2^41").find("larger than 2^40"), std::string::npos);
  EXPECT_NE(error_for("99999999999999999999999").find("larger than 2^40"), std::string::npos);
  EXPECT_NE(error_for("3^4").find("only powers of two"), std::string::npos);
  EXPECT_NE(error_for("1M,,2M").find("empty entry"), std::string::npos);
  EXPECT_NE(error_for("10..5").find("start is larger"), std::string::npos);
  EXPECT_NE(error_for("0..8").find("cannot start at 0"), std::string::npos);
  EXPECT_NE(error_for("1..8*1").find("at least 2"), std::string::npos);
  EXPECT_NE(error_for("0x5").find("W and H above 0"), std::string::npos);
  EXPECT_NE(error_for("abc").find("accepted forms"), std::string::npos);
  EXPECT_NE(error_for("2M2").find("unexpected character"), std::string::npos);
}

TEST(Sizes, DescribeCountUsesPowersOfTwoFrom1024) {
  EXPECT_EQ(describe_count(1ull << 20), "2^20");
  EXPECT_EQ(describe_count(1000003), "1000003");
  EXPECT_EQ(describe_count(512), "512");
}

}  // namespace
}  // namespace plugbench
