// text_table.cpp: the console, markdown, CSV and HTML writers of TextTable.
#include "render/text_table.hpp"

#include "base/safe_text.hpp"
#include "base/usage_error.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <functional>
#include <optional>
#include <sstream>
#include <string_view>

namespace plugbench {
namespace {

// The narrowest a text column is made to keep a table within the terminal's width.
constexpr std::size_t kNarrowestTextColumn = 16;

// Characters on screen: UTF-8 continuation bytes take no column ("→", "≤").
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string on_screen(const std::string& cell) {
  return cell.empty() ? "-" : cell;
}

// `text` in lines of at most `width` columns: broken at spaces where it can be, inside a word
// (between characters, never inside one) where a word is wider than the line.
std::vector<std::string> wrapped(const std::string& text, std::size_t width) {
  if (width == 0) return {text};
  std::vector<std::string> lines(1);
  std::size_t used = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(i, end - i);
    i = end < text.size() ? end + 1 : end;
    std::size_t word_width = display_width(word);
    if (used > 0 && used + 1 + word_width > width) {
      lines.emplace_back();
      used = 0;
    }
    if (used > 0) {
      lines.back() += ' ';
      ++used;
    }
    std::size_t start = 0;
    while (word_width > width - used) {  // a word longer than the line: cut at a character
      std::size_t cut = start, columns = 0;
      while (cut < word.size() && columns < width - used) {
        ++cut;
        while (cut < word.size() && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) ++cut;
        ++columns;
      }
      lines.back() += word.substr(start, cut - start);
      lines.emplace_back();
      used = 0;
      word_width -= columns;
      start = cut;
    }
    lines.back() += word.substr(start);
    used += word_width;
  }
  return lines;
}

std::string padded(const std::string& text, std::size_t width, bool align_left) {
  std::size_t used = display_width(text);
  std::string fill(width > used ? width - used : 0, ' ');
  return align_left ? text + fill : fill + text;
}

// Markdown renders HTML and links wherever it is posted (a CI comment): text from a plugin or a
// file gets its markup characters as entities, and the characters that make links, code or a
// cell's end escaped; a trailing backslash can no longer swallow the cell's closing bar.
std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '|':
      case '\\':
      case '[':
      case ']':
      case '`':
        escaped += '\\';
        escaped += c;
        break;
      case '\n':
        escaped += ' ';
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

// The table with its control characters escaped: cells may hold text from a plugin or a results
// file, which must not move the cursor, recolour the terminal or break a row
// (base/safe_text.hpp).
TextTable printable_table(const TextTable& table) {
  TextTable shown = table;
  shown.title = printable_text(shown.title);
  for (auto& [name, value] : shown.context) value = printable_text(value);
  for (TableColumn& column : shown.columns) column.title = printable_text(column.title);
  for (TableRow& row : shown.rows) {
    for (std::string& cell : row.cells) cell = printable_text(cell);
    row.note = printable_text(row.note);
  }
  for (std::string& note : shown.notes) note = printable_text(note);
  return shown;
}

// A note row's cells, the missing ones blank and the note in the last column.
std::vector<std::string> filled_cells(const TableRow& row, std::size_t columns) {
  std::vector<std::string> cells = row.cells;
  if (row.note.empty() || cells.size() >= columns) return cells;
  cells.resize(columns);
  cells.back() = row.note;
  return cells;
}

}  // namespace

OutputFormat parse_output_format(const std::string& text, const std::string& option) {
  if (const std::optional<OutputFormat> format = value_named(kOutputFormatNames, text)) {
    return *format;
  }
  if (const std::optional<OutputFormat> format = value_named(kOutputFormatAliases, text)) {
    return *format;
  }
  throw UsageError("--" + option + " '" + text +
                   "' is not one of: " + names_in(kOutputFormatNames));
}

