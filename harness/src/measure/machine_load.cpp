// machine_load.cpp: /proc/stat for the machine, /proc/<pid>/stat for the harness's own processes.
#include "measure/machine_load.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace plugbench {
namespace {

// The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses).
std::optional<std::vector<std::string>> stat_fields(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  if (!std::getline(file, text)) return std::nullopt;
  const std::size_t name_end = text.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(name_end + 1));
  std::vector<std::string> fields;
  for (std::string field; rest >> field;) fields.push_back(field);
  return fields;
}

struct ProcessTimes {
  long parent = 0;
  std::uint64_t ticks = 0;  // utime + stime + cutime + cstime
};

// Every process's parent and CPU time; fields after the name: state(0) ppid(1) ... utime(11)
// stime(12) cutime(13) cstime(14).
std::map<long, ProcessTimes> all_processes() {
  std::map<long, ProcessTimes> processes;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return processes;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    auto fields = stat_fields("/proc/" + std::string(entry->d_name) + "/stat");
    if (!fields || fields->size() < 15) continue;  // gone since the listing
    ProcessTimes times;
    times.parent = std::strtol((*fields)[1].c_str(), nullptr, 10);
    for (int i : {11, 12, 13, 14}) times.ticks += std::strtoull((*fields)[i].c_str(), nullptr, 10);
    processes[pid] = times;
  }
  closedir(proc);
  return processes;
}

// CPU ticks of this process and every process below it.
std::uint64_t our_ticks() {
  const std::map<long, ProcessTimes> processes = all_processes();
  std::map<long, std::vector<long>> children;
  for (const auto& [pid, times] : processes) children[times.parent].push_back(pid);
  std::uint64_t ticks = 0;
  std::vector<long> pending{static_cast<long>(getpid())};
  while (!pending.empty()) {
    const long pid = pending.back();
    pending.pop_back();
    if (auto found = processes.find(pid); found != processes.end()) ticks += found->second.ticks;
    if (auto below = children.find(pid); below != children.end()) {
      pending.insert(pending.end(), below->second.begin(), below->second.end());
    }
  }
  return ticks;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string percent(double fraction) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f %%", 100 * fraction);
  return text;
}

}  // namespace

std::optional<CpuTimes> cpu_times_now() {
  std::ifstream stat("/proc/stat");
  std::string label;
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                steal = 0;
  if (!(stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq) ||
      label != "cpu") {
    return std::nullopt;
  }
  stat >> steal;  // absent on old kernels: 0
  CpuTimes times;
  times.busy = user + nice + system + irq + softirq;
  times.steal = steal;
  times.total = times.busy + idle + iowait + steal;
  times.ours = our_ticks();
  return times;
}

double load_average_now() {
  std::ifstream file("/proc/loadavg");
  double one_minute = 0;
  return file >> one_minute ? one_minute : 0;
}

MachineLoad load_between(const CpuTimes& before, const CpuTimes& after, double load_average) {
  auto delta = [](std::uint64_t from, std::uint64_t to) { return to > from ? to - from : 0; };
  const std::uint64_t total = delta(before.total, after.total);
  const std::uint64_t busy = delta(before.busy, after.busy);
  const std::uint64_t ours = delta(before.ours, after.ours);
  MachineLoad load;
  // Ticks are counted per CPU and per process at slightly different moments: ours may exceed the
  // machine's busy time by a tick or two, never by a share worth a verdict.
  load.others_share = share(busy > ours ? busy - ours : 0, total);
  load.steal_share = share(delta(before.steal, after.steal), total);
  load.load_average = load_average;
  load.judged = total >= kLeastTicksToJudge;
  load.busy =
      load.judged && (load.others_share > kBusyOthersShare || load.steal_share > kBusyStealShare);
  return load;
}

std::string describe(const MachineLoad& load) {
  return "other processes used " + percent(load.others_share) + " of the CPUs, steal " +
         percent(load.steal_share);
}

}  // namespace plugbench
