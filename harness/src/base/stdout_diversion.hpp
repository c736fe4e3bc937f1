// stdout_diversion.hpp: while one is alive, file descriptor 1 (stdout) is another descriptor, so
// that what a plugin prints from inside the harness's own process (--isolation none, loading a
// library, --check-plugin's load) stays out of the tables on stdout. Worker processes need none:
// their stdout and stderr are a pipe the harness reads (worker_pool.hpp).
#pragma once

namespace plugbench {

class StdoutDiversion {
 public:
  // Stdout to stderr: the plugin's words stay visible, apart from the tables.
  static StdoutDiversion to_stderr();
  // Stdout and stderr to /dev/null: for output already captured elsewhere (a library's load that
  // a screening child has just done and reported).
  static StdoutDiversion to_null();
  ~StdoutDiversion();
  StdoutDiversion(StdoutDiversion&& other) noexcept;
  StdoutDiversion(const StdoutDiversion&) = delete;
  StdoutDiversion& operator=(const StdoutDiversion&) = delete;
  StdoutDiversion& operator=(StdoutDiversion&&) = delete;

 private:
  StdoutDiversion(int target_fd, bool stderr_too);
  // The real descriptors, restored at the end; -1 for one not diverted.
  int saved_out_ = -1;
  int saved_err_ = -1;
};

}  // namespace plugbench
