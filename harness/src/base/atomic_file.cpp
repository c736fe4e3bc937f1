// atomic_file.cpp: files written so that they are either the old one or the complete new one.
#include "base/atomic_file.hpp"

#include "base/safe_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

namespace plugbench {

namespace {

// Opens a new file named `<path>.tmp.<random>` in the folder of `path`, as mkstemp does
// (O_CREAT|O_EXCL|O_NOFOLLOW: never a file or link that is already there, so another user who can
// write to the folder cannot point it elsewhere), with mode 0644 less the umask.
int open_fresh_temporary(const std::string& path, std::string& temporary) {
  std::random_device entropy;
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, ".tmp.%08x%08x", entropy(), entropy());
    temporary = path + suffix;
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

void create_parent_folder(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code error;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), error);
  if (error) {
    throw std::runtime_error("cannot create the folder of '" + path + "': " + error.message());
  }
}

std::string results_path_problem(const std::string& path, const std::string& option) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return "";  // a new file: the writer reports what fails
  if (S_ISREG(info.st_mode)) return "";
  const char* what = S_ISDIR(info.st_mode)    ? "a folder"
                     : S_ISCHR(info.st_mode)  ? "a character device"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                     : S_ISFIFO(info.st_mode) ? "a FIFO"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                                              : "not a regular file";
  // A history is an SQLite file written in place; the other outputs are renamed into place.
  return option + " '" + printable_text(path) + "' is " + what +
         (option == "--history"
              ? ": a history is one SQLite file; name a regular file"
              : ": the file is written beside it and renamed over it, which would replace it; "
                "name a regular file") +
         (option == "--json" ? " (or use --no-json)" : "");
}

void write_text_atomically(const std::string& text, const std::string& path) {
  write_pieces_atomically(path, [&](const TextSink& put) { put(text); });
}

void write_pieces_atomically(const std::string& path,
                             const std::function<void(const TextSink& put)>& produce) {
  create_parent_folder(path);
  std::string temporary;
  int fd = open_fresh_temporary(path, temporary);
  if (fd < 0) {
    throw std::runtime_error("cannot write '" + temporary + "': " + std::strerror(errno));
  }
  const auto write_all = [&](std::string_view text) {
    std::size_t written = 0;
    while (written < text.size()) {
      ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n < 0) {
        if (errno == EINTR) continue;
        const int error = errno;
        throw std::runtime_error("cannot write '" + temporary + "': " + std::strerror(error));
      }
      written += static_cast<std::size_t>(n);
    }
  };
  // Small pieces are gathered, so that an entry is not a system call.
  constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
  std::string buffer;
  const TextSink put = [&](std::string_view piece) {
    if (buffer.size() + piece.size() > kBufferBytes) {
      write_all(buffer);
      buffer.clear();
    }
    if (piece.size() >= kBufferBytes) {
      write_all(piece);
    } else {
      buffer.append(piece);
    }
  };
  try {
    produce(put);
    write_all(buffer);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw std::runtime_error("cannot flush '" + temporary + "': " + why);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw std::runtime_error("cannot rename '" + temporary + "' to '" + path + "': " + why);
  }
}

}  // namespace plugbench
