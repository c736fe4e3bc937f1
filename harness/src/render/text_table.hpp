// text_table.hpp: the one row model behind every table the harness prints (run results,
// comparisons, the crossover), written as a fixed-width console table, GitHub markdown, CSV or an
// HTML table (for `harness report`).
#pragma once

#include "base/enum_names.hpp"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {

enum class OutputFormat { console, md, csv, html };

// The names --format takes and writes; html has none: it is for the pages `harness report` writes.
inline constexpr EnumName<OutputFormat> kOutputFormatNames[] = {
    {OutputFormat::console, "console"}, {OutputFormat::md, "md"}, {OutputFormat::csv, "csv"}};
// Other spellings --format takes, never written (nor listed in a message).
inline constexpr EnumName<OutputFormat> kOutputFormatAliases[] = {{OutputFormat::md, "markdown"}};

inline const char* to_string(OutputFormat format) {
  return name_in(kOutputFormatNames, format);
}

// A name or an alias of kOutputFormatNames; throws UsageError naming `option` and the names.
OutputFormat parse_output_format(const std::string& text, const std::string& option = "format");

struct TableColumn {
  std::string title;        // heading on the console and in markdown (may carry a unit)
  std::string csv_name;     // CSV header: a stable name
  bool align_left = false;  // text columns; numbers align right
};

struct TableRow {
  std::vector<std::string> cells;  // one per column; "" is "no value": "-" on screen, empty in CSV
  // A row with nothing measured (an unavailable plugin, say) has only its leading cells and this
  // note: on the console it follows them; in markdown and CSV it fills the last column.
  std::string note;
  // A row to draw the eye to (a cell that failed, erred or is suspect; a regression): marked in
  // HTML, where a colour can say it; the other formats say it in the row's words alone.
  bool alert = false;
};

struct TextTable {
  std::string title;  // the line above the table on the console and in markdown
  // What the whole table is about (workload, size, ...): part of the title on screen, leading
  // columns in CSV, so that one CSV stream holds many tables.
  std::vector<std::pair<std::string, std::string>> context;
  std::vector<TableColumn> columns;
  std::vector<TableRow> rows;
  std::vector<std::string> notes;  // lines below the table (console and markdown only)
};

// Writes tables one after another. CSV has a single header, written with the first table: the
// context names, then the columns' CSV names; later tables add rows under it.
class TableWriter {
 public:
  // A terminal's width, for tables asked to fit one (harness compare).
  static constexpr std::size_t kTerminalColumns = 120;

  // `console_columns`: the width a console table is kept within (its titles, then its text
  // columns wrap); 0, the default: as wide as its values.
  TableWriter(std::ostream& out, OutputFormat format, std::size_t console_columns = 0)
      : out_(out), format_(format), console_columns_(console_columns) {}
  void write(const TextTable& table);
  OutputFormat format() const { return format_; }

 private:
  void write_console(const TextTable& table);
  void write_markdown(const TextTable& table);
  void write_csv(const TextTable& table);
  void write_html(const TextTable& table);

  std::ostream& out_;
  OutputFormat format_;
  std::size_t console_columns_;
  bool csv_header_written_ = false;
};

// A CSV field, quoted when it holds a comma, a quote or a line break, and prefixed with an
// apostrophe when a spreadsheet would run it as a formula (=HYPERLINK(...), +, -, @).
std::string csv_field(const std::string& text);

}  // namespace plugbench
