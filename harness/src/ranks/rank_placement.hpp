// rank_placement.hpp: where a rank runs: its GPU (one per rank, by local rank) and its share of
// the host's CPUs (the OpenMP team of a host plugin stays within it). docs/mpi.md says the rules.
#pragma once

#include "ranks/rank_group.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// GPUs this process may use: CUDA_VISIBLE_DEVICES's entries where it is set (an empty list, or
// one that starts with an invalid entry, hides every GPU), else the NVIDIA GPUs the driver lists
// under /proc/driver/nvidia/gpus. 0 where there are none.
int visible_gpu_count();
int visible_gpu_count(const char* cuda_visible_devices, const std::string& driver_gpus_folder);

// The device a rank uses: `requested` where --device was given, else local rank % visible GPUs
// (device 0 where a scheduler shows each rank one GPU, or there is none).
int device_for_rank(int local_rank, int visible_gpus, std::optional<int> requested);

// The CPUs this host gives the job: its cgroup's cpuset (v2, else v1) where there is one, else
// the online CPUs. Not the process's mask: a launcher may have bound the process to one core.
std::vector<int> host_job_cpus();

// Local rank `local_rank`'s share of `cpus`: contiguous, near-equal parts, one per local rank;
// with more ranks than CPUs, one CPU each, in turn.
std::vector<int> cpu_share(const std::vector<int>& cpus, int local_rank, int local_ranks);

// The CPUs of this process's mask, and "0-3,8" for such a list.
std::vector<int> process_cpus();
std::string cpu_list_text(const std::vector<int>& cpus);
std::vector<int> cpus_from_text(const std::string& text);

// Before MPI starts, for a process that an MPI launcher (Open MPI's mpirun, MPICH's Hydra)
// started as a local rank, unless `--rank-cpus launcher` is among the arguments: moves it onto
// its share of the host's CPUs and starts the harness again in its place (execv of argv), once.
// The OpenMP runtime fixes its places (OMP_PLACES, OMP_PROC_BIND) from the mask the process
// starts with, so only a fresh start builds them from the share: a launcher that bound the rank
// to one core would otherwise keep every in-process OpenMP team (calibration, dist_* cells) on
// that core. Returns where nothing needed to change, or where the exec failed.
void restart_on_rank_share(int argc, char** argv);

// Places this rank: picks its device (into `device`) and, when a launcher started it and unless
// `keep_launcher_cpus`, confines it
// and the workers it will start to its share of the host's CPUs (Open MPI binds each of two ranks
// to a single core by default: an OpenMP plugin would run on one). Returns the facts recorded in
// the results (context.mpi.ranks[r]).
nlohmann::json place_rank(const RankGroup& ranks, std::optional<int> requested_device,
                          bool keep_launcher_cpus, int& device);

}  // namespace plugbench
