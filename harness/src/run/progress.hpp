// progress.hpp: what a run says on stderr while it runs: which cell is in flight, the time since
// the start, an estimate of the time left from the cells finished so far, and each finished cell's
// time. On a terminal one line rewritten in place; anywhere else (a log, a pipe) a plain line per
// finished cell, with no escape sequences.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace plugbench {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  enum class Style { off, terminal, log };

  // `total`: the cells the run will measure. The clock is injectable for tests.
  Progress(std::ostream& out, Style style, std::size_t total,
           Clock clock = std::chrono::steady_clock::now);

  // The style for stderr: off when `quiet`, terminal when stderr is a terminal, else log.
  static Style style_for_stderr(bool quiet);

  // A cell starts (`what`: the problem and plugin/variant).
  void start_cell(const std::string& what) { start_cells(what, 1); }
  // The cell started last has finished.
  void finish_cell() { finish_cells(); }
  // `count` cells start together (a problem's interleaved rounds), and finish together.
  void start_cells(const std::string& what, std::size_t count);
  void finish_cells();
  // Where the cells in flight are (a round): on a terminal only, a log gets the finished line.
  void update(const std::string& what);
  // A step that is not a cell (the calibration): shown on a terminal, a line in a log.
  void note(const std::string& what);
  // Clears the terminal's line, before a table is printed.
  void clear();

 private:
  double seconds_since(std::chrono::steady_clock::time_point then) const;
  std::string times() const;  // "0:42 elapsed, about 1:10 left"

  std::ostream& out_;
  Style style_;
  std::size_t total_;
  Clock clock_;
  std::chrono::steady_clock::time_point run_start_;
  std::chrono::steady_clock::time_point cell_start_{};
  std::string cell_;
  std::size_t started_ = 0;
  std::size_t in_flight_ = 0;
  std::size_t finished_ = 0;
  double measuring_s_ = 0;  // the finished cells' time, for the estimate
  double last_cell_s_ = -1;
};

// "0.42 s", "12.3 s", "1:05", "1:02:03": a duration as a person reads it.
std::string describe_duration(double seconds);

}  // namespace plugbench
