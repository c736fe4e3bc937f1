// byte_stream.hpp: plain values and vectors of them written to and read from a binary stream, for
// references and problems shared between the harness's worker processes (one machine, one build:
// native byte order, no versioning). A short or failed read throws std::runtime_error.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace plugbench {

template <class T>
void write_value(std::ostream& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

template <class T>
T read_value(std::istream& in) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value{};
  if (!in.read(reinterpret_cast<char*>(&value), sizeof value)) {
    throw std::runtime_error("the stored data ends early");
  }
  return value;
}

inline void write_bytes(std::ostream& out, const void* data, std::uint64_t bytes) {
  write_value(out, bytes);
  if (bytes) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
}

// Reads a length written by write_bytes and checks it is `expected`, then the bytes into `data`.
inline void read_bytes(std::istream& in, void* data, std::uint64_t expected) {
  const auto bytes = read_value<std::uint64_t>(in);
  if (bytes != expected) throw std::runtime_error("the stored data has another size");
  if (bytes && !in.read(static_cast<char*>(data), static_cast<std::streamsize>(bytes))) {
    throw std::runtime_error("the stored data ends early");
  }
}

inline void write_string(std::ostream& out, const std::string& text) {
  write_bytes(out, text.data(), text.size());
}

// A string written by write_string; longer than `max_length` is taken for damage, not allocated.
inline std::string read_string(std::istream& in,
                               std::uint64_t max_length = std::uint64_t{1} << 20) {
  const auto length = read_value<std::uint64_t>(in);
  if (length > max_length) throw std::runtime_error("the stored text is too long to be a name");
  std::string text(length, '\0');
  if (length && !in.read(text.data(), static_cast<std::streamsize>(length))) {
    throw std::runtime_error("the stored data ends early");
  }
  return text;
}

template <class T>
void write_vector(std::ostream& out, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  write_value(out, std::uint64_t{values.size()});
  write_bytes(out, values.data(), values.size() * sizeof(T));
}

template <class T>
std::vector<T> read_vector(std::istream& in) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> values(read_value<std::uint64_t>(in));
  read_bytes(in, values.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace plugbench
