// test_safe_text.cpp: the one sanitizer for text from outside: invalid UTF-8 becomes U+FFFD, cuts
// fall between characters, and control characters are escaped for terminals.
#include "base/safe_text.hpp"
#include "load/plugin_names.hpp"
#include "load/plugin_text.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plugbench {
namespace {

using plugbench::testing::kReplacement;

TEST(SafeText, ValidUtf8ComesBackUnchanged) {
  for (const std::string text : {"", "plain", "caf\xC3\xA9", "\xE2\x86\x92 \xE2\x89\xA4",
                                 "\xF0\x9F\x98\x80", "\xEF\xBF\xBD", "a\tb\nc"}) {
    EXPECT_EQ(valid_utf8(text), text);
  }
}

TEST(SafeText, InvalidBytesBecomeOneReplacementEach) {
  EXPECT_EQ(valid_utf8("caf\xE9"), "caf" + kReplacement);
  EXPECT_EQ(valid_utf8("\xFF\xFE"), kReplacement + kReplacement);
  EXPECT_EQ(valid_utf8("a\xC3"), "a" + kReplacement);              // cut after the lead byte
  EXPECT_EQ(valid_utf8("\xE2\x86x"), kReplacement + "x");          // one per maximal subpart
  EXPECT_EQ(valid_utf8("\xC0\xAF"), kReplacement + kReplacement);  // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80").find("\xF4"), std::string::npos);  // past U+10FFFF
  EXPECT_EQ(valid_utf8("\x80x"), kReplacement + "x");  // a lone continuation byte
}

TEST(SafeText, PrefixCutsBetweenCharacters) {
  const std::string text = std::string(299, 'a') + "\xC3\xA9" + "b";
  EXPECT_EQ(valid_utf8_prefix(text, 300), std::string(299, 'a'));
  EXPECT_EQ(valid_utf8_prefix(text, 301), std::string(299, 'a') + "\xC3\xA9");
  EXPECT_EQ(valid_utf8_prefix("short", 300), "short");
  EXPECT_EQ(valid_utf8_prefix("\xF0\x9F\x98\x80", 3), "");
}

TEST(SafeText, ControlCharactersAreShownEscaped) {
  EXPECT_EQ(printable_text("red\x1B[31m"), "red\\x1b[31m");
  EXPECT_EQ(printable_text("two\nlines\r\t"), "two\\nlines\\r\\t");
  EXPECT_EQ(printable_text("del\x7F"), "del\\x7f");
  EXPECT_EQ(printable_text("csi\xC2\x9B"), "csi\\u009b");  // the C1 control that starts a sequence
  EXPECT_EQ(printable_text("caf\xC3\xA9 \xE2\x86\x92"), "caf\xC3\xA9 \xE2\x86\x92");
  EXPECT_EQ(printable_text("caf\xE9"), "caf" + kReplacement);
}

TEST(SafeText, PluginBuffersAreReadUpToTheirSizeWithoutANul) {
  const char field[4] = {'a', 'b', 'c', 'd'};  // no NUL: the read stops at the end
  EXPECT_EQ(bounded_text(field, sizeof field), "abcd");
  const char shorter[8] = "ab";
  EXPECT_EQ(bounded_text(shorter, sizeof shorter), "ab");
  EXPECT_EQ(bounded_text(nullptr, 8), "");
  const char latin1[4] = {'c', 'a', 'f', '\xE9'};
  EXPECT_EQ(bounded_text(latin1, sizeof latin1), "caf" + kReplacement);
  EXPECT_EQ(plugin_string(nullptr), "");
  const std::string long_text(kMaxPluginStringBytes + 100, 'z');
  EXPECT_EQ(plugin_string(long_text.c_str()).size(), kMaxPluginStringBytes);
}

TEST(SafeText, HtmlTextLeavesNoMarkupNoInvalidByteAndNoControlCharacter) {
  EXPECT_EQ(html_text("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(html_text("caf\xC3\xA9 \xFF<\x1B[2J\n"), "caf\xC3\xA9 \xEF\xBF\xBD&lt;\\x1b[2J\\n");
  EXPECT_EQ(html_text("2^20 GB/s"), "2^20 GB/s");
}

TEST(SafeText, KernelNamesFollowTheRule) {
  for (const std::string name : {"sequential", "std_sort", "v1.2", "a+b", "lookback-256", "X"}) {
    EXPECT_EQ(kernel_name_problem(name), "") << name;
  }
  for (const std::string name : {"", "-neg", "all", "comma,var", "two\nlines", "\x1B[31mred", "a/b",
                                 "sp ace", "caf\xC3\xA9"}) {
    EXPECT_NE(kernel_name_problem(name), "") << name;
  }
  EXPECT_NE(kernel_name_problem(std::string(kMaxNameBytes + 1, 'v')), "");
  EXPECT_EQ(kernel_name_problem(std::string(kMaxNameBytes, 'v')), "");
  EXPECT_TRUE(valid_plugin_name("cpu_serial"));
  EXPECT_FALSE(valid_plugin_name(std::string(kMaxNameBytes + 1, 'p')));
}

}  // namespace
}  // namespace plugbench
