// host_facts.hpp: facts about the machine and the build, recorded in every results file.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace plugbench {

// The machine a run ran on, as its results file records it (results/run_context.hpp reads and
// writes it). A number a file does not hold is 0, a text "".
struct HostFacts {
  std::string name;
  std::string cpu;  // the model name
  std::uint64_t logical_cores = 0;
  std::uint64_t openmp_threads = 0;  // the default team size
  std::uint64_t memory_bytes = 0;
  std::string os;
  std::string kernel;
  std::string architecture;
  std::map<std::string, std::string> environment;  // OMP_NUM_THREADS, OMP_PLACES, OMP_PROC_BIND
  nlohmann::json frequency_scaling;                // cpu_frequency.hpp's to_json
};

// The harness's build: its version, the commit (now and when built), compiler and assertions.
struct BuildFacts {
  std::string harness_version;
  std::string git_commit;
  std::string git_commit_at_build;
  std::string compiler;
  std::string assertions;  // "on" or "off"
};

// This machine and this build.
HostFacts host_description();
BuildFacts build_description();

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
