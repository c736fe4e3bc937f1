// machine_facts.hpp: what a results file says about the run's machine, build and settings, as
// labelled lines (host, CPU, GPU, driver, compiler, commit, peaks...), for the headers of
// `harness compare` and `harness show`.
#pragma once

#include "results/run_context.hpp"

#include <string>
#include <utility>
#include <vector>

namespace plugbench {

using Facts = std::vector<std::pair<std::string, std::string>>;

// In the order the headers show them; a fact the file does not hold is "".
Facts machine_facts(const RunContext& run);

}  // namespace plugbench
