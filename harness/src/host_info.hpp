// host_info.hpp: facts about the machine and the build, recorded in every results file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace plugbench {

// host name, CPU model, logical cores, OpenMP threads, memory, OS, kernel.
nlohmann::json host_description();

// harness version, git commit, compiler, build type.
nlohmann::json build_description();

std::string host_name();
// "2026-11-30T17:02:03Z"
std::string utc_timestamp();

}  // namespace plugbench
