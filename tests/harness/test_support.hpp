// test_support.hpp: running the harness executable from a test and reading what it wrote.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plugbench::testing {

// Whether the tests (and so the harness beside them) are built with AddressSanitizer.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// A shell prefix for run_harness: under AddressSanitizer a worker's segfault is caught by the
// sanitizer, which reports it and exits with code 1; tests about a plain SIGSEGV let the signal
// kill the process as it would in a plain build.
inline const std::string kPlainSegfaults =
    "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0\"; ";

// Runs the harness built beside the tests with `arguments` (each quoted for the shell), after
// `shell_prefix` (e.g. "ulimit -v 3000000; ") in the same shell.
CommandResult run_harness(const std::vector<std::string>& arguments,
                          const std::string& shell_prefix = "");

// Starts the harness in the background (stdout and stderr to `output_file`); returns its pid.
int start_harness(const std::vector<std::string>& arguments,
                  const std::string& output_file = "/dev/null");
// Whether a child started by start_harness has not ended yet (an ended one is not reaped).
bool still_running(int pid);
// Waits until the file at `path` holds `text` (a test that must act at a point of a run waits for
// what the run prints there, not for a fixed time). False if `pid` ended first.
bool wait_for_text(const std::string& path, const std::string& text, int pid);
// Waits for a process started by start_harness; returns its exit code, or 128 + the signal.
int wait_for_exit(int pid);

// A fresh temporary folder for one test; removed by the caller's TempFolder destructor.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Sets an environment variable (or unsets it: nullopt) for a scope, and restores what it was.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

nlohmann::json read_json(const std::string& path);
std::string read_text(const std::string& path);
// Writes `text` to `path` byte for byte.
void write_text(const std::string& path, const std::string& text);
// U+FFFD, the replacement character, in UTF-8.
inline const std::string kReplacement = "\xEF\xBF\xBD";
// The lines of `text`, without their line breaks.
std::vector<std::string> lines_of(const std::string& text);

// Whether `part` occurs in `text`.
bool contains(const std::string& text, const std::string& part);

// Splits one CSV line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line);
// CSV rows as maps from the header's names; a row without every field fails the calling test.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text);

// Folders the build made: the shipped plugins and the fake ones.
std::string plugin_dir();
std::string fake_plugin_dir(const std::string& name);

}  // namespace plugbench::testing