namespace {

// Whether a spreadsheet would run the field as a formula (=HYPERLINK(...), +cmd, @SUM): it starts
// with = + - @ or a tab, and is not made of digits and signs alone (a number, a percentage such as
// "+10.0 %", a sum of numbers) or a dash for a missing value.
bool spreadsheet_would_run(const std::string& text) {
  if (text.empty() || std::string_view("=+-@\t\r").find(text.front()) == std::string_view::npos) {
    return false;
  }
  if (text == "-") return false;
  std::string number = text;
  if (number.back() == '%') number.pop_back();
  while (!number.empty() && number.back() == ' ') number.pop_back();
  const bool digits_and_signs =
      number.size() > 1 && (number.front() == '-' || number.front() == '+') &&
      number.find_first_not_of("0123456789.eE+-", 1) == std::string::npos &&
      std::isdigit(static_cast<unsigned char>(number[1]));
  return !digits_and_signs;
}

}  // namespace

std::string csv_field(const std::string& raw) {
  // A leading apostrophe makes a spreadsheet take the field as text (OWASP's advice).
  const std::string text = spreadsheet_would_run(raw) ? "'" + raw : raw;
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

void TableWriter::write(const TextTable& raw_table) {
  const TextTable table = printable_table(raw_table);
  switch (format_) {
    case OutputFormat::console:
      write_console(table);
      break;
    case OutputFormat::md:
      write_markdown(table);
      break;
    case OutputFormat::csv:
      write_csv(table);
      break;
    case OutputFormat::html:
      write_html(table);
      break;
  }
}

void TableWriter::write_console(const TextTable& table) {
  const std::size_t columns = table.columns.size();
  std::vector<std::size_t> data(columns, 0), title_word(columns, 0), widths(columns);
  for (const TableRow& row : table.rows) {
    if (!row.note.empty()) continue;  // a note runs past the columns it does not fill
    for (std::size_t c = 0; c < std::min(columns, row.cells.size()); ++c) {
      data[c] = std::max(data[c], display_width(on_screen(row.cells[c])));
    }
  }
  std::size_t total = 0;
  for (std::size_t c = 0; c < columns; ++c) {
    std::istringstream words(table.columns[c].title);
    for (std::string word; words >> word;) {
      title_word[c] = std::max(title_word[c], display_width(word));
    }
    widths[c] = std::max(display_width(table.columns[c].title), data[c]);
    total += widths[c] + (c > 0 ? 2 : 0);
  }
  // Wider than a terminal: first the titles wider than their column's values wrap (down to their
  // longest word), then the widest text columns narrow (their values wrap, never below
  // kNarrowestTextColumn); numbers are never cut.
  // A column at a time, the widest that can give, so that columns narrow evenly.
  const auto narrow = [&](const std::function<std::size_t(std::size_t)>& narrowest) {
    while (console_columns_ > 0 && total > console_columns_) {
      std::size_t widest = columns;
      for (std::size_t c = 0; c < columns; ++c) {
        if (widths[c] > narrowest(c) && (widest == columns || widths[c] >= widths[widest])) {
          widest = c;
        }
      }
      if (widest == columns) return;
      --widths[widest];
      --total;
    }
  };
  narrow([&](std::size_t c) { return std::max(data[c], title_word[c]); });
  narrow([&](std::size_t c) {
    return table.columns[c].align_left ? std::max(title_word[c], kNarrowestTextColumn) : widths[c];
  });
  auto write_line = [&](const std::vector<std::string>& cells, const std::string& note,
                        bool titles) {
    std::vector<std::vector<std::string>> parts;
    std::size_t height = 1;
    for (std::size_t c = 0; c < cells.size() && c < columns; ++c) {
      // Wrapped only where the table is held to a width: else a cell wider than its column (a
      // name on a row with a note) runs over, as it always did.
      const bool wrap = console_columns_ > 0 && (titles || table.columns[c].align_left);
      parts.push_back(wrap ? wrapped(cells[c], widths[c]) : std::vector<std::string>{cells[c]});
      height = std::max(height, parts.back().size());
    }
    for (std::size_t l = 0; l < height; ++l) {
      std::string line;
      for (std::size_t c = 0; c < parts.size(); ++c) {
        if (c > 0) line += "  ";
        const std::string part = l < parts[c].size() ? parts[c][l] : "";
        bool last = c + 1 == columns;
        line += last && table.columns[c].align_left
                    ? part
                    : padded(part, widths[c], table.columns[c].align_left);
      }
      if (l == 0 && !note.empty()) line += "  " + note;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out_ << line << "\n";
    }
  };
  out_ << "\n" << table.title << "\n";
  std::vector<std::string> titles;
  for (const TableColumn& column : table.columns) titles.push_back(column.title);
  write_line(titles, "", true);
  for (const TableRow& row : table.rows) {
    std::vector<std::string> cells;
    for (const std::string& cell : row.cells) cells.push_back(on_screen(cell));
    write_line(cells, row.note, false);
  }
  for (const std::string& note : table.notes) out_ << note << "\n";
}

void TableWriter::write_markdown(const TextTable& table) {
  const std::size_t columns = table.columns.size();
  out_ << "\n#### " << markdown_cell(table.title) << "\n\n|";
  for (const TableColumn& column : table.columns)
    out_ << " " << markdown_cell(column.title) << " |";
  out_ << "\n|";
  for (const TableColumn& column : table.columns) out_ << (column.align_left ? "---|" : "--:|");
  out_ << "\n";
  for (const TableRow& row : table.rows) {
    std::vector<std::string> cells = filled_cells(row, columns);
    cells.resize(columns);
    out_ << "|";
    for (std::size_t c = 0; c < columns; ++c) {
      bool blank = !row.note.empty() && c >= row.cells.size() && c + 1 < columns;
      out_ << " " << (blank ? "" : markdown_cell(on_screen(cells[c]))) << " |";
    }
    out_ << "\n";
  }
  if (!table.notes.empty()) out_ << "\n";
  for (const std::string& note : table.notes) out_ << markdown_cell(note) << "\n\n";
}

void TableWriter::write_csv(const TextTable& table) {
  const std::size_t columns = table.columns.size();
  auto write_fields = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      out_ << (i > 0 ? "," : "") << csv_field(fields[i]);
    }
    out_ << "\n";
  };
  if (!csv_header_written_) {
    std::vector<std::string> header;
    for (const auto& [name, value] : table.context) header.push_back(name);
    for (const TableColumn& column : table.columns) header.push_back(column.csv_name);
    write_fields(header);
    csv_header_written_ = true;
  }
  for (const TableRow& row : table.rows) {
    std::vector<std::string> fields;
    for (const auto& [name, value] : table.context) fields.push_back(value);
    std::vector<std::string> cells = filled_cells(row, columns);
    cells.resize(columns);
    fields.insert(fields.end(), cells.begin(), cells.end());
    write_fields(fields);
  }
}

