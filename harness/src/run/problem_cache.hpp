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
  ~ProblemCache() { clear(); }
  ProblemCache(const ProblemCache&) = delete;
  ProblemCache& operator=(const ProblemCache&) = delete;

  // Generates the problem unless it is the cached one or the offered one holds it. Throws
  // std::bad_alloc.
  const Entry& get(const Workload& workload, const std::string& distribution, const Shape& shape);
  // Frees the cached problem (its cells are done).
  void clear();
  // Seal each problem this process generates in a memory file (problem_store.hpp), for the harness
  // to hand to the other workers. Off: nothing is sealed.
  void share(bool enabled) { share_ = enabled; }
  // Where the next problem may be read from (the harness's sealed copy), or empty.
  void offer(std::string path) { offered_ = std::move(path); }
  // The descriptor of the problem sealed by the last get(), once (-1: none). It stays open until
  // the next problem or clear(), so that the harness can take a copy.
  int take_sealed();

 private:
  bool share_ = false;
  std::string offered_;
  int sealed_fd_ = -1;
  bool sealed_taken_ = true;
  std::string workload_;
  std::string distribution_;
  Shape shape_;
  std::unique_ptr<Entry> entry_;
};

}  // namespace plugbench
