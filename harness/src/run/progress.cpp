// progress.cpp: the progress line of a run.
#include "run/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace plugbench {
namespace {

// Returns to the start of the line and erases it (a terminal only).
constexpr const char* kRewrite = "\r\033[K";

}  // namespace

std::string describe_duration(double seconds) {
  char text[32];
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else {
    const long whole = std::lround(seconds);
    if (whole < 3600) {
      std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
    } else {
      std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", whole / 3600, whole / 60 % 60,
                    whole % 60);
    }
  }
  return text;
}

Progress::Progress(std::ostream& out, Style style, std::size_t total, Clock clock)
    : out_(out), style_(style), total_(total), clock_(std::move(clock)), run_start_(clock_()) {}

Progress::Style Progress::style_for_stderr(bool quiet) {
  if (quiet) return Style::off;
  return ::isatty(STDERR_FILENO) ? Style::terminal : Style::log;
}

double Progress::seconds_since(std::chrono::steady_clock::time_point then) const {
  return std::chrono::duration<double>(clock_() - then).count();
}

std::string Progress::times() const {
  std::string text = describe_duration(seconds_since(run_start_)) + " elapsed";
  // The estimate assumes the cells left take as long as those finished: none finished, none.
  if (finished_ > 0 && total_ > finished_) {
    text += ", about " +
            describe_duration(measuring_s_ / static_cast<double>(finished_) *
                              static_cast<double>(total_ - finished_)) +
            " left";
  }
  return text;
}

void Progress::start_cells(const std::string& what, std::size_t count) {
  cell_ = what;
  cell_start_ = clock_();
  started_ += count;
  in_flight_ = count;
  update(what);
}

void Progress::update(const std::string& what) {
  if (style_ != Style::terminal) return;
  out_ << kRewrite << "[" << started_ << "/" << total_ << ", " << times() << "] " << what;
  if (last_cell_s_ >= 0) out_ << "  (last cell " << describe_duration(last_cell_s_) << ")";
  out_ << std::flush;
}

void Progress::finish_cells() {
  last_cell_s_ = seconds_since(cell_start_);
  measuring_s_ += last_cell_s_;
  finished_ += in_flight_;
  in_flight_ = 0;
  if (style_ != Style::log) return;
  out_ << "[" << started_ << "/" << total_ << "] " << cell_ << "  "
       << describe_duration(last_cell_s_) << "  (" << times() << ")\n"
       << std::flush;
}

void Progress::note(const std::string& what) {
  if (style_ == Style::terminal) out_ << kRewrite << what << std::flush;
  if (style_ == Style::log) out_ << what << "\n" << std::flush;
}

void Progress::clear() {
  if (style_ == Style::terminal) out_ << kRewrite << std::flush;
}

}  // namespace plugbench
