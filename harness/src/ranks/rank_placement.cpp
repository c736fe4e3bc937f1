// rank_placement.cpp: a rank's GPU and CPUs.
#include "ranks/rank_placement.hpp"

#include "base/cpu_masks.hpp"
#include "base/host_facts.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <utility>

namespace plugbench {

int visible_gpu_count(const char* cuda_visible_devices, const std::string& driver_gpus_folder) {
  if (cuda_visible_devices) {
    // CUDA stops at the first entry that names no device: "-1", "" and "NoDevFiles" hide all.
    int count = 0;
    std::stringstream entries(cuda_visible_devices);
    for (std::string entry; std::getline(entries, entry, ',');) {
      const bool index = !entry.empty() && std::all_of(entry.begin(), entry.end(), ::isdigit);
      const bool uuid = entry.rfind("GPU-", 0) == 0 || entry.rfind("MIG-", 0) == 0;
      if (!index && !uuid) break;
      ++count;
    }
    return count;
  }
  std::error_code error;
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(driver_gpus_folder, error)) {
    if (entry.is_directory(error)) ++count;
  }
  return count;
}

int visible_gpu_count() {
  return visible_gpu_count(std::getenv("CUDA_VISIBLE_DEVICES"), "/proc/driver/nvidia/gpus");
}

int device_for_rank(int local_rank, int visible_gpus, std::optional<int> requested) {
  if (requested) return *requested;
  return visible_gpus > 1 ? local_rank % visible_gpus : 0;
}

std::vector<int> cpu_share(const std::vector<int>& cpus, int local_rank, int local_ranks) {
  if (cpus.empty() || local_ranks < 1) return cpus;
  const auto ranks = static_cast<std::size_t>(local_ranks);
  const auto rank = static_cast<std::size_t>(local_rank);
  if (cpus.size() < ranks) return {cpus[rank % cpus.size()]};
  const std::size_t begin = rank * cpus.size() / ranks, end = (rank + 1) * cpus.size() / ranks;
  return {cpus.begin() + static_cast<std::ptrdiff_t>(begin),
          cpus.begin() + static_cast<std::ptrdiff_t>(end)};
}

namespace {

std::string first_line(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// This process's local rank and the number of local ranks, as the launcher's environment gives
// them before MPI starts.
std::optional<std::pair<int, int>> launcher_local_rank() {
  const std::pair<const char*, const char*> variables[] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"}};
  for (const auto& [rank_variable, size_variable] : variables) {
    const char* rank = std::getenv(rank_variable);
    const char* size = std::getenv(size_variable);
    if (!rank || !size) continue;
    const int local_rank = std::atoi(rank), local_ranks = std::atoi(size);
    if (local_ranks >= 1 && local_rank >= 0 && local_rank < local_ranks) {
      return std::pair{local_rank, local_ranks};
    }
  }
  return std::nullopt;
}

// The option parser takes any unambiguous prefix of a long option: "--ra" already names
// --rank-cpus (no other option starts so).
bool names_rank_cpus(std::string_view option) {
  return option.size() >= 4 && std::string_view("--rank-cpus").substr(0, option.size()) == option;
}

bool keeps_launcher_cpus(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const std::size_t equals = argument.find('=');
    if (equals != std::string_view::npos) {
      if (names_rank_cpus(argument.substr(0, equals)) &&
          argument.substr(equals + 1) == "launcher") {
        return true;
      }
    } else if (names_rank_cpus(argument) && i + 1 < argc &&
               std::string_view(argv[i + 1]) == "launcher") {
      return true;
    }
  }
  return false;
}

// Set in the environment of the harness started again on its share: it is not started a third
// time, whatever the system made of the mask.
constexpr const char* kRestartedOnShare = "PLUGBENCH_RESTARTED_ON_RANK_SHARE";

}  // namespace

