// run_settings.hpp: how cells are measured (the options a worker needs), the text each mode is
// written as in options, messages and results files, and the one table of those settings that the
// worker channel and a results file's context.settings both walk.
#pragma once

#include "base/enum_names.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace plugbench {

enum class CacheMode { cold, warm };
enum class HostMemoryMode { pageable, pinned, both };
// process: each plugin's cells run in a worker process of its own (docs/fault-isolation.md);
// none: in the harness's own process, as a debugger wants it.
enum class IsolationMode { process, none };
// interleaved: a problem's cells held open together and sampled in rounds, one sample of each per
// round in a fresh random order (docs/measurement.md); sequential: one cell's samples after
// another's, as plugbench measured before rounds.
enum class MeasurementOrder { interleaved, sequential };

// Each mode's spelling in options, messages and results files, in the order messages list them.
inline constexpr EnumName<CacheMode> kCacheModeNames[] = {{CacheMode::cold, "cold"},
                                                          {CacheMode::warm, "warm"}};
inline constexpr EnumName<HostMemoryMode> kHostMemoryModeNames[] = {
    {HostMemoryMode::pageable, "pageable"},
    {HostMemoryMode::pinned, "pinned"},
    {HostMemoryMode::both, "both"}};
inline constexpr EnumName<IsolationMode> kIsolationModeNames[] = {
    {IsolationMode::process, "process"}, {IsolationMode::none, "none"}};
inline constexpr EnumName<MeasurementOrder> kMeasurementOrderNames[] = {
    {MeasurementOrder::interleaved, "interleaved"}, {MeasurementOrder::sequential, "sequential"}};

inline const char* to_string(CacheMode mode) {
  return name_in(kCacheModeNames, mode);
}
inline const char* to_string(HostMemoryMode mode) {
  return name_in(kHostMemoryModeNames, mode);
}
inline const char* to_string(IsolationMode mode) {
  return name_in(kIsolationModeNames, mode);
}
inline const char* to_string(MeasurementOrder order) {
  return name_in(kMeasurementOrderNames, order);
}

struct RunSettings {
  CacheMode cache = CacheMode::cold;
  HostMemoryMode host_memory = HostMemoryMode::pageable;
  std::optional<int> repetitions;  // empty: automatic within cell_budget
  double min_time = 0;
  int warmup = 1;
  double cell_budget = 2.0;
  // A GPU sample whose SM clock is below this fraction of the default clock is dropped and
  // retaken (0: keep every sample).
  double throttle_threshold = 0.75;
};

// How a results file's reader takes a setting it reads leniently (results/run_context.cpp): a name
// as any text, a number as any number, a whole number as one, a count as one or as text
// ("automatic"); anything else as "" or 0.
enum class SettingForm { name, number, whole, count_or_text };

// A RunSettings field as the worker channel and context.settings hold it: the key, the field
// written as JSON, and the field set from JSON (false, the settings untouched, where `value` is
// none of the field's values).
struct SettingField {
  const char* key;
  SettingForm form;
  nlohmann::json (*write)(const RunSettings& settings);
  bool (*read)(const nlohmann::json& value, RunSettings& settings);
};

namespace setting_detail {

// Each field type's JSON: write gives it, read gives the value or nothing.
template <typename T>
struct Codec;
template <>
struct Codec<double> {
  static constexpr SettingForm form = SettingForm::number;
  static nlohmann::json write(double value) { return value; }
  static std::optional<double> read(const nlohmann::json& j) {
    if (!j.is_number()) return std::nullopt;
    return j.get<double>();
  }
};
template <>
struct Codec<int> {
  static constexpr SettingForm form = SettingForm::whole;
  static nlohmann::json write(int value) { return value; }
  static std::optional<int> read(const nlohmann::json& j) {
    if (j.is_number_unsigned()) {
      if (j.get<std::uint64_t>() > std::uint64_t{INT_MAX}) return std::nullopt;
    } else if (!j.is_number_integer() || j.get<std::int64_t>() < INT_MIN ||
               j.get<std::int64_t>() > INT_MAX) {
      return std::nullopt;
    }
    return j.get<int>();
  }
};
// A count where one was given, "automatic" where none was.
template <>
struct Codec<std::optional<int>> {
  static constexpr SettingForm form = SettingForm::count_or_text;
  static nlohmann::json write(std::optional<int> value) {
    return value ? nlohmann::json(*value) : nlohmann::json("automatic");
  }
  static std::optional<std::optional<int>> read(const nlohmann::json& j) {
    if (j == "automatic") return std::optional<int>();
    if (const std::optional<int> count = Codec<int>::read(j)) return count;
    return std::nullopt;
  }
};
// An enum, by the name its table gives it.
template <const auto& Names>
struct NamedCodec {
  using Enum = decltype(Names[0].value);
  static constexpr SettingForm form = SettingForm::name;
  static nlohmann::json write(Enum value) { return name_in(Names, value); }
  static std::optional<Enum> read(const nlohmann::json& j) {
    if (!j.is_string()) return std::nullopt;
    return value_named(Names, j.get<std::string>());
  }
};

template <auto Member>
using FieldType = std::remove_cvref_t<decltype(std::declval<RunSettings&>().*Member)>;

template <typename C, auto Member>
constexpr SettingField field(const char* key) {
  return {key, C::form, [](const RunSettings& settings) { return C::write(settings.*Member); },
          [](const nlohmann::json& value, RunSettings& settings) {
            const auto read = C::read(value);
            if (read) settings.*Member = *read;
            return read.has_value();
          }};
}

}  // namespace setting_detail

// The row of a number or count field, and of an enum field with its name table.
template <auto Member>
constexpr SettingField setting(const char* key) {
  return setting_detail::field<setting_detail::Codec<setting_detail::FieldType<Member>>, Member>(
      key);
}
template <auto Member, const auto& Names>
constexpr SettingField setting(const char* key) {
  return setting_detail::field<setting_detail::NamedCodec<Names>, Member>(key);
}

// Every RunSettings field, by its key in the worker channel and in a results file's
// context.settings (results/schema.json): a new setting is its field and its row here.
inline constexpr SettingField kRunSettingFields[] = {
    setting<&RunSettings::cache, kCacheModeNames>("cache"),
    setting<&RunSettings::host_memory, kHostMemoryModeNames>("host_memory"),
    setting<&RunSettings::repetitions>("repetitions"),
    setting<&RunSettings::min_time>("min_time_s"),
    setting<&RunSettings::warmup>("warmup"),
    setting<&RunSettings::cell_budget>("cell_budget_s"),
    setting<&RunSettings::throttle_threshold>("throttle_threshold"),
};

// The settings as an object of kRunSettingFields's keys.
inline nlohmann::json to_json(const RunSettings& settings) {
  nlohmann::json j = nlohmann::json::object();
  for (const SettingField& field : kRunSettingFields) j[field.key] = field.write(settings);
  return j;
}

}  // namespace plugbench
