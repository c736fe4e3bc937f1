// json_integer.hpp: an integer read from JSON that came from outside (a results file, a worker's
// reply): nlohmann's get<int>() casts a float such as 1e10 to int, which is undefined behaviour;
// this refuses a value that is not an integer within the type's range with nlohmann's own
// type_error, which every reader of such JSON already catches and reports.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace plugbench {

template <typename T>
T json_integer(const nlohmann::json& value) {
  static_assert(std::is_integral_v<T>);
  bool fits = false;
  if (value.is_number_unsigned()) {
    fits = value.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max());
  } else if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    fits = number >= 0
               ? std::uint64_t(number) <= std::uint64_t(std::numeric_limits<T>::max())
               : std::is_signed_v<T> && number >= std::int64_t(std::numeric_limits<T>::min());
  } else if (value.is_number_float()) {
    // An integral float within range (2.0) is taken; 1e10 for an int, 2.5 or nan are not.
    const double number = value.get<double>();
    const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);  // exact, unlike max()
    fits = std::isfinite(number) && std::trunc(number) == number && number < limit &&
           (std::is_signed_v<T> ? number >= -limit : number >= 0);
  }
  if (!fits) {
    const std::string message = "type must be an integer from " +
                                std::to_string(std::numeric_limits<T>::min()) + " to " +
                                std::to_string(std::numeric_limits<T>::max()) + ", but is " +
                                (value.is_number() ? value.dump() : value.type_name());
#if NLOHMANN_JSON_VERSION_MAJOR > 3 || NLOHMANN_JSON_VERSION_MINOR >= 11
    throw nlohmann::json::type_error::create(302, message, &value);
#else
    throw nlohmann::json::type_error::create(302, message, value);
#endif
  }
  if (value.is_number_float()) return static_cast<T>(value.get<double>());
  return value.get<T>();
}

}  // namespace plugbench
