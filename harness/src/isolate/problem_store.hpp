// problem_store.hpp: a run's generated problems and their references, kept in files of a folder
// the harness makes for the run (under /dev/shm where it exists), so that the first worker process
// that needs a problem generates it and the others read it back. Generating 2^28 keys and sorting
// the reference costs seconds; reading them back a fraction of one; before, every plugin's worker
// paid the generation again.
#pragma once

#include "workload.hpp"

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

// The folder of one run: made by the harness, emptied after each problem, removed at the end.
class ProblemStoreFolder {
 public:
  ProblemStoreFolder();  // path() is empty when no folder could be made: workers then generate
  ~ProblemStoreFolder();
  ProblemStoreFolder(const ProblemStoreFolder&) = delete;
  ProblemStoreFolder& operator=(const ProblemStoreFolder&) = delete;

  const std::string& path() const { return path_; }
  void clear() const;  // removes the stored problems: their cells are done

 private:
  std::string path_;
};

// Removes store folders whose harness process is gone (it was killed with SIGKILL), so that a
// crashed run does not hold gigabytes of /dev/shm until the next reboot.
void remove_abandoned_problem_stores();

}  // namespace plugbench
