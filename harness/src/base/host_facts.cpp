// host_facts.cpp: reads /proc and uname for the results' context.
#include "base/host_facts.hpp"

#include "base/checked_number.hpp"
#include "base/cpu_frequency.hpp"
#include "base/cpu_masks.hpp"
#include "base/safe_text.hpp"

#include <omp.h>
#include <pthread.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

namespace plugbench {
namespace {

// The value after "key:" on the first line of `path` that starts with key; "" if none.
std::string first_field(const std::string& path, const std::string& key) {
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind(key, 0) != 0) continue;
    auto colon = line.find_first_of(":=");
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t\""));
    while (!value.empty() && (value.back() == '"' || value.back() == ' ')) value.pop_back();
    return value;
  }
  return "";
}

}  // namespace

std::string host_name() {
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown-host";
  return name;
}

std::string openmp_threads_problem() {
  const char* text = std::getenv("OMP_NUM_THREADS");
  if (!text) return "";
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  const double most = std::max(256.0, 16.0 * static_cast<double>(cpus > 0 ? cpus : 1));
  std::stringstream entries(text);  // a list, one team size per nesting level
  for (std::string entry; std::getline(entries, entry, ',');) {
    std::string why;
    const std::optional<double> threads = checked_number(entry, {1, 1e18, false, false, ""}, why);
    if (threads && *threads > most) {
      return "OMP_NUM_THREADS=" + printable_text(text) + " asks for more threads than the " +
             std::to_string(static_cast<long>(most)) +
             " this harness allows (16 per logical CPU, 256 at least): the OpenMP runtime would "
             "crash creating them; lower it or unset it";
    }
  }
  return "";
}

std::string utc_timestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json process_cpu_description() {
  int cpus = 0;
  if (std::optional<cpu_set_t> places = openmp_place_cpus()) {
    cpus = CPU_COUNT(&*places);
  } else {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
  }
  return {{"cpus", cpus}, {"openmp_threads", omp_get_max_threads()}};
}

HostFacts host_description() {
  struct utsname uts {};
  uname(&uts);
  long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  HostFacts host;
  host.name = host_name();
  host.cpu = first_field("/proc/cpuinfo", "model name");
  host.logical_cores = std::thread::hardware_concurrency();
  host.openmp_threads = static_cast<std::uint64_t>(omp_get_max_threads());
  host.memory_bytes = pages > 0 && page_size > 0 ? std::uint64_t(pages) * page_size : 0;
  host.os = first_field("/etc/os-release", "PRETTY_NAME");
  host.kernel = std::string(uts.sysname) + " " + uts.release;
  host.architecture = uts.machine;
  for (const char* variable : {"OMP_NUM_THREADS", "OMP_PLACES", "OMP_PROC_BIND"}) {
    if (const char* value = std::getenv(variable)) host.environment[variable] = value;
  }
  host.frequency_scaling = to_json(read_frequency_scaling());
  return host;
}

namespace {

// The source tree's commit now (it may be newer than the build's), with "-dirty" for local changes.
std::string current_commit() {
  std::string command = std::string("git -C '") + PLUGBENCH_SOURCE_DIR +
                        "' describe --always --dirty --abbrev=12 2>/dev/null";
  std::string text;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[128];
    while (fgets(buffer, sizeof buffer, pipe)) text += buffer;
    pclose(pipe);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

BuildFacts describe_build() {
  BuildFacts build;
  build.harness_version = PLUGBENCH_VERSION;
  build.git_commit_at_build = PLUGBENCH_GIT_COMMIT;
  std::string now = PLUGBENCH_GIT_COMMIT_GIVEN ? "" : current_commit();
  build.git_commit = now.empty() ? PLUGBENCH_GIT_COMMIT : now;
  build.compiler = PLUGBENCH_COMPILER;
#ifdef NDEBUG
  build.assertions = "off";
#else
  build.assertions = "on";
#endif
  return build;
}

}  // namespace

BuildFacts build_description() {
  // Once per process, the first time at the run's start (matrix_run.cpp): a rank stopped by its
  // launcher has about a second to write its file, and git may take longer on a busy machine.
  static const BuildFacts build = describe_build();
  return build;
}

}  // namespace plugbench
