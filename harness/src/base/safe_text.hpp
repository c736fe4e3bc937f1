// safe_text.hpp: the one way text from outside (a plugin, a worker's output, a file name, a results
// file) enters what the harness records or prints: valid UTF-8 always (a results file is JSON, and
// one invalid byte would cost the whole file), cut only between characters, and shown on a
// terminal with its control characters escaped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace plugbench {

// `text` with every byte sequence that is not valid UTF-8 replaced by U+FFFD (one per maximal
// invalid subpart, as Unicode recommends); valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

// valid_utf8(text), cut to at most `max_bytes` bytes at a character boundary.
std::string valid_utf8_prefix(std::string_view text, std::size_t max_bytes);

// valid_utf8(text) with control characters (C0, DEL, C1) written as visible escapes ("\n",
// "\x1b", "\u009b"), so that text read from a file cannot move the cursor, recolour a terminal
// or break a table's rows.
std::string printable_text(std::string_view text);

// printable_text(text) with the characters that mean markup in HTML and SVG (& < > " ') written as
// character references: safe as element text and inside a quoted attribute value.
std::string html_text(std::string_view text);

}  // namespace plugbench
