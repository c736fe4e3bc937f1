// problem_cache.cpp: one problem kept, or read from the harness's sealed copy, or generated (and
// then sealed for the others).
#include "run/problem_cache.hpp"

#include "isolate/problem_store.hpp"

#include <unistd.h>

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
    if (share_) {
      sealed_fd_ = seal_problem(problem_file_name(workload.name(), distribution, shape), workload,
                                entry->data, *entry->reference);
      sealed_taken_ = sealed_fd_ < 0;
    }
  }
  entry_ = std::move(entry);
  workload_ = workload.name();
  distribution_ = distribution;
  shape_ = shape;
  return *entry_;
}

void ProblemCache::clear() {
  entry_.reset();
  if (sealed_fd_ >= 0) ::close(sealed_fd_);
  sealed_fd_ = -1;
  sealed_taken_ = true;
}

int ProblemCache::take_sealed() {
  if (sealed_taken_) return -1;
  sealed_taken_ = true;
  return sealed_fd_;
}

}  // namespace plugbench
