// cell_result.hpp: what one cell of the matrix produced (one plugin variant on one problem).
#pragma once

#include "base/captured_output.hpp"
#include "base/enum_names.hpp"
#include "base/memory_space.hpp"
#include "load/execution_context.hpp"
#include "measure/gpu_telemetry.hpp"
#include "measure/machine_load.hpp"
#include "measure/measurement.hpp"
#include "measure/problem_scaling.hpp"
#include "workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// What became of a cell; its text in a results file is its name in kCellStatusNames.
enum class CellStatus {
  ok,           // ran and verified
  failed,       // ran, but the answer is wrong
  unavailable,  // the plugin cannot run here
  unsupported,  // the kernel refuses this problem
  error,        // the plugin reported an error
  oom,          // the problem does not fit in memory
  crashed,      // the worker process died in the cell
  timeout,      // no result within --timeout seconds
  // Not run: the plugin's worker crashed or timed out more often than --max-restarts allows.
  skipped,
};

inline constexpr EnumName<CellStatus> kCellStatusNames[] = {
    {CellStatus::ok, "ok"},
    {CellStatus::failed, "failed"},
    {CellStatus::unavailable, "unavailable"},
    {CellStatus::unsupported, "unsupported"},
    {CellStatus::error, "error"},
    {CellStatus::oom, "oom"},
    {CellStatus::crashed, "crashed"},
    {CellStatus::timeout, "timeout"},
    {CellStatus::skipped, "skipped"}};

inline const char* to_string(CellStatus cell_status) {
  return name_in(kCellStatusNames, cell_status);
}

// Statuses where the plugin itself went wrong (error, oom, crashed, timeout), as against a wrong
// answer (failed) or a cell that cannot run here (unavailable, unsupported) or was not run
// (skipped).
inline bool is_error_status(CellStatus cell_status) {
  return cell_status == CellStatus::error || cell_status == CellStatus::oom ||
         cell_status == CellStatus::crashed || cell_status == CellStatus::timeout;
}

// A cell's status as a results file (or the history) holds it. Not a bare CellStatus: a file may
// hold a status this build's table lacks (another harness's, a hand edit), and the tables print
// it, the history stores it and compare shows it as written, so such a text is kept (`unknown`,
// with `known` none) rather than lost or refused. A status the harness decides is always known.
// Default: no status, the text "" (a side or history row not yet read).
struct StatusText {
  StatusText() = default;
  StatusText(CellStatus cell_status) : known(cell_status) {}  // NOLINT: implicit, a status is one

  std::optional<CellStatus> known;
  std::string unknown;  // the file's text, where kCellStatusNames lacks it

  bool operator==(const StatusText&) const = default;
  bool operator==(CellStatus cell_status) const { return known == cell_status; }
};

// `text` as a status: the table's value, or the text kept as read.
inline StatusText status_read(const std::string& text) {
  StatusText read;
  read.known = value_named(kCellStatusNames, text);
  if (!read.known) read.unknown = text;
  return read;
}

// The text a results file holds for `cell_status`: its name, or the text it was read as.
inline std::string to_string(const StatusText& cell_status) {
  return cell_status.known ? to_string(*cell_status.known) : cell_status.unknown;
}

// A status the table lacks is no error of a plugin's: it counts as none of the statuses above.
inline bool is_error_status(const StatusText& cell_status) {
  return cell_status.known && is_error_status(*cell_status.known);
}

// Copy-in, kernel and copy-out timed in one sample, with one kind of host memory.
struct TransferResult {
  std::string host_memory;  // "pageable" or "pinned"
  TimeStats copy_in;
  TimeStats copy_out;
  TimeStats end_to_end;
};

// Where a cell's samples started (docs/measurement.md): held behind a blocking kernel until the
// work was enqueued, or not held, for one of these reasons.
enum class SampleStart {
  held,
  host_plugin,         // a host plugin: its team is woken before the clock starts
  no_sample_timer,     // the plugin has no ABI 1.1 timer
  flagged_host_waits,  // the kernel is flagged PB_KERNEL_SYNCHRONIZES_HOST
  host_waited,         // found on a sample: the host waited for the device while enqueuing
};

// The text a results file's sampling "start" holds for each: the file's one record of it, read
// back through the same table.
inline constexpr EnumName<SampleStart> kSampleStartTexts[] = {
    {SampleStart::held, "held"},
    {SampleStart::host_plugin, "not held: host plugin (its team is woken before the clock starts)"},
    {SampleStart::no_sample_timer,
     "not held: the plugin has no ABI 1.1 timer (timer_begin / timer_end)"},
    {SampleStart::flagged_host_waits, "not held: the kernel is flagged synchronizes_host"},
    {SampleStart::host_waited,
     "not held: the host waited for the device while enqueuing the kernel (a call that "
     "synchronizes, unflagged, or more launches than the device's queue holds)"}};

// How a cell's kernel samples were taken (docs/measurement.md), and the clock they ran at.
struct SamplingRecord {
  // Where each sample's start was placed. Empty for a file's text that the table does not hold
  // (an older harness's wording): that text is kept in unnamed_start, and written back as read.
  std::optional<SampleStart> start;
  std::string unnamed_start;
  int clock_samples = 0;  // kept samples whose SM clock was measured
  std::optional<double> clock_mean_mhz;
  std::optional<double> clock_min_mhz;
  std::optional<double> clock_window_min_ms;  // the shortest window a clock was measured over
  double default_clock_mhz = 0;               // the device's default (maximum) SM clock
  double throttle_threshold = 0;              // fraction of the default clock; 0: not checked
  int dropped_throttled = 0;                  // samples retaken because the clock was below it
  int kept_throttled = 0;                     // samples below it kept by the guard
};

