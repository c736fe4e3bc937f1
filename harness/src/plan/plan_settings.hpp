// plan_settings.hpp: what a run plans, as the command line names it: the plugins, workloads,
// distributions, variants and sizes of the matrix, and the baseline planned first.
#pragma once

#include <string>
#include <vector>

namespace plugbench {

struct PlanSettings {
  std::vector<std::string> plugins = {"all"};
  std::vector<std::string> workloads = {"all"};
  std::vector<std::string> distributions;  // empty: each workload's default
  std::vector<std::string> variants = {"all"};
  // One entry per -s: "SIZES" for every workload, or "WORKLOAD[,WORKLOAD...]=SIZES" for those;
  // none: each workload's default sizes.
  std::vector<std::string> sizes;
  std::string baseline = "cpu_serial";
  bool baseline_given = false;  // named by the user: then it must exist
};

}  // namespace plugbench
