// mpi_rank_group.cpp: the ranks of MPI_COMM_WORLD (built only where CMake found MPI).
#include "ranks/rank_group.hpp"

// The C API only: the deprecated C++ bindings need a library of their own.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <thread>

namespace plugbench {
namespace {

// Waits for `request` for at most `timeout_s` (0: no limit), polling so that a rank whose
// partner never arrives can give up; once `hurry` says so, for at most `hurried_s` more. True
// when it completed.
bool wait_bounded(MPI_Request& request, double timeout_s, const std::function<bool()>& hurry,
                  double hurried_s) {
  using clock = std::chrono::steady_clock;
  auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
  bool bounded = timeout_s > 0;
  bool hurried = false;
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return true;
    if (!hurried && hurry && hurry()) {
      hurried = true;
      const auto soon = clock::now() + std::chrono::duration<double>(hurried_s);
      deadline = bounded ? std::min(deadline, soon) : soon;
      bounded = true;
    }
    if (bounded && clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// The run-time answer where the library has one (Open MPI's compile-time macro only says how it
// was built; a library built with UCX may still take device pointers).
DeviceBufferSupport query_device_buffers() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string library(version, static_cast<std::size_t>(std::max(0, length)));
  library = library.substr(0, library.find_first_of(",\n"));
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  const int answer = MPIX_Query_cuda_support();
  return {answer == 1, "MPIX_Query_cuda_support() = " + std::to_string(answer) + " (" + library +
                           ", built with MPIX_CUDA_AWARE_SUPPORT " +
                           std::to_string(MPIX_CUDA_AWARE_SUPPORT) + ")"};
#else
  return {false, "no MPIX_Query_cuda_support in " + library + ": taken as not CUDA-aware"};
#endif
}

// Waits for `request` without sleeping (the exchanges are timed), for at most `timeout_s`
// (0: no limit); throws ExchangeTimeout naming `what` when that runs out.
void wait_exchange(MPI_Request& request, double timeout_s, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (timeout_s > 0 && std::chrono::steady_clock::now() > deadline) {
      throw ExchangeTimeout(std::string(what) + ": a rank did not take part within " +
                            std::to_string(static_cast<int>(timeout_s)) +
                            " s (it failed or hangs; see its cell)");
    }
  }
}

int checked_count(std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("an exchange of " + std::to_string(bytes) +
                             " bytes to one rank is beyond MPI's int counts (2 GiB); use more "
                             "ranks or a smaller problem");
  }
  return static_cast<int>(bytes);
}

// The collectives of a distributed workload over one communicator.
class MpiExchange final : public RankExchange {
 public:
  explicit MpiExchange(MPI_Comm comm) : comm_(comm), support_(query_device_buffers()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &ranks_);
  }
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  DeviceBufferSupport device_buffers() const override { return support_; }

  void barrier() override {
    MPI_Request request;
    MPI_Ibarrier(comm_, &request);
    wait_exchange(request, timeout_s_, "MPI_Ibarrier");
  }
  void allreduce_sum(std::int64_t* values, int count) override {
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, MPI_SUM, comm_, &request);
    wait_exchange(request, timeout_s_, "MPI_Iallreduce");
  }
  std::vector<std::int64_t> allgather(const std::vector<std::int64_t>& mine) override {
    std::vector<std::int64_t> all(mine.size() * static_cast<std::size_t>(ranks_));
    MPI_Request request;
    MPI_Iallgather(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, all.data(),
                   static_cast<int>(mine.size()), MPI_INT64_T, comm_, &request);
    wait_exchange(request, timeout_s_, "MPI_Iallgather");
    return all;
  }
  void alltoallv(const void* send, const std::vector<std::uint64_t>& send_bytes, void* recv,
                 const std::vector<std::uint64_t>& recv_bytes) override {
    std::vector<int> send_counts, send_offsets, recv_counts, recv_offsets;
    std::uint64_t send_at = 0, recv_at = 0;
    for (int r = 0; r < ranks_; ++r) {
      send_counts.push_back(checked_count(send_bytes[r]));
      send_offsets.push_back(checked_count(send_at));
      send_at += send_bytes[r];
      recv_counts.push_back(checked_count(recv_bytes[r]));
      recv_offsets.push_back(checked_count(recv_at));
      recv_at += recv_bytes[r];
    }
    MPI_Request request;
    MPI_Ialltoallv(send, send_counts.data(), send_offsets.data(), MPI_BYTE, recv,
                   recv_counts.data(), recv_offsets.data(), MPI_BYTE, comm_, &request);
    wait_exchange(request, timeout_s_, "MPI_Ialltoallv");
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int ranks_ = 1;
  DeviceBufferSupport support_;
};

