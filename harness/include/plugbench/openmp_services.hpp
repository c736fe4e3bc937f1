// openmp_services.hpp: host memory services for plugins whose kernels run on an OpenMP team: the
// cache flush runs on every thread of the team (each core's private caches are flushed too), and
// the team is woken before a sample's clock starts. Compile the plugin with OpenMP.
#pragma once

#include <plugbench/host_services.hpp>

#include <omp.h>

#include <cstdio>
#include <cstdlib>

#pragma GCC visibility push(hidden)

namespace plugbench::sdk {

struct OpenMPTeam {
  static int size() { return omp_get_max_threads(); }
  // From inside a parallel region (a kernel calling its services) a nested region would run on
  // one thread each, every thread repeating the whole work: refused instead.
  template <class Body>
  static void run(Body&& body) {
    if (omp_in_parallel()) {
      throw Failure(PB_ERROR,
                    "the host services were called from inside an OpenMP parallel region");
    }
#pragma omp parallel
    body(omp_get_thread_num(), omp_get_num_threads());
  }
  // An untimed parallel region: threads asleep after a long flush or a verification are running
  // again (and spin-wait for the next region) when the clock starts.
  static void wake() {
#pragma omp parallel
    { __asm__ __volatile__("" ::: "memory"); }
  }
  static void describe(pb_execution_context& context) {
    context.threads = static_cast<uint32_t>(omp_get_max_threads());
    std::snprintf(context.binding, sizeof context.binding, "%s", binding_name(omp_get_proc_bind()));
    const char* places = std::getenv("OMP_PLACES");
    if (omp_get_num_places() > 0) {
      std::snprintf(context.places, sizeof context.places, "%s: %d places",
                    places ? places : "(default)", omp_get_num_places());
    } else {
      context.places[0] = '\0';
    }
  }

 private:
  static const char* binding_name(omp_proc_bind_t bind) {
    switch (bind) {
      case omp_proc_bind_false:
        return "false";
      case omp_proc_bind_true:
        return "true";
      case omp_proc_bind_master:
        return "master";
      case omp_proc_bind_close:
        return "close";
      case omp_proc_bind_spread:
        return "spread";
      default:
        return "unknown";
    }
  }
};

using OpenMPHostServices = BasicHostServices<OpenMPTeam>;

}  // namespace plugbench::sdk

#pragma GCC visibility pop
