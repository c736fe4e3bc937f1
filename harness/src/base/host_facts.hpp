// host_facts.hpp: facts about the machine and the build, recorded in every results file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace plugbench {

// host name, CPU model, logical cores, OpenMP threads, memory, OS, kernel.
nlohmann::json host_description();

// harness version, git commit, compiler, build type.
nlohmann::json build_description();

// What this process's OpenMP team may use: {"cpus": the CPUs of its places (without places, of
// its CPU mask), "openmp_threads": the default team size}. Each plugin's worker reports its own.
nlohmann::json process_cpu_description();

std::string host_name();

// Why OMP_NUM_THREADS cannot be honoured, or "" when it can (or is unset, or is text libgomp
// itself ignores): an entry above 16 threads per logical CPU (256 at least) is refused, since
// libgomp crashes (SIGSEGV) when it cannot create the team, as with 100000 threads.
std::string openmp_threads_problem();
// "2026-11-30T17:02:03Z"
std::string utc_timestamp();

}  // namespace plugbench
