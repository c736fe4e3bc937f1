// plugin.cpp (openmp): the plugin's entry; each workload file registers its kernels.
#include <plugbench/openmp_services.hpp>

#include "vector_isa.hpp"

#include <string>

namespace {

// The specification that an _OPENMP date stands for.
std::string openmp_version() {
  const long date = _OPENMP;
  const char* spec = date >= 202111   ? "5.2"
                     : date >= 202011 ? "5.1"
                     : date >= 201811 ? "5.0"
                     : date >= 201511 ? "4.5"
                     : date >= 201307 ? "4.0"
                     : date >= 201107 ? "3.1"
                                      : "3.0 or older";
  return std::to_string(date) + " (OpenMP " + spec + ")";
}

}  // namespace

PLUGBENCH_PLUGIN(plugbench::sdk::OpenMPHostServices,
                 {.name = "openmp",
                  .version = "1.0.0",
                  .description = "OpenMP over the host cores (team size: OMP_NUM_THREADS)",
                  .memory_space = PB_MEMORY_HOST,
                  .build_info = {{"openmp", openmp_version()},
                                 {"mandelbrot_fp_contract", "off"},
                                 {"vector_isa", plugbench::openmp::describe_vector_isa()}}});
