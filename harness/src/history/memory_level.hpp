// memory_level.hpp: a run's calibrated host memory peaks against the same machine's other runs in
// the results history. On a shared VM neighbours take memory bandwidth while /proc/stat shows its
// CPUs quiet, and no figure within one run tells it (docs/measurement.md, "A busy machine"); the
// run's level against the machine's other runs does.
#pragma once

#include "history/history_database.hpp"
#include "results/run_context.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace plugbench {

// Fewer other runs give no verdict: the median of two is no more than either of them, and one
// disturbed run among them would be the usual.
inline constexpr std::size_t kMemoryLevelMinRuns = 3;

// A peak more than this fraction below the median of the machine's other runs is slower than
// usual. On the H100's host (16 vCPUs) the quiet runs calibrated read peaks of 162.7-169.2 GB/s,
// within 3 % of their median; the runs whose memory neighbours shared 118.3-138.5, 17-30 %
// below that median. A milder sharing is missed: a shared run's copy peak of 143.8 sat 12 % below
// a median of 163.5.
inline constexpr double kSlowerMemoryFraction = 0.15;

// One host peak of a run against the same peak of its machine's other runs.
struct MemoryLevel {
  std::string pattern;     // "read" or "copy"
  double gbps = 0;         // this run's peak
  std::size_t runs = 0;    // the machine's other runs with this peak, calibrated alike
  double median_gbps = 0;  // theirs, where runs > 0
  double lowest_gbps = 0;
  double highest_gbps = 0;

  bool judged() const { return runs >= kMemoryLevelMinRuns; }
  double ratio() const { return median_gbps > 0 ? gbps / median_gbps : 0; }
  bool slower() const { return judged() && gbps < (1 - kSlowerMemoryFraction) * median_gbps; }
};

// The host peaks of every run in a history, read once. Only host memory is judged: a GPU's memory
// is the VM's own, not shared with neighbours the way the host's memory channels are.
class MemoryLevels {
 public:
  // Throws HistoryError.
  explicit MemoryLevels(HistoryDatabase& history);

  // A run's host peaks (read first, then copy) against the same machine's runs in the history
  // (host, CPU and GPUs), each counted once, less those whose identity (run_identity) is in
  // `left_out`: the run itself, which must not be its own baseline, and any file compared with it.
  // Runs of several MPI ranks are neither judged nor counted: their ranks calibrate at once, and
  // ranks that share a host share its memory.
  std::vector<MemoryLevel> of(const RunContext& run, const std::set<std::string>& left_out) const;
  // A run of the history against all of its machine's other runs, earlier or later.
  std::vector<MemoryLevel> of_stored(std::int64_t run_id) const;

 private:
  struct Peak {
    std::int64_t run_id = 0;
    std::string machine;   // machine_label
    std::string identity;  // run_identity
    std::string pattern;
    std::string calibrated;  // calibrated_as(measured_by)
    double gbps = 0;
  };
  // The peaks one machine calibrated alike for one pattern, one a run: a run is left out by
  // skipping its place in the sorted rates, so that `history list` over many runs stays linear.
  struct Group {
    std::map<std::string, double> by_identity;
    std::vector<double> sorted;  // the same rates, ascending
  };
  using GroupKey = std::tuple<std::string, std::string, std::string>;  // machine, pattern, how
  static void set_usual(MemoryLevel& level, const Group& group,
                        const std::set<std::string>& left_out);
  std::vector<MemoryLevel> levels(const std::string& machine, std::vector<Peak> own,
                                  const std::set<std::string>& left_out) const;
  std::map<GroupKey, Group> groups_;
  std::map<std::int64_t, std::vector<Peak>> by_run_;
};

// What a run's host memory was, one line ("" where the run has no host peak):
// "host memory: read 122.3 GB/s, 27 % below this machine's usual 168.1 (median of 6 other runs in
// the history, 162.7-176.3): neighbours may have shared it; ..." (docs/history.md).
std::string memory_level_line(const std::vector<MemoryLevel>& levels);

// Each side of a comparison against its machine's other runs in the history, the two compared runs
// left out of them as they are of each cell's earlier runs: "base: host memory: ...", "new: ...";
// a side without host peaks has no line.
std::vector<std::string> compared_memory_lines(const MemoryLevels& levels, const RunContext& base,
                                               const RunContext& current);

// A peak over the machine's usual (the median), for a table: "0.73 SLOWER", "1.02", or "" where it
// was not judged. A ratio, not a signed percentage: CSV would quote a leading sign.
std::string memory_level_mark(const MemoryLevel& level);

}  // namespace plugbench
