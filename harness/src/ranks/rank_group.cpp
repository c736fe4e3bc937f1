// rank_group.cpp: the group of one, and joining the right group.
#include "ranks/rank_group.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace plugbench {

#if PLUGBENCH_HAVE_MPI
std::unique_ptr<RankGroup> join_mpi_rank_group(int* argc, char*** argv);  // mpi_rank_group.cpp
#endif

namespace {

class SoloRankGroup final : public RankGroup {
 public:
  std::optional<int> agree_max(int value, double, const std::function<bool()>&, double) override {
    return value;
  }
  std::string broadcast(const std::string& text) override { return text; }
  std::vector<std::string> gather(const std::string& text) override { return {text}; }
  std::unique_ptr<RankExchange> exchange() override { return solo_exchange(); }
  std::unique_ptr<RankExchange> exchange_alone() override { return solo_exchange(); }
  [[noreturn]] void abort_job(int exit_code) override { std::exit(exit_code); }
};

// One rank: every collective is a copy within this process, in host memory.
class SoloExchange final : public RankExchange {
 public:
  int rank() const override { return 0; }
  int ranks() const override { return 1; }
  DeviceBufferSupport device_buffers() const override {
    return {false, "no MPI in this run (one rank): host memory only"};
  }
  void barrier() override {}
  void allreduce_sum(std::int64_t*, int) override {}
  std::vector<std::int64_t> allgather(const std::vector<std::int64_t>& mine) override {
    return mine;
  }
  void alltoallv(const void* send, const std::vector<std::uint64_t>& send_bytes, void* recv,
                 const std::vector<std::uint64_t>&) override {
    if (send_bytes.at(0) > 0) std::memmove(recv, send, send_bytes[0]);
  }
};

}  // namespace

std::string launcher_rank_count() {
  // Open MPI's mpirun, MPICH's Hydra, and PMI/PMIx launchers such as Slurm's srun --mpi=pmix.
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* value = std::getenv(variable);
    if (value && std::atoi(value) > 1) return std::string(variable) + "=" + value;
  }
  return "";
}

bool built_with_mpi() {
  return PLUGBENCH_HAVE_MPI != 0;
}

std::unique_ptr<RankExchange> solo_exchange() {
  return std::make_unique<SoloExchange>();
}

std::unique_ptr<RankGroup> solo_rank_group() {
  return std::make_unique<SoloRankGroup>();
}

std::unique_ptr<RankGroup> join_rank_group(int* argc, char*** argv) {
  const std::string launched = launcher_rank_count();
#if PLUGBENCH_HAVE_MPI
  // MPI_Init only under a launcher: a plain `harness` must not start an MPI runtime (singleton
  // start-up is slow and, as root, refused by Open MPI).
  if (!launched.empty() || std::getenv("OMPI_COMM_WORLD_RANK") || std::getenv("PMI_RANK") ||
      std::getenv("PMIX_RANK")) {
    return join_mpi_rank_group(argc, argv);
  }
#else
  (void)argc;
  (void)argv;
  if (!launched.empty()) {
    throw std::runtime_error(
        "started by an MPI launcher as one of several ranks (" + launched +
        "), but this harness was built without MPI: every rank would run the whole matrix alone. "
        "Install the MPI development package (e.g. libopenmpi-dev) and rebuild, or run the harness "
        "without mpirun");
  }
#endif
  return solo_rank_group();
}

}  // namespace plugbench
