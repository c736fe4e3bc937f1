// export_format.hpp: the formats `harness export --to` and `harness --format` write for other
// tools (results/exports.hpp, docs/exports.md).
#pragma once

#include <optional>
#include <string>

namespace plugbench {

enum class ExportFormat { gbench, bmf, gab };

// gbench, bmf or gab; nullopt for any other name.
inline std::optional<ExportFormat> export_format_named(const std::string& name) {
  if (name == "gbench") return ExportFormat::gbench;
  if (name == "bmf") return ExportFormat::bmf;
  if (name == "gab") return ExportFormat::gab;
  return std::nullopt;
}

}  // namespace plugbench