void restart_on_rank_share(int argc, char** argv) {
  if (std::getenv(kRestartedOnShare) || keeps_launcher_cpus(argc, argv)) return;
  const std::optional<std::pair<int, int>> local = launcher_local_rank();
  if (!local) return;
  const std::vector<int> share = cpu_share(host_job_cpus(), local->first, local->second);
  if (share.empty() || share == process_cpus()) return;
  const cpu_set_t mask = cpu_mask(share);
  if (sched_setaffinity(0, sizeof mask, &mask) != 0) return;
  if (setenv(kRestartedOnShare, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed: this process goes on, and place_rank warns if its OpenMP places miss the
  // share.
}

std::vector<int> host_job_cpus() {
  std::ifstream cgroups("/proc/self/cgroup");
  for (std::string line; std::getline(cgroups, line);) {
    // "0::/path" (v2) or "3:cpuset:/path" (v1).
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    std::string cpus;
    if (controllers.empty()) {
      cpus = first_line("/sys/fs/cgroup" + path + "/cpuset.cpus.effective");
    } else if (controllers == "cpuset") {
      cpus = first_line("/sys/fs/cgroup/cpuset" + path + "/cpuset.effective_cpus");
    }
    if (!cpus.empty()) return cpus_from_text(cpus);
  }
  return cpus_from_text(first_line("/sys/devices/system/cpu/online"));
}

std::vector<int> process_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return {};
  return cpus_in(mask);
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string text;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!text.empty()) text += ",";
    text += std::to_string(cpus[i]);
    if (j > i) text += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return text;
}

std::vector<int> cpus_from_text(const std::string& text) {
  std::vector<int> cpus;
  std::stringstream ranges(text);
  for (std::string range; std::getline(ranges, range, ',');) {
    const std::size_t dash = range.find('-');
    const int first = std::atoi(range.substr(0, dash).c_str());
    const int last = dash == std::string::npos ? first : std::atoi(range.substr(dash + 1).c_str());
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

nlohmann::json place_rank(const RankGroup& ranks, std::optional<int> requested_device,
                          bool keep_launcher_cpus, int& device) {
  const RankPlace& place = ranks.place();
  const int visible = visible_gpu_count();
  device = device_for_rank(place.local_rank, visible, requested_device);
  std::string chosen_by = requested_device ? "--device"
                          : visible > 1    ? "local rank % visible GPUs"
                                           : "the only visible GPU (or none)";
  std::vector<int> cpus = process_cpus();
  std::string cpus_chosen_by = "the launcher's binding";
  // A harness started without a launcher keeps the CPUs it was given (taskset, a cgroup).
  if (ranks.launched() && !keep_launcher_cpus) {
    const std::vector<int> share = cpu_share(host_job_cpus(), place.local_rank, place.local_ranks);
    if (!share.empty() && confine_process_to_cpus(share)) {
      cpus = share;
      cpus_chosen_by = "a share of the host's CPUs by local rank";
    } else if (!share.empty()) {
      cpus_chosen_by =
          "the launcher's binding (the system refused the share " + cpu_list_text(share) + ")";
    }
    const std::optional<cpu_set_t> places = openmp_runtime_place_cpus();
    if (places && cpus_in(*places) != cpus) {
      std::cerr << "harness: warning: rank " << place.rank << "'s OpenMP runtime bound its places "
                << "to CPUs " << cpu_list_text(cpus_in(*places))
                << " before the rank was moved to its CPUs " << cpu_list_text(cpus)
                << ": its own OpenMP teams (the host calibration, dist_* cells of host plugins) "
                   "run there. Start the ranks with an MPI launcher that sets the local rank "
                   "(Open MPI, MPICH), or bind them on purpose and pass --rank-cpus launcher.\n";
    }
  }
  return {{"rank", place.rank},
          {"host", host_name()},
          {"local_rank", place.local_rank},
          {"local_ranks", place.local_ranks},
          {"visible_gpus", visible},
          {"device", device},
          {"device_chosen_by", chosen_by},
          {"cpus", cpu_list_text(cpus)},
          {"cpu_count", cpus.size()},
          {"cpus_chosen_by", cpus_chosen_by}};
}

}  // namespace plugbench
