// html_page.cpp: the page's markup and its style sheet.
#include "render/html_page.hpp"

#include "base/safe_text.hpp"

#include <string_view>

namespace plugbench {
namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1400px; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th.text, td.text { text-align: left; }
td.text { white-space: normal; overflow-wrap: anywhere; }
td.note { text-align: left; color: #555; white-space: normal; }
tr.alert td { background: #fde2e2; }
thead th { background: #f0f0f0; }
p.note { color: #555; font-size: 0.85em; margin: 0.2em 0; }
p.alert { color: #a00; font-weight: bold; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; } figure { margin: 0; }
svg.chart { border: 1px solid #ddd; background: #fff; max-width: 100%; height: auto; }
nav li { margin: 0.1em 0; } nav ul ul { font-size: 0.9em; }
)";

}  // namespace

void HtmlPage::heading(int level, const std::string& text) {
  const std::string escaped = html_text(text);
  const char tag[] = {'h', static_cast<char>('0' + (level < 1 ? 1 : level > 6 ? 6 : level)), '\0'};
  std::string id;
  if (level == 2 || level == 3) {
    contents_.emplace_back(level, escaped);
    id = " id=\"h" + std::to_string(contents_.size()) + "\"";
  }
  body_ << "<" << tag << id << ">" << escaped << "</" << tag << ">\n";
}

namespace {

std::string paragraph_html(const std::string& text, const std::string& css_class) {
  return "<p" + (css_class.empty() ? "" : " class=\"" + html_text(css_class) + "\"") + ">" +
         html_text(text) + "</p>\n";
}

}  // namespace

void HtmlPage::paragraph(const std::string& text, const std::string& css_class) {
  body_ << paragraph_html(text, css_class);
}

std::size_t HtmlPage::slot() {
  slots_.push_back({static_cast<std::size_t>(body_.tellp()), ""});
  return slots_.size() - 1;
}

void HtmlPage::slot_paragraph(std::size_t slot, const std::string& text,
                              const std::string& css_class) {
  slots_.at(slot).html += paragraph_html(text, css_class);
}

void HtmlPage::preformatted(const std::string& text) {
  // Line breaks are the point of <pre>: each line is escaped on its own.
  body_ << "<pre>";
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    body_ << html_text(text.substr(from, end - from)) << "\n";
    from = end + 1;
  }
  body_ << "</pre>\n";
}

void HtmlPage::table(const TextTable& table) {
  TableWriter(body_, OutputFormat::html).write(table);
}

void HtmlPage::figures(const std::vector<std::string>& svgs) {
  body_ << "<div class=\"figures\">\n";
  for (const std::string& svg : svgs) body_ << "<figure>\n" << svg << "</figure>\n";
  body_ << "</div>\n";
}

std::string HtmlPage::html() const {
  std::ostringstream page;
  page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       // Nothing from elsewhere: the page is read from a file, maybe years later, maybe offline.
       << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n"
       << "<title>" << html_text(title_) << "</title>\n<style>" << kStyle << "</style>\n"
       << "</head>\n<body>\n<h1>" << html_text(title_) << "</h1>\n<nav>\n<ul>\n";
  for (std::size_t i = 0; i < contents_.size(); ++i) {
    const auto& [level, text] = contents_[i];
    const bool next_is_child = i + 1 < contents_.size() && contents_[i + 1].first > level;
    page << "<li><a href=\"#h" << i + 1 << "\">" << text << "</a>";
    if (next_is_child) {
      page << "\n<ul>\n";
      continue;
    }
    page << "</li>\n";
    const bool child_list_ends =
        level == 3 && (i + 1 == contents_.size() || contents_[i + 1].first < level);
    if (child_list_ends) page << "</ul></li>\n";
  }
  page << "</ul>\n</nav>\n";
  const std::string text = body_.str();
  const std::string_view body = text;
  std::size_t written = 0;
  for (const Slot& slot : slots_) {  // in the order they were made: their offsets ascend
    page << body.substr(written, slot.offset - written) << slot.html;
    written = slot.offset;
  }
  page << body.substr(written) << "</body>\n</html>\n";
  return page.str();
}

}  // namespace plugbench
