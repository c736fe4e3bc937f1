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
  ProblemCache() = default;
  ~ProblemCache() = default;
  ProblemCache(const ProblemCache&) = delete;
  ProblemCache& operator=(const ProblemCache&) = delete;

  // Generates the problem unless it is the cached one or the offered one holds it. Throws
  // std::bad_alloc.
  const Entry& get(const Workload& workload, const std::string& distribution, const Shape& shape);
  // Frees the cached problem (its cells are done).
  void clear();
  // Where the next problem may be read from (the harness's sealed copy), or empty.
  void offer(std::string path) { offered_ = std::move(path); }

 private:
  std::string offered_;
  std::string workload_;
  std::string distribution_;
  Shape shape_;
  std::unique_ptr<Entry> entry_;
};

}  // namespace plugbench
