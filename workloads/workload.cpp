// workload.cpp: the workload registry and the helpers every workload shares.
#include "workload.hpp"

#include <algorithm>
#include <stdexcept>

namespace plugbench {

std::size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::uint8:
      return 1;
    case ElementType::int32:
    case ElementType::uint32:
    case ElementType::float32:
      return 4;
    case ElementType::int64:
    case ElementType::uint64:
    case ElementType::float64:
      return 8;
  }
  return 1;
}

const char* element_name(ElementType type) {
  switch (type) {
    case ElementType::uint8:
      return "uint8";
    case ElementType::int32:
      return "int32";
    case ElementType::uint32:
      return "uint32";
    case ElementType::int64:
      return "int64";
    case ElementType::uint64:
      return "uint64";
    case ElementType::float32:
      return "float32";
    case ElementType::float64:
      return "float64";
  }
  return "?";
}

std::vector<HostArray> ProblemData::make_outputs() const {
  std::vector<HostArray> arrays;
  for (const OutputSpec& spec : outputs) arrays.emplace_back(spec.name, spec.type, spec.count);
  return arrays;
}

ProblemData make_problem(const std::string& workload, const std::string& distribution,
                         const Shape& shape) {
  ProblemData problem;
  problem.workload = workload;
  problem.distribution = distribution;
  problem.shape = shape;
  problem.params.struct_size = sizeof(pb_problem);
  problem.params.n = shape.n;
  problem.params.width = shape.width;
  problem.params.height = shape.height;
  return problem;
}

void require_distribution(const Workload& workload, const std::string& distribution) {
  const std::vector<std::string> valid = workload.distributions();
  if (std::find(valid.begin(), valid.end(), distribution) != valid.end()) return;
  std::string message =
      "unknown distribution '" + distribution + "' for workload " + workload.name() + "; valid:";
  for (const std::string& name : valid) message += " " + name;
  throw std::invalid_argument(message);
}

const char* to_string(MemoryPattern pattern) {
  return pattern == MemoryPattern::read ? "read" : "copy";
}

Traffic minimum_traffic(const ProblemData& problem, MemoryPattern pattern) {
  Traffic traffic;
  traffic.pattern = pattern;
  for (const HostArray& input : problem.inputs) traffic.bytes_read += input.size_bytes();
  for (const OutputSpec& output : problem.outputs) {
    traffic.bytes_written += output.count * element_size(output.type);
  }
  traffic.work = static_cast<double>(problem.shape.n);
  return traffic;
}

WorkloadRegistry& WorkloadRegistry::instance() {
  static WorkloadRegistry registry;
  return registry;
}

void WorkloadRegistry::add(std::unique_ptr<Workload> workload) {
  std::string name = workload->name();
  if (!workloads_.emplace(name, std::move(workload)).second) {
    throw std::logic_error("workload registered twice: " + name);
  }
}

const Workload* WorkloadRegistry::find(const std::string& name) const {
  auto it = workloads_.find(name);
  return it == workloads_.end() ? nullptr : it->second.get();
}

// The order of the seeds and of the issue: simplest first. Unknown names follow alphabetically.
static const char* const kDisplayOrder[] = {"reduce",     "dot",         "histogram",
                                            "scan",       "compact",     "sort",
                                            "mandelbrot", "dist_reduce", "dist_sort"};

std::vector<const Workload*> WorkloadRegistry::all() const {
  std::vector<const Workload*> ordered;
  for (const char* name : kDisplayOrder) {
    if (const Workload* w = find(name)) ordered.push_back(w);
  }
  for (const auto& [name, workload] : workloads_) {
    if (std::find(ordered.begin(), ordered.end(), workload.get()) == ordered.end()) {
      ordered.push_back(workload.get());
    }
  }
  return ordered;
}

}  // namespace plugbench
