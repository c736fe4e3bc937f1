// cpu_masks.cpp: OpenMP places, CPU masks and a process's confinement to a share of the host.
#include "base/cpu_masks.hpp"

#include <omp.h>
#include <pthread.h>

#include <cstdlib>

namespace plugbench {

namespace {
std::optional<cpu_set_t>& cpu_confinement() {
  static std::optional<cpu_set_t> cpus;
  return cpus;
}
}  // namespace

cpu_set_t cpu_mask(const std::vector<int>& cpus) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int cpu : cpus) {
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &mask);
  }
  return mask;
}

std::vector<int> cpus_in(const cpu_set_t& mask) {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
  }
  return cpus;
}

bool confine_process_to_cpus(const std::vector<int>& cpus) {
  cpu_set_t mask = cpu_mask(cpus);
  if (CPU_COUNT(&mask) == 0) return false;
  if (pthread_setaffinity_np(pthread_self(), sizeof mask, &mask) != 0) return false;
  cpu_confinement() = mask;
  // libgomp sized its default team from the mask this process started with (one core, where a
  // launcher bound it): the harness's own calibration must use the whole share.
  if (std::getenv("OMP_NUM_THREADS") == nullptr) omp_set_num_threads(CPU_COUNT(&mask));
  return true;
}

std::optional<cpu_set_t> openmp_place_cpus() {
  // A confined rank's share is what its workers may use, whatever places libgomp found at start.
  if (const std::optional<cpu_set_t>& confined = cpu_confinement()) return confined;
  return openmp_runtime_place_cpus();
}

std::optional<cpu_set_t> openmp_runtime_place_cpus() {
  const int places = omp_get_num_places();
  if (places <= 0) return std::nullopt;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int place = 0; place < places; ++place) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, ids.data());
    for (int id : ids) {
      if (id >= 0 && id < CPU_SETSIZE) CPU_SET(id, &cpus);
    }
  }
  if (CPU_COUNT(&cpus) == 0) return std::nullopt;
  return cpus;
}

ThreadOnAllPlaces::ThreadOnAllPlaces() {
  std::optional<cpu_set_t> all = openmp_place_cpus();
  if (!all) return;
  if (pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) != 0) return;
  widened_ = pthread_setaffinity_np(pthread_self(), sizeof *all, &*all) == 0;
}

ThreadOnAllPlaces::~ThreadOnAllPlaces() {
  if (widened_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
}

}  // namespace plugbench
