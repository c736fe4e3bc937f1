// test_support.cpp: subprocess and file helpers for the harness tests.
#include "test_support.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace plugbench::testing {

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
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

CommandResult run_harness(const std::vector<std::string>& arguments) {
  TempFolder folder;
  std::string command = "'" + std::string(PLUGBENCH_HARNESS_PATH) + "'";
  for (const std::string& argument : arguments) command += " '" + argument + "'";
  command += " >'" + folder.file("out") + "' 2>'" + folder.file("err") + "'";
  int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(folder.file("out"));
  result.err = read_text(folder.file("err"));
  return result;
}

std::string plugin_dir() {
  return PLUGBENCH_PLUGIN_DIR;
}
std::string fake_plugin_dir(const std::string& name) {
  return std::string(PLUGBENCH_FAKE_PLUGIN_ROOT) + "/" + name;
}

}  // namespace plugbench::testing
