// plugin.cpp (example_cpu): the plugin's entry, once per plugin. Its data lives in host memory, so
// the SDK's HostServices provide the memory services (allocation, copies, timer, cache flush); the
// kernels register themselves in reduce.cpp and scan.cpp.
#include <plugbench/host_services.hpp>

PLUGBENCH_PLUGIN(plugbench::sdk::HostServices,
                 {.name = "example_cpu",
                  .version = "1.0.0",
                  .description = "the out-of-tree example: reduce and scan on one core",
                  .memory_space = PB_MEMORY_HOST,
                  .build_info = {{"example", "examples/out_of_tree_plugin"}}});
