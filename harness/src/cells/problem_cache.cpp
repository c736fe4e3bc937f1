// problem_cache.cpp: one problem kept, or read from the harness's sealed copy, or generated.
#include "cells/problem_cache.hpp"

#include "cells/problem_store.hpp"

namespace plugbench {

const ProblemCache::Entry& ProblemCache::get(const Workload& workload,
                                             const std::string& distribution, const Shape& shape) {
  if (entry_ && workload_ == workload.name() && distribution_ == distribution && shape_ == shape) {
    return *entry_;
  }
  clear();  // the old problem's memory goes before the new one is generated
  auto entry = std::make_unique<Entry>();
  if (offered_.empty() ||
      !load_problem(offered_, workload, distribution, shape, entry->data, entry->reference)) {
    entry->data = workload.generate(shape, distribution);
    entry->reference = workload.reference(entry->data);
  }
  entry_ = std::move(entry);
  workload_ = workload.name();
  distribution_ = distribution;
  shape_ = shape;
  return *entry_;
}

void ProblemCache::clear() {
  entry_.reset();
}

}  // namespace plugbench
