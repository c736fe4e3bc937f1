// problem_cache.hpp: the last problem generated and its reference: consecutive cells on one problem
// (the variants of a plugin, or every plugin in --isolation none) share them.
#pragma once

#include "workload.hpp"

#include <memory>
#include <string>

namespace plugbench {

class ProblemCache {
 public:
  struct Entry {
    ProblemData data;
    std::shared_ptr<const Reference> reference;
  };
  // Generates the problem unless it is the cached one. Throws std::bad_alloc.
  const Entry& get(const Workload& workload, const std::string& distribution, const Shape& shape);
  // Frees the cached problem (its cells are done).
  void clear() { entry_.reset(); }
  // Problems are read from this run's store folder when another worker stored them there, and
  // stored there when this one generated them (problem_store.hpp). Empty: generate every time.
  void share_through(std::string folder) { folder_ = std::move(folder); }

 private:
  std::string folder_;
  std::string workload_;
  std::string distribution_;
  Shape shape_;
  std::unique_ptr<Entry> entry_;
};

}  // namespace plugbench
