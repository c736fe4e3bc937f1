// worker_process.hpp: the hidden worker mode of the harness (`harness --worker`). The harness runs
// each plugin's cells in a worker of its own, so that a plugin that crashes, hangs or poisons its
// process (a sticky CUDA error) takes only its own cell with it. See docs/fault-isolation.md.
//
// The protocol: newline-delimited JSON over a socket the worker finds at file descriptor
// kWorkerChannelFd, one request at a time, each answered by one reply:
//   {"type":"open","path":P,"found_in":F,"name":N,"device":D,"calibrate":B}
//       -> {"type":"opened","facts":SessionFacts} or {"type":"open_failed","message":M}
//   {"type":"cell","request":CellRequest} -> {"type":"cell","cell":CellResult}
//   {"type":"open_cell","cell":K,"request":CellRequest[,"resume":{"samples_ms":[..],"repetitions":R}]}
//       -> {"type":"cell_opened","samples_wanted":N}, or {"type":"cell",...} when it is decided
//   {"type":"sample","cell":K} -> {"type":"sample","ms":T,"samples_wanted":N}, or
//   {"type":"cell",...}
//       when a call ended the cell
//   {"type":"finish_cell","cell":K} -> {"type":"cell","cell":CellResult}
//   {"type":"release"} (no reply): free the cached problem and the cells open on it, the harness
//       has moved on
// The worker exits 0 at the end of its input.
#pragma once

#include <string>

namespace plugbench {

inline constexpr const char* kWorkerFlag = "--worker";
inline constexpr int kWorkerChannelFd = 3;
// Exit codes of a worker that ends on its own.
inline constexpr int kWorkerExitOutOfMemory = 86;  // std::bad_alloc outside a cell
inline constexpr int kWorkerExitInternal = 87;     // a malformed request, or another failure

// `harness --worker PARENT_PID`: serves requests until the harness closes the channel.
int run_worker(const char* parent_pid);

// Reads lines from a file descriptor (blocking).
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  // False at the end of input.
  bool next(std::string& line);

 private:
  int fd_;
  std::string buffer_;
};

// Writes all of `text`; false when the other end is gone.
bool write_all(int fd, const std::string& text);

}  // namespace plugbench
