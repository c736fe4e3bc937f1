// html_page.hpp: one self-contained HTML page (for `harness report`): inline CSS, no script, no
// font, image or style from anywhere else; headings with a table of contents, paragraphs, tables
// written by TableWriter, and inline SVG figures. Every text given is HTML-escaped.
#pragma once

#include "render/text_table.hpp"

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace plugbench {

class HtmlPage {
 public:
  explicit HtmlPage(std::string title) : title_(std::move(title)) {}

  // Level 2 and 3 headings are listed in the table of contents at the top.
  void heading(int level, const std::string& text);
  // `css_class`: "" or one of the page's own classes ("alert", "note").
  void paragraph(const std::string& text, const std::string& css_class = "");
  void preformatted(const std::string& text);
  void table(const TextTable& table);
  // Figures side by side: SVG markup from svg_line_chart (its text escaped there).
  void figures(const std::vector<std::string>& svgs);

  // A place in the page, here, for paragraphs known only later (a summary of what follows).
  std::size_t slot();
  void slot_paragraph(std::size_t slot, const std::string& text, const std::string& css_class = "");

  // The whole document.
  std::string html() const;

 private:
  struct Slot {
    std::size_t offset;  // in body_
    std::string html;
  };
  std::vector<Slot> slots_;
  std::string title_;
  std::vector<std::pair<int, std::string>> contents_;  // level, escaped text; ids h1, h2, ...
  std::ostringstream body_;
};

}  // namespace plugbench
