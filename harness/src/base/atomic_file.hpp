// atomic_file.hpp: files written so that they are either the old one or the complete new one: to
// a fresh temporary file of a random name beside the target, flushed, then renamed over it.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace plugbench {

// Creates the folders `path` is in where missing. Throws std::runtime_error naming the path.
void create_parent_folder(const std::string& path);

// Why `path` cannot take a results file (it is a folder, a device, a FIFO or a socket, which the
// rename would replace), or "" when it can (a regular file, or nothing yet). `option`: the option
// that named it, for the message.
std::string results_path_problem(const std::string& path, const std::string& option = "--json");

// Writes `text` to `path` (its folder created where missing), without the check on what `path`
// is now. Throws std::runtime_error naming the path and the problem.
void write_text_atomically(const std::string& text, const std::string& path);

// Where text goes a piece at a time.
using TextSink = std::function<void(std::string_view piece)>;
// As write_text_atomically, for text that `produce` hands to its sink in pieces (text too large
// to hold at once); an exception from `produce` leaves the old file and no temporary one.
void write_pieces_atomically(const std::string& path,
                             const std::function<void(const TextSink& put)>& produce);

}  // namespace plugbench