void TableWriter::write_html(const TextTable& table) {
  const std::size_t columns = table.columns.size();
  auto align = [&](std::size_t c) { return table.columns[c].align_left ? " class=\"text\"" : ""; };
  out_ << "<table>\n<caption>" << html_text(table.title) << "</caption>\n";
  // A table of labelled facts has no headings: no empty header row either.
  if (std::any_of(table.columns.begin(), table.columns.end(),
                  [](const TableColumn& column) { return !column.title.empty(); })) {
    out_ << "<thead><tr>";
    for (std::size_t c = 0; c < columns; ++c) {
      out_ << "<th" << align(c) << ">" << html_text(table.columns[c].title) << "</th>";
    }
    out_ << "</tr></thead>\n";
  }
  out_ << "<tbody>\n";
  for (const TableRow& row : table.rows) {
    out_ << (row.alert ? "<tr class=\"alert\">" : "<tr>");
    const std::size_t filled = row.note.empty() ? columns : std::min(columns, row.cells.size());
    for (std::size_t c = 0; c < filled; ++c) {
      std::string cell = c < row.cells.size() ? row.cells[c] : "";
      out_ << "<td" << align(c) << ">" << html_text(on_screen(cell)) << "</td>";
    }
    if (!row.note.empty()) {
      out_ << "<td class=\"note\" colspan=\"" << std::max<std::size_t>(columns - filled, 1) << "\">"
           << html_text(row.note) << "</td>";
    }
    out_ << "</tr>\n";
  }
  out_ << "</tbody>\n</table>\n";
  for (const std::string& note : table.notes) {
    out_ << "<p class=\"note\">" << html_text(note) << "</p>\n";
  }
}

}  // namespace plugbench