class MpiRankGroup final : public RankGroup {
 public:
  MpiRankGroup(int* argc, char*** argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      // Only the main thread calls MPI; the workers are separate processes that never do.
      MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
      owns_mpi_ = true;
    }
    launched_ = true;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &place_.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &place_.ranks);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, place_.rank, MPI_INFO_NULL, &host_);
    MPI_Comm_rank(host_, &place_.local_rank);
    MPI_Comm_size(host_, &place_.local_ranks);
  }

  ~MpiRankGroup() override {
    // Finalizing while an exception unwinds would wait for ranks that wait for this one.
    if (std::uncaught_exceptions() > 0) abort_job(4);
    if (host_ != MPI_COMM_NULL) MPI_Comm_free(&host_);
    if (owns_mpi_) MPI_Finalize();
  }

  std::optional<int> agree_max(int value, double timeout_s, const std::function<bool()>& hurry,
                               double hurried_s) override {
    int all = 0;
    MPI_Request request;
    MPI_Iallreduce(&value, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
    if (!wait_bounded(request, timeout_s, hurry, hurried_s)) return std::nullopt;
    return all;
  }

  std::string broadcast(const std::string& text) override {
    unsigned long long size = text.size();
    MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    std::string result = is_root() ? text : std::string(size, '\0');
    broadcast_bytes(result.data(), size);
    return result;
  }

  std::vector<std::string> gather(const std::string& text) override {
    return gather_over(MPI_COMM_WORLD, text, place_.rank == 0, place_.ranks);
  }

  std::unique_ptr<RankExchange> exchange() override {
    return std::make_unique<MpiExchange>(MPI_COMM_WORLD);
  }
  std::unique_ptr<RankExchange> exchange_alone() override {
    return std::make_unique<MpiExchange>(MPI_COMM_SELF);
  }

  [[noreturn]] void abort_job(int exit_code) override {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::exit(exit_code);
  }

 private:
  // MPI counts are ints: a large text goes in pieces.
  void broadcast_bytes(char* data, unsigned long long size) {
    constexpr unsigned long long kPiece = 1ull << 30;
    for (unsigned long long offset = 0; offset < size; offset += kPiece) {
      const int count = static_cast<int>(std::min(kPiece, size - offset));
      MPI_Bcast(data + offset, count, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
  }

  static std::vector<std::string> gather_over(MPI_Comm comm, const std::string& text, bool root,
                                              int members) {
    const unsigned long long size = text.size();
    std::vector<unsigned long long> sizes(root ? static_cast<std::size_t>(members) : 0);
    MPI_Gather(&size, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
    // Each rank's text in turn, point to point: no displacement overflows an int.
    std::vector<std::string> texts(sizes.size());
    int me = 0;
    MPI_Comm_rank(comm, &me);
    constexpr unsigned long long kPiece = 1ull << 30;
    if (root) {
      texts[0] = text;
      for (int r = 1; r < members; ++r) {
        texts[r].resize(sizes[r]);
        for (unsigned long long offset = 0; offset < sizes[r]; offset += kPiece) {
          const int count = static_cast<int>(std::min(kPiece, sizes[r] - offset));
          MPI_Recv(texts[r].data() + offset, count, MPI_CHAR, r, 0, comm, MPI_STATUS_IGNORE);
        }
      }
    } else {
      for (unsigned long long offset = 0; offset < size; offset += kPiece) {
        const int count = static_cast<int>(std::min(kPiece, size - offset));
        MPI_Send(text.data() + offset, count, MPI_CHAR, 0, 0, comm);
      }
    }
    return texts;
  }

  MPI_Comm host_ = MPI_COMM_NULL;
  bool owns_mpi_ = false;
};

}  // namespace

std::unique_ptr<RankGroup> join_mpi_rank_group(int* argc, char*** argv) {
  return std::make_unique<MpiRankGroup>(argc, argv);
}

}  // namespace plugbench
