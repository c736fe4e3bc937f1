// plugin.cpp (cpu_serial): the plugin's entry; each workload file registers its kernels.
#include <plugbench/host_services.hpp>

PLUGBENCH_PLUGIN(plugbench::sdk::HostServices,
                 {.name = "cpu_serial",
                  .version = "1.0.0",
                  .description = "plain serial loops on one host core: the baseline",
                  .memory_space = PB_MEMORY_HOST,
                  .build_info = {{"mandelbrot_fp_contract", "off"}}});
