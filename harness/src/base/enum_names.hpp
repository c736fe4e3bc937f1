// enum_names.hpp: one table of {value, "name"} per enum, from which its text, its parsing and the
// "one of: ..." list of a message all come, so that a mode is spelled in one place.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace plugbench {

template <typename Enum>
struct EnumName {
  Enum value;
  const char* name;
};

// The name of `value` in `table` ("" for a value the table lacks).
template <typename Enum, std::size_t N>
const char* name_in(const EnumName<Enum> (&table)[N], Enum value) {
  for (const EnumName<Enum>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "";
}

// The value `text` names in `table`, or nothing.
template <typename Enum, std::size_t N>
std::optional<Enum> value_named(const EnumName<Enum> (&table)[N], const std::string& text) {
  for (const EnumName<Enum>& entry : table) {
    if (text == entry.name) return entry.value;
  }
  return std::nullopt;
}

// "a, b, c": every name of `table`, in its order (a message's "is not one of: ..."); with
// `separator` "|", a usage line's "a|b|c".
template <typename Enum, std::size_t N>
std::string names_in(const EnumName<Enum> (&table)[N], const char* separator = ", ") {
  std::string names;
  for (const EnumName<Enum>& entry : table)
    names += (names.empty() ? "" : separator) + std::string(entry.name);
  return names;
}

}  // namespace plugbench
