// dist_reduce.cpp: reduce over K MPI ranks: each rank sums its slice of the whole problem with a
// plugin's reduce kernel, then MPI_Allreduce adds the int64 partial sums, so that every rank holds
// the sum of the whole.
//
// Reference: reduce's, of the whole problem (reduce's inputs: mod100, signed, near_max).
// Verification: exact, on every rank: each rank's sum must equal the whole problem's; a rank whose
// sum differs is named.
#include "distributed_workload.hpp"

#include <cstdint>

namespace plugbench {
namespace {

class DistReduce final : public DistributedWorkload {
 public:
  std::string name() const override { return "dist_reduce"; }
  std::string description() const override {
    return "reduce over MPI ranks: local int64 sums, then MPI_Allreduce";
  }
  std::string kernel_workload() const override { return "reduce"; }

  std::vector<OutputSpec> local_outputs(std::uint64_t) const override {
    return {{"sum", ElementType::int64, 1}};
  }

  RankSummary summarize(const std::vector<HostArray>& outputs) const override {
    if (outputs.size() != 1 || outputs[0].type() != ElementType::int64 || outputs[0].count() != 1) {
      throw std::logic_error("dist_reduce: a rank's output is not one int64 sum");
    }
    return {outputs[0].as<std::int64_t>()[0]};
  }

  Verification verify_ranks(const ProblemData& whole, const Reference& reference,
                            const std::vector<RankSummary>& summaries) const override {
    Verification result;
    std::uint64_t wrong = 0;
    for (std::size_t rank = 0; rank < summaries.size(); ++rank) {
      HostArray sum("sum", ElementType::int64, 1);
      sum.as<std::int64_t>()[0] = summaries[rank].at(0);
      Verification mine = local().verify(whole, reference, {sum});
      if (rank == 0 || (!mine.passed && wrong == 0)) result = mine;
      if (!mine.passed) {
        if (wrong == 0) result.detail = "rank " + std::to_string(rank) + ": " + mine.detail;
        ++wrong;
      }
    }
    result.compared = "sum of " + std::to_string(whole.shape.n) + " int32 as int64 over " +
                      std::to_string(summaries.size()) +
                      (summaries.size() == 1 ? " rank" : " ranks");
    if (wrong > 0) {
      result.passed = false;
      result.error_measure = "ranks holding a wrong sum";
      result.error = static_cast<double>(wrong);
      result.tolerance = 0;
    }
    return result;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& whole) const override {
    return local().reference(whole);
  }
  void write_reference(const Reference& reference, std::ostream& out) const override {
    local().write_reference(reference, out);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    return local().read_reference(in);
  }
  std::optional<MemoryPattern> peak_pattern() const override { return MemoryPattern::read; }
  Traffic traffic(const ProblemData& part, const Reference&) const override {
    return minimum_traffic(part, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(DistReduce);

}  // namespace
}  // namespace plugbench
