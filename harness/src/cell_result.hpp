// cell_result.hpp: what one cell of the matrix produced (one plugin variant on one problem).
#pragma once

#include "measurement.hpp"
#include "workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// Cell statuses as they appear in the JSON.
namespace status {
inline constexpr const char* ok = "ok";                    // ran and verified
inline constexpr const char* failed = "failed";            // ran, but the answer is wrong
inline constexpr const char* unavailable = "unavailable";  // the plugin cannot run here
inline constexpr const char* unsupported = "unsupported";  // the kernel refuses this problem
inline constexpr const char* error = "error";              // the plugin reported an error
inline constexpr const char* oom = "oom";                  // the problem does not fit in memory
inline constexpr const char* crashed = "crashed";          // the worker process died in the cell
inline constexpr const char* timeout = "timeout";          // no result within --timeout seconds
}  // namespace status

// Copy-in, kernel and copy-out timed in one sample, with one kind of host memory.
struct TransferResult {
  std::string host_memory;  // "pageable" or "pinned"
  TimeStats copy_in;
  TimeStats copy_out;
  TimeStats end_to_end;
};

struct CellResult {
  std::string workload;
  std::string plugin;
  std::string variant;
  std::string distribution;
  std::string size_text;
  Shape shape;
  std::string status = status::ok;
  std::string message;
  std::uint32_t flags = 0;
  std::string memory_space;  // "host" or "device"
  std::uint64_t workspace_bytes = 0;

  std::optional<TimeStats> kernel;
  std::optional<TimeStats> end_to_end;  // kernel plus transfers (the first host-memory kind)
  std::vector<TransferResult> transfers;
  std::optional<Traffic> traffic;
  std::optional<Verification> verification;

  std::optional<double> gbps;             // traffic bytes / median kernel time
  std::optional<double> percent_of_peak;  // gbps against the calibrated peak of the memory space
  std::optional<double> work_rate;        // work items per second (Mandelbrot: iterations/s)
  std::optional<double> speedup;          // baseline median kernel time / this one
  std::optional<double> speedup_end_to_end;
  std::string baseline;  // "plugin/variant" the speedups refer to

  bool counts_as_error() const {
    return status == status::error || status == status::oom || status == status::crashed ||
           status == status::timeout;
  }
};

}  // namespace plugbench
