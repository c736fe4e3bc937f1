// streamed_results.hpp: parses a results file's text in one pass and hands each element of its
// top-level "results" array to a callback as soon as that element is complete, so that the
// cells' JSON never exists all at once (nlohmann::json takes about 25 times the text it parsed).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace plugbench {

// The document without its cells: where the top-level "results" is an array, it is left empty
// and each element went to `on_cell`, in order (where "results" appears twice, as nlohmann keeps
// the last, `on_results_restart` is called before the second array's elements). Throws what
// nlohmann::json::parse throws for the same text (parse_error, out_of_range for 1e400).
nlohmann::json parse_streaming_results(const std::string& text,
                                       const std::function<void(nlohmann::json&& cell)>& on_cell,
                                       const std::function<void()>& on_results_restart);

// The value of the top-level object's key `key` where it is not an array or object (the last, if
// the key appears twice), read without building the document; nullopt where the text is not a
// JSON object, has no such key, or the value is an array or object.
std::optional<nlohmann::json> top_level_scalar(const std::string& text, const std::string& key);

}  // namespace plugbench
