// cpu_frequency.hpp: the host's CPU frequency governors, recorded in every results file; a run
// warns, as Google Benchmark does, when frequency scaling may make host figures noisy.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>

namespace plugbench {

struct FrequencyScaling {
  std::map<std::string, int> governors;  // governor name -> how many CPUs use it
  bool known() const { return !governors.empty(); }
  // Any CPU whose governor is not "performance" may change its clock under the benchmark.
  bool scaling_on() const;
};

// Reads <cpu_root>/cpu<N>/cpufreq/scaling_governor for every CPU folder there.
FrequencyScaling read_frequency_scaling(const std::string& cpu_root = "/sys/devices/system/cpu");

// {"governors": {...}, "scaling": true|false|null}; null when the OS exposes no governor.
nlohmann::json to_json(const FrequencyScaling& scaling);

// Writes one warning line when scaling is on; nothing otherwise.
void warn_about_frequency_scaling(std::ostream& out,
                                  const FrequencyScaling& scaling = read_frequency_scaling());

}  // namespace plugbench
