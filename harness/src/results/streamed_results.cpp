// streamed_results.cpp: nlohmann's SAX events, built into values by a small builder of our own
// (nlohmann's callback parser searches a parent for discarded elements each time an object ends,
// which is quadratic in an array of many objects).
#include "results/streamed_results.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {
namespace {

using json = nlohmann::json;

// Builds one value from SAX events; containers in progress are held by pointer (an array's last
// element or an object's member: neither moves while the container is open).
class ValueBuilder {
 public:
  explicit ValueBuilder(json& root) : root_(root) {}

  void key(std::string name) { key_ = std::move(name); }
  void scalar(json value) { place(std::move(value)); }
  void open(json container) { open_.push_back(place(std::move(container))); }
  void close() { open_.pop_back(); }
  bool building() const { return !open_.empty(); }

 private:
  json* place(json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& member = parent[key_];  // a repeated key keeps the last value, as nlohmann does
    member = std::move(value);
    return &member;
  }

  json& root_;
  std::vector<json*> open_;
  std::string key_;
};

// The document goes to one builder; each element of the top-level "results" array to a builder
// of its own, handed on once complete.
class StreamingHandler {
 public:
  StreamingHandler(json& document, const std::function<void(json&&)>& on_cell,
                   const std::function<void()>& on_results_restart)
      : document_builder_(document), on_cell_(on_cell), on_results_restart_(on_results_restart) {}

  bool null() { return scalar(nullptr); }
  bool boolean(bool value) { return scalar(value); }
  bool number_integer(std::int64_t value) { return scalar(value); }
  bool number_unsigned(std::uint64_t value) { return scalar(value); }
  bool number_float(double value, const std::string&) { return scalar(value); }
  bool string(std::string& value) { return scalar(std::move(value)); }
  bool binary(json::binary_t& value) { return scalar(json::binary(std::move(value))); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) {
    const bool results_begin = depth_ == 1 && results_key_;
    open(json::array());
    if (results_begin) {
      in_results_ = true;
      if (seen_results_) on_results_restart_();
      seen_results_ = true;
    }
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
    if (depth_ == 1) results_key_ = name == "results";
    builder().key(std::move(name));
    return true;
  }

  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& error) {
    throw error;
  }

 private:
  bool at_cell_start() const { return in_results_ && depth_ == 2 && !cell_builder_; }
  ValueBuilder& builder() { return cell_builder_ ? *cell_builder_ : document_builder_; }

  bool scalar(json value) {
    if (at_cell_start()) {
      on_cell_(std::move(value));
      return true;
    }
    if (depth_ == 1) results_key_ = false;
    builder().scalar(std::move(value));
    return true;
  }

  bool open(json container) {
    if (at_cell_start()) {
      cell_ = json();
      cell_builder_.emplace(cell_);
    }
    if (depth_ == 1) results_key_ = false;
    builder().open(std::move(container));
    ++depth_;
    return true;
  }

  bool close() {
    --depth_;
    builder().close();
    if (cell_builder_ && !cell_builder_->building()) {
      cell_builder_.reset();
      on_cell_(std::move(cell_));
      cell_ = json();
    } else if (in_results_ && depth_ == 1) {
      in_results_ = false;
    }
    if (depth_ == 1) results_key_ = false;
    return true;
  }

  ValueBuilder document_builder_;
  std::optional<ValueBuilder> cell_builder_;
  json cell_;
  const std::function<void(json&&)>& on_cell_;
  const std::function<void()>& on_results_restart_;
  std::size_t depth_ = 0;     // containers open
  bool results_key_ = false;  // the top-level key just read is "results"
  bool in_results_ = false;   // inside the top-level "results" array
  bool seen_results_ = false;
};

// Notes the top-level scalar value of one key; builds nothing.
class ScalarFinder {
 public:
  explicit ScalarFinder(const std::string& key) : key_(key) {}

  bool null() { return scalar(nullptr); }
  bool boolean(bool value) { return scalar(value); }
  bool number_integer(std::int64_t value) { return scalar(value); }
  bool number_unsigned(std::uint64_t value) { return scalar(value); }
  bool number_float(double value, const std::string&) { return scalar(value); }
  bool string(std::string& value) { return scalar(value); }
  bool binary(json::binary_t&) { return scalar(nullptr); }
  bool start_object(std::size_t) { return open(); }
  bool start_array(std::size_t) { return open(); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& name) {
    if (depth_ == 1) matched_ = name == key_;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) {
    found.reset();
    return false;
  }

  std::optional<json> found;

 private:
  template <class Value>
  bool scalar(Value&& value) {
    if (depth_ == 1 && matched_) found = json(std::forward<Value>(value));
    matched_ = false;
    return true;
  }
  bool open() {
    if (depth_ == 1 && matched_) found.reset();
    matched_ = false;
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }

  const std::string& key_;
  std::size_t depth_ = 0;
  bool matched_ = false;
};

}  // namespace

json parse_streaming_results(const std::string& text, const std::function<void(json&&)>& on_cell,
                             const std::function<void()>& on_results_restart) {
  json document;
  StreamingHandler handler(document, on_cell, on_results_restart);
  json::sax_parse(text, &handler);
  return document;
}

std::optional<json> top_level_scalar(const std::string& text, const std::string& key) {
  ScalarFinder finder(key);
  json::sax_parse(text, &finder);
  return finder.found;
}

}  // namespace plugbench
