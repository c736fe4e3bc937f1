// plugbench/cuda/device_probe.cuh: counts CUDA devices in a short-lived child process, so that the
// process that probes plugins (the harness, which may start worker processes later) never
// initializes CUDA: a process that forks after CUDA is initialized hands its children a broken CUDA
// state.
#pragma once

#include <cuda_runtime.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#pragma GCC visibility push(hidden)

namespace plugbench::cuda {

struct DeviceCount {
  bool answered = false;  // the child reported; otherwise `error` says what went wrong
  cudaError_t status = cudaSuccess;
  int count = 0;
  std::string error;
};

// Runs cudaGetDeviceCount in a child and reads "status count name: text" back through a pipe.
// A child that hangs (a wedged driver) is killed after `timeout_ms`.
inline DeviceCount count_devices_in_child(int timeout_ms = 20000) {
  DeviceCount result;
  int fds[2];
  if (pipe(fds) != 0) {
    result.error = std::string("pipe failed: ") + std::strerror(errno);
    return result;
  }
  pid_t child = fork();
  if (child < 0) {
    result.error = std::string("fork failed: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  if (child == 0) {
    close(fds[0]);
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    char message[512];
    int length = std::snprintf(message, sizeof message, "%d %d %s: %s", static_cast<int>(status),
                               count, cudaGetErrorName(status), cudaGetErrorString(status));
    if (length > 0 && write(fds[1], message, static_cast<size_t>(length)) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  pollfd readable{fds[0], POLLIN, 0};
  while (true) {
    int ready = poll(&readable, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      kill(child, SIGKILL);
      result.error = "the CUDA device query did not answer within " +
                     std::to_string(timeout_ms / 1000) + " s (a wedged driver?)";
      break;
    }
    char buffer[256];
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (!result.error.empty()) return result;
  if (WIFSIGNALED(wait_status)) {
    result.error =
        "the CUDA device query died with signal " + std::to_string(WTERMSIG(wait_status));
    return result;
  }
  int status = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%d %d %n", &status, &result.count, &consumed) < 2) {
    result.error = "the CUDA device query gave no answer";
    return result;
  }
  result.answered = true;
  result.status = static_cast<cudaError_t>(status);
  result.error = text.substr(static_cast<size_t>(consumed));
  return result;
}

}  // namespace plugbench::cuda

#pragma GCC visibility pop
