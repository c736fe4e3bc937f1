// rank_group.hpp: the ranks of a run. A harness started by an MPI launcher (mpirun, srun) is
// rank r of K and talks to the others through this interface; started alone, it is the only rank
// of a group of one, and every operation is immediate. Nothing here waits without a bound: a rank
// that never arrives ends the wait with a clear message instead of hanging the job.
#pragma once

#include "ranks/rank_exchange.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plugbench {

// Where this process stands among the ranks.
struct RankPlace {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0;   // among the ranks on this host
  int local_ranks = 1;  // ranks on this host
};

class RankGroup {
 public:
  virtual ~RankGroup() = default;
  const RankPlace& place() const { return place_; }
  bool is_root() const { return place_.rank == 0; }
  bool alone() const { return place_.ranks == 1; }
  // Started by an MPI launcher (even as a job of one rank).
  bool launched() const { return launched_; }

  // The largest of every rank's `value`, on every rank (e.g. 0: go on; a signal number: stop).
  // Waits at most `timeout_s` seconds for the others (0: no limit); nullopt when that ran out.
  // Once `hurry` (when given) says so, at most `hurried_s` more: a rank that was told to stop may
  // not have long (Open MPI's launcher sends SIGTERM to every rank when one dies, and SIGKILL
  // odls_base_sigkill_timeout seconds later, 1 by default).
  virtual std::optional<int> agree_max(int value, double timeout_s,
                                       const std::function<bool()>& hurry = {},
                                       double hurried_s = 0) = 0;
  // The root's `text`, on every rank.
  virtual std::string broadcast(const std::string& text) = 0;
  // Every rank's `text`, in rank order, at the root; empty on the other ranks.
  virtual std::vector<std::string> gather(const std::string& text) = 0;
  // The data collectives of distributed workloads over every rank, and over this rank alone
  // (the same library, so that a one-rank time compares with the job's).
  virtual std::unique_ptr<RankExchange> exchange() = 0;
  virtual std::unique_ptr<RankExchange> exchange_alone() = 0;
  // Ends every rank of the job with `exit_code` (after a wait ran out).
  [[noreturn]] virtual void abort_job(int exit_code) = 0;

 protected:
  RankPlace place_;
  bool launched_ = false;
};

// The group this process belongs to. With an MPI build, a process started by a launcher joins
// MPI_COMM_WORLD (MPI_Init here, MPI_Finalize when the group goes); otherwise a group of one.
// Throws std::runtime_error when a launcher started several ranks of a harness built without MPI:
// each would run the whole matrix alone and write the same file.
std::unique_ptr<RankGroup> join_rank_group(int* argc, char*** argv);

// "OMPI_COMM_WORLD_SIZE=4" when the environment says an MPI launcher started this process as one
// of several ranks; empty otherwise.
std::string launcher_rank_count();

// Whether this harness was built with MPI.
bool built_with_mpi();

// A group of one, for a harness started without a launcher.
std::unique_ptr<RankGroup> solo_rank_group();

}  // namespace plugbench
