// test_support.cpp: subprocess and file helpers for the harness tests.
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace plugbench::testing {

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(read_text(path));
}

TempFolder::TempFolder() {
  char pattern[] = "/tmp/plugbench_test_XXXXXX";
  if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempFolder::~TempFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

ScopedEnv::ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  if (value) {
    ::setenv(name, value->c_str(), 1);
  } else {
    ::unsetenv(name);
  }
}

ScopedEnv::~ScopedEnv() {
  if (old_) {
    ::setenv(name_, old_->c_str(), 1);
  } else {
    ::unsetenv(name_);
  }
}

CommandResult run_harness(const std::vector<std::string>& arguments,
                          const std::string& shell_prefix) {
  TempFolder folder;
  std::string command = shell_prefix + "'" + std::string(PLUGBENCH_HARNESS_PATH) + "'";
  for (const std::string& argument : arguments) command += " '" + argument + "'";
  command += " >'" + folder.file("out") + "' 2>'" + folder.file("err") + "'";
  int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(folder.file("out"));
  result.err = read_text(folder.file("err"));
  return result;
}

int start_harness(const std::vector<std::string>& arguments, const std::string& output_file) {
  std::vector<std::string> argv_strings = {PLUGBENCH_HARNESS_PATH};
  argv_strings.insert(argv_strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : argv_strings) argv.push_back(argument.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int output = open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(output, STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

bool still_running(int pid) {
  siginfo_t ended{};  // an ended child is left for wait_for_exit to reap
  return ::waitid(P_PID, static_cast<id_t>(pid), &ended, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         ended.si_pid != pid;
}

bool wait_for_text(const std::string& path, const std::string& text, int pid) {
  while (!contains(read_text(path), text)) {
    if (!still_running(pid)) return contains(read_text(path), text);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

int wait_for_exit(int pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string plugin_dir() {
  return PLUGBENCH_PLUGIN_DIR;
}
std::string fake_plugin_dir(const std::string& name) {
  return std::string(PLUGBENCH_FAKE_PLUGIN_ROOT) + "/" + name;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  std::vector<std::string> header = csv_fields(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> fields = csv_fields(lines[i]);
    EXPECT_EQ(fields.size(), header.size()) << lines[i];
    std::map<std::string, std::string> row;
    for (std::size_t f = 0; f < header.size() && f < fields.size(); ++f) row[header[f]] = fields[f];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace plugbench::testing
