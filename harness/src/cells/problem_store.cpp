// problem_store.cpp: problem files (native byte order: one machine, one build), sealed in memory
// files for a run.
#include "cells/problem_store.hpp"

#include "byte_stream.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace plugbench {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t kMagic = 0x3142505242504250ull;  // "PBPRBPB1"
constexpr const char* kFolderPrefix = "plugbench-problems-";

// The folder that holds run folders: /dev/shm (memory, like the problems themselves) when it is
// there, writable and roomy (a container's is often 64 MiB), else the temporary folder.
fs::path store_root() {
  constexpr unsigned long long kRoomy = 4ull << 30;
  struct statvfs space {};
  if (::access("/dev/shm", W_OK | X_OK) == 0 && ::statvfs("/dev/shm", &space) == 0 &&
      static_cast<unsigned long long>(space.f_bavail) * space.f_frsize >= kRoomy) {
    return "/dev/shm";
  }
  std::error_code error;
  fs::path temporary = fs::temp_directory_path(error);
  return error ? fs::path("/tmp") : temporary;
}

}  // namespace

std::string problem_file_name(const std::string& workload, const std::string& distribution,
                              const Shape& shape) {
  return workload + "-" + distribution + "-" + std::to_string(shape.n) + "-" +
         std::to_string(shape.width) + "x" + std::to_string(shape.height) + ".problem";
}

namespace {

// The file's form, for store_problem and seal_problem alike.
bool write_problem(std::ostream& out, const Workload& workload, const ProblemData& problem,
                   const Reference& reference) {
  write_value(out, kMagic);
  write_string(out, problem.workload);
  write_string(out, problem.distribution);
  write_value(out, problem.shape);
  pb_problem params = problem.params;
  params.workload = nullptr;  // a pointer into this process; the runner sets it
  write_value(out, params);
  write_value(out, std::uint64_t{problem.inputs.size()});
  for (const HostArray& input : problem.inputs) {
    write_string(out, input.name());
    write_value(out, input.type());
    write_value(out, input.count());
    write_bytes(out, input.data(), input.size_bytes());
  }
  write_value(out, std::uint64_t{problem.outputs.size()});
  for (const OutputSpec& output : problem.outputs) {
    write_string(out, output.name);
    write_value(out, output.type);
    write_value(out, output.count);
  }
  workload.write_reference(reference, out);
  write_value(out, kMagic);  // the end: a file cut short is never taken for a whole one
  out.flush();
  return static_cast<bool>(out);
}

constexpr int kAllSeals = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL;

}  // namespace

bool store_problem(const std::string& path, const Workload& workload, const ProblemData& problem,
                   const Reference& reference) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    if (!write_problem(out, workload, problem, reference)) {
      out.close();
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) fs::remove(temporary, error);
  return !error;
}

int seal_problem(const std::string& name, const Workload& workload, const ProblemData& problem,
                 const Reference& reference) {
  const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  bool written = false;
  {
    std::ofstream out(path_of_descriptor(fd), std::ios::binary);
    written = out && write_problem(out, workload, problem, reference);
  }
  if (!written || ::fcntl(fd, F_ADD_SEALS, kAllSeals) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool is_sealed(int fd) {
  const int seals = ::fcntl(fd, F_GET_SEALS);
  return seals >= 0 && (seals & kAllSeals) == kAllSeals;
}

std::string path_of_descriptor(int fd) {
  return "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd);
}

bool SealedProblems::generate(const std::string& name, const Workload& workload,
                              const std::string& distribution, const Shape& shape) {
  if (descriptors_.count(name)) return true;
  if (refused_.count(name)) return false;
  int fd = -1;
  try {
    const ProblemData problem = workload.generate(shape, distribution);
    fd = seal_problem(name, workload, problem, *workload.reference(problem));
  } catch (const std::exception&) {
    // Out of memory, or a distribution the workload lacks: the worker meets the same and says so
    // in the cell.
  }
  if (fd < 0) {
    refused_.insert(name);
    return false;
  }
  descriptors_[name] = fd;
  return true;
}

std::string SealedProblems::path(const std::string& name) const {
  auto found = descriptors_.find(name);
  return found == descriptors_.end() ? std::string() : path_of_descriptor(found->second);
}

void SealedProblems::clear() {
  for (auto& [name, fd] : descriptors_) ::close(fd);
  descriptors_.clear();
  refused_.clear();
}

bool load_problem(const std::string& path, const Workload& workload,
                  const std::string& distribution, const Shape& shape, ProblemData& problem,
                  std::shared_ptr<const Reference>& reference) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  try {
    if (read_value<std::uint64_t>(in) != kMagic) return false;
    ProblemData loaded;
    loaded.workload = read_string(in);
    loaded.distribution = read_string(in);
    loaded.shape = read_value<Shape>(in);
    if (loaded.workload != workload.name() || loaded.distribution != distribution ||
        !(loaded.shape == shape)) {
      return false;
    }
    loaded.params = read_value<pb_problem>(in);
    const auto inputs = read_value<std::uint64_t>(in);
    for (std::uint64_t i = 0; i < inputs; ++i) {
      std::string name = read_string(in);
      const auto type = read_value<ElementType>(in);
      const auto count = read_value<std::uint64_t>(in);
      HostArray input(std::move(name), type, count);
      read_bytes(in, input.data(), input.size_bytes());
      loaded.inputs.push_back(std::move(input));
    }
    const auto outputs = read_value<std::uint64_t>(in);
    for (std::uint64_t i = 0; i < outputs; ++i) {
      OutputSpec output;
      output.name = read_string(in);
      output.type = read_value<ElementType>(in);
      output.count = read_value<std::uint64_t>(in);
      loaded.outputs.push_back(std::move(output));
    }
    std::shared_ptr<const Reference> loaded_reference = workload.read_reference(in);
    if (read_value<std::uint64_t>(in) != kMagic) return false;
    problem = std::move(loaded);
    reference = std::move(loaded_reference);
    return true;
  } catch (const std::runtime_error&) {
    return false;  // cut short or not ours: generate instead
  }
}

void remove_abandoned_problem_stores() {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(store_root(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kFolderPrefix, 0) != 0) continue;
    struct stat info {};
    if (::lstat(entry.path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        info.st_uid != ::getuid()) {
      continue;
    }
    const long pid =
        std::strtol(name.c_str() + std::char_traits<char>::length(kFolderPrefix), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

}  // namespace plugbench