// The text of `record.start` as a results file holds it.
inline std::string start_text(const SamplingRecord& record) {
  return record.start ? name_in(kSampleStartTexts, *record.start) : record.unnamed_start;
}

// What a cell of a distributed workload adds (docs/mpi.md): the time split of each sample, the
// exchange's bytes and rate, how device buffers reached MPI, and the scaling against one rank.
// The sample's total is the cell's kernel time.
struct DistributedRecord {
  int ranks = 1;
  // Empty for a file's name that kScalingNames lacks (read leniently, written as "").
  std::optional<Scaling> scaling;
  std::uint64_t n_total = 0;  // elements of the whole problem
  std::uint64_t n_local = 0;  // this rank's slice of it
  // "direct" (device buffers to MPI), "staged" (through pinned host memory) or "host" (the
  // plugin's buffers are host memory), and why.
  std::string staging;
  std::string staging_reason;
  TimeStats local;                           // the plugin's kernels (their own timer)
  TimeStats exchange;                        // MPI and any staging copies
  std::uint64_t bytes_sent = 0;              // per sample, from this rank to the others
  std::optional<double> exchange_gbps;       // bytes_sent over the median exchange time
  std::vector<std::uint64_t> keys_per_rank;  // dist_sort: each rank's keys after the exchange
  std::optional<double> one_rank_ms;         // median total of the one-rank problem (rank 0 ran it)
  std::optional<double> efficiency;          // weak t1/tK, strong t1/(K tK); tK the slowest rank's
};

// How a cell's kernel samples sat in its problem's interleaved rounds (docs/measurement.md): for
// each sample, in the order of the kernel's samples_ms, the round it was taken in and its place in
// that round's random order; for a host cell, that round's pass of the reference loop it is held
// to.
struct SampleRounds {
  std::vector<int> round;
  std::vector<int> position;
  std::string reference_pattern;     // "read" or "copy"; empty: no reference loop ran beside it
  std::string reference_loop;        // the loop: the pattern's, the same in every run
  double reference_bytes_moved = 0;  // per pass
  std::vector<double> reference_ms;  // one per sample, or empty
  // Measured after the problem's other cells, in rounds of its own: opened beside them, it ran out
  // of memory (they hold their buffers until they finish). No round pairs it with them.
  bool apart = false;
};

// A ratio taken in each round (this round's sample of one thing over this round's of another)
// and summarised: the median of the per-round ratios and a distribution-free interval for it from
// their order statistics (paired_ratios.hpp).
struct PairedFigure {
  double median = 0;
  double low = 0;
  double high = 0;
  double confidence = 0;  // the interval's coverage: 0.95 or more, less only for fewer than 6 pairs
  int pairs = 0;
};

// A cell above this multiple of its memory space's measured peak bandwidth, with the caches
// flushed before every sample, is flagged suspect: its data had to come from memory.
inline constexpr double kSuspectPeakFactor = 1.5;

struct CellResult {
  std::string workload;
  std::string plugin;
  std::string variant;
  std::string distribution;
  std::string size_text;
  Shape shape;
  StatusText status = CellStatus::ok;
  std::string message;
  std::uint32_t flags = 0;
  std::optional<MemorySpace> memory_space;  // none: a file's text that kMemorySpaceNames lacks
  std::uint64_t workspace_bytes = 0;

  std::optional<TimeStats> kernel;
  std::optional<TimeStats> end_to_end;  // kernel plus transfers (the first host-memory kind)
  std::vector<TransferResult> transfers;
  std::optional<Traffic> traffic;
  std::optional<Verification> verification;
  std::optional<SamplingRecord> sampling;
  std::optional<ExecutionContext> team;   // host plugins that report their team
  std::string peak_pattern;               // the peak percent_of_peak is against: "read" or "copy"
  std::optional<GpuTelemetry> telemetry;  // NVML over the kernel's samples (GPU plugins)

  std::optional<double> gbps;             // traffic bytes / median kernel time
  std::optional<double> percent_of_peak;  // gbps against the calibrated peak of the memory space
  std::optional<double> work_rate;        // work items per second (Mandelbrot: iterations/s)
  std::optional<double> speedup;          // baseline median kernel time / this one
  std::optional<double> speedup_end_to_end;
  std::string baseline;  // "plugin/variant" the speedups refer to
  // Read from a results file, not written per cell: the checksum of the baseline plugin's library
  // in the cell's run (the file's plugin records; "" where it has none). compare takes the ratio
  // over the baseline where it is one library on both sides (compare_cells.cpp).
  std::string baseline_library;
  int rank = -1;  // the MPI rank that measured it; -1 in a run of one rank
  // Why the cell's rate is not believable (faster than its memory's measured peak by more than
  // kSuspectPeakFactor, caches flushed); empty when it is. A flag, not a status: it did verify.
  std::string suspect;
  std::optional<PluginOutput> output;  // none when the plugin wrote nothing (or ran in-process)
  std::optional<DistributedRecord> distributed;
  // What other processes took of the machine while the cell ran (none where /proc cannot say).
  std::optional<MachineLoad> machine_load;
  // Measured in interleaved rounds: where each sample sat (none for --order sequential).
  std::optional<SampleRounds> rounds;
  // The baseline's sample over this cell's, round by round.
  std::optional<PairedFigure> paired_speedup;
  // A host cell's rate over the same round's pass of its reference loop, in %.
  std::optional<PairedFigure> paired_percent_of_peak;

  bool counts_as_error() const { return is_error_status(status); }
};

}  // namespace plugbench
