// problem_cache.cpp: one problem kept, or read from / written to the run's problem store.
#include "run/problem_cache.hpp"

#include "isolate/problem_store.hpp"

namespace plugbench {

const ProblemCache::Entry& ProblemCache::get(const Workload& workload,
                                             const std::string& distribution, const Shape& shape) {
  if (entry_ && workload_ == workload.name() && distribution_ == distribution && shape_ == shape) {
    return *entry_;
  }
  entry_.reset();  // the old problem's memory goes before the new one is generated
  auto entry = std::make_unique<Entry>();
  const std::string path =
      folder_.empty() ? ""
                      : folder_ + "/" + problem_file_name(workload.name(), distribution, shape);
  if (path.empty() ||
      !load_problem(path, workload, distribution, shape, entry->data, entry->reference)) {
    entry->data = workload.generate(shape, distribution);
    entry->reference = workload.reference(entry->data);
    if (!path.empty()) store_problem(path, workload, entry->data, *entry->reference);
  }
  entry_ = std::move(entry);
  workload_ = workload.name();
  distribution_ = distribution;
  shape_ = shape;
  return *entry_;
}

}  // namespace plugbench
