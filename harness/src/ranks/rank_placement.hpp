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

// A rank's share of its host's CPUs, from every local rank's CPU mask (local rank order). Ranks
// the launcher bound to CPUs of their own (disjoint masks) keep them; ranks that share CPUs split
// their union into contiguous, near-equal parts. More ranks than CPUs: one CPU each, in turn.
std::vector<int> cpu_share(const std::vector<std::vector<int>>& host_masks, int local_rank);

// The CPUs of this process's mask, and "0-3,8" for such a list.
std::vector<int> process_cpus();
std::string cpu_list_text(const std::vector<int>& cpus);
std::vector<int> cpus_from_text(const std::string& text);

// Places this rank: picks its device (into `device`) and confines it and the workers it will
// start to its CPU share. Returns the facts recorded in the results (context.mpi.ranks[r]).
nlohmann::json place_rank(RankGroup& ranks, std::optional<int> requested_device, int& device);

}  // namespace plugbench
