// export_format.hpp: the formats `harness export --to` and `harness --format` write for other
// tools (results/exports.hpp, docs/exports.md), and the choices of export --errors and --list.
#pragma once

#include "base/enum_names.hpp"

#include <optional>
#include <string>

namespace plugbench {

enum class ExportFormat { gbench, bmf, gab };

// The names --to and --format take, in the order messages and usage lines list them.
inline constexpr EnumName<ExportFormat> kExportFormatNames[] = {
    {ExportFormat::gbench, "gbench"}, {ExportFormat::bmf, "bmf"}, {ExportFormat::gab, "gab"}};

inline const char* to_string(ExportFormat format) {
  return name_in(kExportFormatNames, format);
}

// A name of kExportFormatNames; nullopt for any other.
inline std::optional<ExportFormat> export_format_named(const std::string& name) {
  return value_named(kExportFormatNames, name);
}

// export --errors: a gbench export leaves a cell that did not end ok out (omit), or writes it as
// an error entry without a time (entries).
enum class ExportErrors { omit, entries };
inline constexpr EnumName<ExportErrors> kExportErrorsNames[] = {{ExportErrors::omit, "omit"},
                                                                {ExportErrors::entries, "entries"}};

// export --list: the list a gab export writes, the times (smaller is better) or the rates.
enum class GabList { time, rate };
inline constexpr EnumName<GabList> kGabListNames[] = {{GabList::time, "time"},
                                                      {GabList::rate, "rate"}};

}  // namespace plugbench
