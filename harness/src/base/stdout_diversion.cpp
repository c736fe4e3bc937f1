// stdout_diversion.cpp: swapping descriptors 1 (and 2), with stdio flushed on both sides of the
// swap (the harness's own buffered text belongs before it, the plugin's buffered text inside it).
#include "base/stdout_diversion.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace plugbench {
namespace {

void flush_all() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
}

// A copy of `fd` that `target_fd` then replaces; -1 (and `fd` left alone) when either step fails.
int divert(int fd, int target_fd) {
  const int saved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  if (saved >= 0 && ::dup2(target_fd, fd) < 0) {
    ::close(saved);
    return -1;
  }
  return saved;
}

void restore(int fd, int saved) {
  if (saved < 0) return;
  ::dup2(saved, fd);
  ::close(saved);
}

}  // namespace

StdoutDiversion::StdoutDiversion(int target_fd, bool stderr_too) {
  if (target_fd < 0) return;  // nothing to divert to: the descriptors stay as they are
  flush_all();
  saved_out_ = divert(STDOUT_FILENO, target_fd);
  if (stderr_too) saved_err_ = divert(STDERR_FILENO, target_fd);
}

StdoutDiversion::StdoutDiversion(StdoutDiversion&& other) noexcept
    : saved_out_(other.saved_out_), saved_err_(other.saved_err_) {
  other.saved_out_ = other.saved_err_ = -1;
}

StdoutDiversion StdoutDiversion::to_stderr() {
  return StdoutDiversion(STDERR_FILENO, false);
}

StdoutDiversion StdoutDiversion::to_null() {
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  StdoutDiversion diversion(null_fd, true);
  if (null_fd >= 0) ::close(null_fd);
  return diversion;
}

StdoutDiversion::~StdoutDiversion() {
  if (saved_out_ < 0 && saved_err_ < 0) return;
  flush_all();
  restore(STDOUT_FILENO, saved_out_);
  restore(STDERR_FILENO, saved_err_);
}

}  // namespace plugbench
