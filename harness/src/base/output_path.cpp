// output_path.cpp: output paths checked, and their folders made, before the work.
#include "base/output_path.hpp"

#include "base/atomic_file.hpp"
#include "base/safe_text.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace plugbench {
namespace {

namespace fs = std::filesystem;

std::string in_quotes(const fs::path& path) {
  return "'" + printable_text(path.string()) + "'";
}

// The nearest of `folder` and the folders above it that exists (empty: none does, as for a
// relative path whose first folder is missing).
fs::path nearest_existing(fs::path folder) {
  std::error_code error;
  while (!folder.empty() && !fs::exists(folder, error)) {
    const fs::path parent = folder.parent_path();
    if (parent == folder) break;
    folder = parent;
  }
  return folder;
}

// Makes `folder` and its parents; "" or the problem, for `option` naming `path`.
std::string make_folder(const fs::path& folder, const std::string& option,
                        const std::string& path) {
  if (folder.empty()) return "";  // the current folder
  const std::string said = option + " " + in_quotes(path);
  const fs::path existing = nearest_existing(folder);
  std::error_code error;
  if (!existing.empty() && !fs::is_directory(existing, error)) {
    return said + ": " + in_quotes(existing) +
           " is a file, not a folder; name a path in a folder (or a folder to be made)";
  }
  fs::create_directories(folder, error);
  if (error) {
    return said + ": cannot make the folder " + in_quotes(folder) + " (" + error.message() +
           "); name a path in a folder you can write to";
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return said + ": cannot write in the folder " + in_quotes(folder) + " (" +
           std::strerror(errno) + "); name a path in a folder you can write to";
  }
  return "";
}

}  // namespace

std::string prepare_output_file(const std::string& path, const std::string& option) {
  const fs::path target(path);
  if (path.empty() || !target.has_filename() || target.filename() == "." ||
      target.filename() == "..") {
    return option + " " + in_quotes(path) + " names a folder, not a file; name the file, e.g. " +
           in_quotes(target / "results.json");
  }
  // What is there now: a regular file is replaced, anything else refused.
  if (std::string problem = results_path_problem(path, option); !problem.empty()) return problem;
  return make_folder(target.parent_path(), option, path);
}

std::string prepare_output_folder(const std::string& folder, const std::string& option) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error)) {
    return option + " " + in_quotes(folder) +
           " is a file, not a folder; name a folder (it is made where missing)";
  }
  return make_folder(fs::path(folder), option, folder);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat first {
  }, second{};
  if (::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0) {
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  }
  std::error_code error;
  const std::filesystem::path normal_a = std::filesystem::absolute(a, error).lexically_normal();
  if (error) return false;
  const std::filesystem::path normal_b = std::filesystem::absolute(b, error).lexically_normal();
  return !error && normal_a == normal_b;
}

}  // namespace plugbench
