// workload_test_util.hpp: helpers the workload tests share (find a workload, set inputs, verify).
#pragma once

#include "workload.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench::test {

// Takes a C string, not a std::string: a temporary argument would trip GCC 13's
// -Wdangling-reference on every `const Workload& w = workload("reduce");`.
inline const Workload& workload(const char* name) {
  const Workload* found = WorkloadRegistry::instance().find(name);
  if (found == nullptr) throw std::logic_error(std::string("workload not registered: ") + name);
  return *found;
}

inline const Workload& workload(const std::string& name) {
  return workload(name.c_str());
}

// A problem of the workload's own shape for n elements, default distribution.
inline ProblemData generate(const std::string& name, std::uint64_t n) {
  const Workload& w = workload(name);
  return w.generate(w.shape_for_count(n), w.distributions().front());
}

// Overwrites a typed array with `values` (as many as it holds).
template <class T>
void assign(HostArray& array, const std::vector<T>& values) {
  if (values.size() != array.count()) throw std::logic_error("assign: wrong number of values");
  std::copy(values.begin(), values.end(), array.as<T>().begin());
}

// A generated problem of values.size() elements whose inputs are replaced by `inputs`.
template <class T>
ProblemData problem_with_inputs(const std::string& name,
                                const std::vector<std::vector<T>>& inputs) {
  ProblemData problem = generate(name, inputs.front().size());
  for (std::size_t i = 0; i < inputs.size(); ++i) assign(problem.inputs.at(i), inputs[i]);
  return problem;
}

// Outputs of the problem's layout, filled with the given arrays in order.
template <class... Arrays>
std::vector<HostArray> outputs_with(const ProblemData& problem, const Arrays&... values) {
  std::vector<HostArray> outputs = problem.make_outputs();
  std::size_t index = 0;
  (assign(outputs.at(index++), values), ...);
  return outputs;
}

// Verifies outputs against a freshly computed reference.
inline Verification check(const ProblemData& problem, const std::vector<HostArray>& outputs) {
  const Workload& w = workload(problem.workload);
  return w.verify(problem, *w.reference(problem), outputs);
}

}  // namespace plugbench::test
