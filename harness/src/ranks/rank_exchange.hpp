// rank_exchange.hpp: the data a distributed workload moves between ranks (MPI collectives over
// the ranks of a job, or over this rank alone). Buffers are passed as they are: host memory, or a
// GPU's where the MPI library reads and writes device memory (device_buffers()). Every wait is
// bounded: a rank that never arrives ends it with ExchangeTimeout instead of hanging the job.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

class ExchangeTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether the MPI library takes device (CUDA) pointers, and how that was learnt.
struct DeviceBufferSupport {
  bool usable = false;
  std::string how;  // e.g. "MPIX_Query_cuda_support() = 1 (Open MPI 4.1.4)"
};

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  virtual DeviceBufferSupport device_buffers() const = 0;
  // The longest any one call waits for the other ranks (0: no limit).
  void set_timeout(double seconds) { timeout_s_ = seconds; }

  virtual void barrier() = 0;
  // Every rank's `values` added element-wise, in place (host or, where usable, device memory).
  virtual void allreduce_sum(std::int64_t* values, int count) = 0;
  // Every rank's `mine` (the same length on every rank), concatenated in rank order; host memory.
  virtual std::vector<std::int64_t> allgather(const std::vector<std::int64_t>& mine) = 0;
  // send_bytes[r] bytes from `send` (packed in rank order) to rank r; recv_bytes[r] bytes from
  // rank r into `recv` (packed in rank order).
  virtual void alltoallv(const void* send, const std::vector<std::uint64_t>& send_bytes, void* recv,
                         const std::vector<std::uint64_t>& recv_bytes) = 0;

 protected:
  double timeout_s_ = 0;
};

// This rank alone without MPI (a harness started without a launcher, or built without MPI).
std::unique_ptr<RankExchange> solo_exchange();

}  // namespace plugbench
