// cpu_masks.hpp: which CPUs this process and its OpenMP team may use: the OpenMP places, CPU lists
// as masks, an MPI rank's confinement to its share of the host.
#pragma once

#include <sched.h>

#include <optional>
#include <vector>

namespace plugbench {

// Every CPU of this process's OpenMP places: the CPUs it was started on, as libgomp saw them
// before it bound the first thread to the first place (it does so at start-up when OMP_PROC_BIND
// or OMP_PLACES is set). Nothing when there are no places, i.e. no binding.
std::optional<cpu_set_t> openmp_place_cpus();

// The CPUs of the places the OpenMP runtime itself fixed at start-up, whatever confinement came
// later; nothing when it has no places.
std::optional<cpu_set_t> openmp_runtime_place_cpus();

// A CPU list as a mask (CPUs outside the mask's range left out), and back.
cpu_set_t cpu_mask(const std::vector<int>& cpus);
std::vector<int> cpus_in(const cpu_set_t& mask);

// Confines the calling thread, and every process it starts from then on, to `cpus` (an MPI
// rank's share of the host): they stand for the OpenMP places above from then on, and the
// default OpenMP team (unless OMP_NUM_THREADS is set) is one thread per CPU of the share.
// False (and nothing changed) when the system refused the mask.
bool confine_process_to_cpus(const std::vector<int>& cpus);

// For its lifetime, the calling thread runs on every CPU of the OpenMP places, then on its own mask
// again. A process spawned meanwhile inherits the wide mask: under OMP_PROC_BIND libgomp pins a
// process's first thread to one core, and a child started from it would otherwise inherit that
// core (measured on the H200 host: an OpenMP sort of 2^28 keys, 7.6 s instead of 0.62 s). Without
// places it does nothing.
class ThreadOnAllPlaces {
 public:
  ThreadOnAllPlaces();
  ~ThreadOnAllPlaces();
  ThreadOnAllPlaces(const ThreadOnAllPlaces&) = delete;
  ThreadOnAllPlaces& operator=(const ThreadOnAllPlaces&) = delete;

 private:
  cpu_set_t saved_{};
  bool widened_ = false;
};

}  // namespace plugbench
