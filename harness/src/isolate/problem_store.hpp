// problem_store.hpp: a run's generated problems and their references, kept in sealed memory files
// the harness holds for the run, so that the first worker process that needs a problem generates
// it and the others read it back. Generating 2^28 keys and sorting
// the reference costs seconds; reading them back a fraction of one; before, every plugin's worker
// paid the generation again.
#pragma once

#include "workload.hpp"

#include <map>
#include <memory>
#include <string>

namespace plugbench {

// The file of one problem inside a store folder.
std::string problem_file_name(const std::string& workload, const std::string& distribution,
                              const Shape& shape);

// Writes the problem and its reference to `path` under a temporary name, renamed once complete.
// Returns false, leaving nothing behind, when it cannot (a full tmpfs, say): sharing is an
// optimisation, never a reason for a cell to fail.
bool store_problem(const std::string& path, const Workload& workload, const ProblemData& problem,
                   const Reference& reference);

// Reads back what store_problem wrote for this workload, distribution and shape. False when there
// is no such file or it does not hold that problem; std::bad_alloc passes through.
bool load_problem(const std::string& path, const Workload& workload,
                  const std::string& distribution, const Shape& shape, ProblemData& problem,
                  std::shared_ptr<const Reference>& reference);

// A problem and its reference in a sealed memory file (memfd with F_SEAL_WRITE, F_SEAL_GROW,
// F_SEAL_SHRINK and F_SEAL_SEAL): from the moment it is sealed no process, the one that wrote it
// included, can change a byte of it. Returns its descriptor, or -1 when it cannot (no memfd, full
// memory): each worker then generates the problem itself.
int seal_problem(const std::string& name, const Workload& workload, const ProblemData& problem,
                 const Reference& reference);

// Whether `fd` is a memory file sealed against every change.
bool is_sealed(int fd);

// The path through which another process of the same user reads a descriptor this process holds.
std::string path_of_descriptor(int fd);

// The harness's copies of the run's sealed problems, by problem file name. The first worker that
// needs a problem generates it, seals it and names its descriptor in its reply; the harness opens
// it through /proc and keeps it, and hands the other workers its path: references stay what the
// generating worker made, whatever a plugin writes afterwards.
class SealedProblems {
 public:
  SealedProblems() = default;
  ~SealedProblems() { clear(); }
  SealedProblems(const SealedProblems&) = delete;
  SealedProblems& operator=(const SealedProblems&) = delete;

  // Takes a copy of descriptor `worker_fd` of process `worker`; false (nothing kept, `why` says
  // what was wrong) unless it is a sealed memory file.
  bool adopt(const std::string& name, int worker, int worker_fd, std::string& why);
  // Where a worker reads the problem, or empty when the harness holds none by that name.
  std::string path(const std::string& name) const;
  void clear();  // the problems' cells are done

 private:
  std::map<std::string, int> descriptors_;
};

// Removes the store folders that harnesses before sealed problems kept under /dev/shm (or the
// temporary folder) when their process is gone (killed with SIGKILL): gigabytes held until reboot.
void remove_abandoned_problem_stores();

}  // namespace plugbench
