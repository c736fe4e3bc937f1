// distributed_workload.hpp: a workload solved by K MPI ranks together. Each rank holds a slice of
// one whole problem (the single-rank workload's inputs, so the generators are shared), a plugin's
// kernels of that workload do the local work, and the harness exchanges the results between the
// ranks (docs/mpi.md). Verification is of the whole answer: every rank summarizes its part in a few
// numbers, and the summaries of all ranks are checked together against the whole problem's
// reference. Header-only on purpose: every .cpp in this folder is a workload.
#pragma once

#include "verify_util.hpp"
#include "workload.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugbench {

// Where one rank's slice of n elements over `ranks` ranks begins and how long it is: near-equal
// contiguous parts, the first ranks no longer than the last (n = 10 over 4: 2, 3, 2, 3).
struct RankSlice {
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
};
inline RankSlice rank_slice(std::uint64_t n, int rank, int ranks) {
  // floor(n * r / ranks) without n * r overflowing.
  const auto start = [&](std::uint64_t r) { return n / ranks * r + n % ranks * r / ranks; };
  return {start(rank), start(rank + 1) - start(rank)};
}

// What a rank says about its part of the answer, for the verification of the whole.
using RankSummary = std::vector<std::int64_t>;

class DistributedWorkload : public Workload {
 public:
  bool distributed() const override { return true; }
  // The single-rank workload whose generator makes the whole problem.
  const Workload& local() const {
    const Workload* workload = WorkloadRegistry::instance().find(kernel_workload());
    if (workload == nullptr) throw std::logic_error("no workload " + kernel_workload());
    return *workload;
  }
  std::vector<std::string> distributions() const override { return local().distributions(); }
  std::vector<std::string> default_sizes() const override { return local().default_sizes(); }

  // The whole problem of shape.n elements: the local workload's, under this workload's name.
  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    ProblemData whole = local().generate(shape, distribution);
    whole.workload = name();
    return whole;
  }

  // Rank `rank`'s part of `whole`: its slice of every input, as a problem of the local workload
  // (what the plugin's kernel is called with).
  ProblemData rank_part(const ProblemData& whole, int rank, int ranks) const {
    const RankSlice slice = rank_slice(whole.shape.n, rank, ranks);
    ProblemData part =
        make_problem(kernel_workload(), whole.distribution, local().shape_for_count(slice.count));
    for (const HostArray& input : whole.inputs) {
      HostArray piece(input.name(), input.type(), slice.count);
      const std::size_t size = element_size(input.type());
      if (slice.count > 0) {
        std::memcpy(piece.data(),
                    static_cast<const unsigned char*>(input.data()) + slice.offset * size,
                    slice.count * size);
      }
      part.inputs.push_back(std::move(piece));
    }
    part.outputs = local_outputs(part.shape.n);
    return part;
  }

  // The outputs of the local kernel on a part of n elements.
  virtual std::vector<OutputSpec> local_outputs(std::uint64_t n) const = 0;
  // This rank's summary of `outputs`, the answer it holds after the exchange.
  virtual RankSummary summarize(const std::vector<HostArray>& outputs) const = 0;
  // The whole answer, from every rank's summary in rank order.
  virtual Verification verify_ranks(const ProblemData& whole, const Reference& reference,
                                    const std::vector<RankSummary>& summaries) const = 0;

  // One rank holding the whole problem: its outputs are the answer.
  Verification verify(const ProblemData& whole, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    if (auto wrong = check_output_layout(whole, outputs, description())) return *wrong;
    return verify_ranks(whole, reference, {summarize(outputs)});
  }

  // The traffic of one rank's local work on its part (the local workload's model).
  Traffic traffic(const ProblemData& part, const Reference&) const override {
    return minimum_traffic(part, MemoryPattern::copy);
  }
};

}  // namespace plugbench
