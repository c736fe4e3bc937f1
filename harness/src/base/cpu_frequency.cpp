// cpu_frequency.cpp: the governors from sysfs (absent in many virtual machines: then unknown).
#include "base/cpu_frequency.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>

namespace plugbench {

bool FrequencyScaling::scaling_on() const {
  for (const auto& [governor, cpus] : governors) {
    if (governor != "performance" && cpus > 0) return true;
  }
  return false;
}

FrequencyScaling read_frequency_scaling(const std::string& cpu_root) {
  FrequencyScaling scaling;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cpu_root, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= 3 || name.compare(0, 3, "cpu") != 0 ||
        !std::isdigit(static_cast<unsigned char>(name[3]))) {
      continue;
    }
    std::ifstream file(entry.path() / "cpufreq" / "scaling_governor");
    std::string governor;
    if (file >> governor) ++scaling.governors[governor];
  }
  return scaling;
}

nlohmann::json to_json(const FrequencyScaling& scaling) {
  nlohmann::json governors = nlohmann::json::object();
  for (const auto& [governor, cpus] : scaling.governors) governors[governor] = cpus;
  return {{"governors", governors},
          {"scaling", scaling.known() ? nlohmann::json(scaling.scaling_on()) : nullptr}};
}

void warn_about_frequency_scaling(std::ostream& out, const FrequencyScaling& scaling) {
  if (!scaling.scaling_on()) return;
  std::string list;
  for (const auto& [governor, cpus] : scaling.governors) {
    list += (list.empty() ? "" : ", ") + governor + " on " + std::to_string(cpus) + " CPUs";
  }
  out << "harness: warning: CPU frequency scaling is on (" << list
      << "): host figures may be noisy; the 'performance' governor fixes the clock\n";
}

}  // namespace plugbench
