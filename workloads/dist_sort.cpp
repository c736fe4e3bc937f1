// dist_sort.cpp: sort over K MPI ranks (sample sort): each rank sorts its slice of the whole
// problem with a plugin's sort kernel; the ranks choose K-1 splitters from regular samples of
// their sorted keys; each rank sends the keys between two splitters to the rank that owns that
// range (MPI_Alltoallv) and sorts what it received with the same kernel. Rank r ends with a sorted
// run of keys, every one of them <= every key of rank r+1 (docs/mpi.md: the exchange).
//
// Reference: the whole problem's multiset of keys (sort's inputs: uniform, sorted, reverse, equal,
// few, top_bit): its count and two order-free checksums (the keys' sum and the sum of a 64-bit
// mix of each key, both modulo 2^64).
// Verification: exact: every rank's keys ascending, every key of rank r <= every key of the next
// rank that holds keys, and the multiset of all ranks' keys the whole problem's (count and
// checksums). A rank whose keys are out of order, or out of order with the next, is named.
#include "byte_stream.hpp"
#include "distributed_workload.hpp"

#include <cstdint>
#include <limits>
#include <span>

namespace plugbench {
namespace {

// splitmix64's finalizer: a key's contribution to the second checksum, so that two multisets
// with the same count and sum (a key moved up by one, another down by one) still differ.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct KeyMultiset : Reference {
  std::uint64_t count = 0;
  std::uint64_t key_sum = 0;
  std::uint64_t mixed_sum = 0;
};

KeyMultiset multiset_of(std::span<const std::uint32_t> keys) {
  KeyMultiset set;
  set.count = keys.size();
  for (std::uint32_t key : keys) {
    set.key_sum += key;
    set.mixed_sum += mix(key);
  }
  return set;
}

// A rank's summary, field by field.
enum Field : std::size_t {
  kCount,
  kUnsortedAt,  // the first position whose key is below the one before it; -1: ascending
  kKeyBefore,   // the keys at kUnsortedAt - 1 and kUnsortedAt
  kKeyAt,
  kMin,
  kMax,
  kKeySum,  // the checksums, as int64 bit patterns
  kMixedSum,
  kFields
};

class DistSort final : public DistributedWorkload {
 public:
  std::string name() const override { return "dist_sort"; }
  std::string description() const override {
    return "sort over MPI ranks: local sorts, splitters from regular samples, MPI_Alltoallv";
  }
  std::string kernel_workload() const override { return "sort"; }

  std::vector<OutputSpec> local_outputs(std::uint64_t n) const override {
    return {{"sorted", ElementType::uint32, n}};
  }

  RankSummary summarize(const std::vector<HostArray>& outputs) const override {
    if (outputs.size() != 1 || outputs[0].type() != ElementType::uint32) {
      throw std::logic_error("dist_sort: a rank's output is not one array of uint32 keys");
    }
    std::span<const std::uint32_t> keys = outputs[0].as<std::uint32_t>();
    const KeyMultiset set = multiset_of(keys);
    RankSummary summary(kFields, 0);
    summary[kCount] = static_cast<std::int64_t>(keys.size());
    summary[kUnsortedAt] = -1;
    for (std::size_t i = 1; i < keys.size(); ++i) {
      if (keys[i] < keys[i - 1]) {
        summary[kUnsortedAt] = static_cast<std::int64_t>(i);
        summary[kKeyBefore] = keys[i - 1];
        summary[kKeyAt] = keys[i];
        break;
      }
    }
    summary[kMin] = keys.empty() ? 0 : keys.front();
    summary[kMax] = keys.empty() ? 0 : keys.back();
    summary[kKeySum] = static_cast<std::int64_t>(set.key_sum);
    summary[kMixedSum] = static_cast<std::int64_t>(set.mixed_sum);
    return summary;
  }

  Verification verify_ranks(const ProblemData& whole, const Reference& reference,
                            const std::vector<RankSummary>& summaries) const override {
    const auto& expected = dynamic_cast<const KeyMultiset&>(reference);
    Verification result;
    result.compared = std::to_string(whole.shape.n) + " uint32 keys sorted ascending over " +
                      std::to_string(summaries.size()) +
                      (summaries.size() == 1 ? " rank" : " ranks");
    result.error_measure = "ranks out of order, plus 1 for a multiset that differs";
    result.tolerance = 0;
    std::vector<std::string> problems;
    KeyMultiset got;
    int previous = -1;  // the last rank before this one that holds keys
    for (std::size_t rank = 0; rank < summaries.size(); ++rank) {
      const RankSummary& s = summaries[rank];
      if (s.size() != kFields) throw std::logic_error("dist_sort: a rank's summary is malformed");
      const std::string who = "rank " + std::to_string(rank);
      got.count += static_cast<std::uint64_t>(s[kCount]);
      got.key_sum += static_cast<std::uint64_t>(s[kKeySum]);
      got.mixed_sum += static_cast<std::uint64_t>(s[kMixedSum]);
      if (s[kUnsortedAt] >= 0) {
        problems.push_back(who + ": keys not ascending: position " +
                           std::to_string(s[kUnsortedAt]) + " holds " + std::to_string(s[kKeyAt]) +
                           " after " + std::to_string(s[kKeyBefore]));
      }
      if (s[kCount] == 0) continue;
      if (previous >= 0 && summaries[previous][kMax] > s[kMin]) {
        problems.push_back("rank " + std::to_string(previous) + "'s largest key " +
                           std::to_string(summaries[previous][kMax]) + " is above " + who +
                           "'s smallest " + std::to_string(s[kMin]));
      }
      previous = static_cast<int>(rank);
    }
    result.error = static_cast<double>(problems.size());
    if (got.count != expected.count || got.key_sum != expected.key_sum ||
        got.mixed_sum != expected.mixed_sum) {
      problems.push_back("the ranks hold another multiset of keys than the problem's: " +
                         std::to_string(got.count) + " keys, expected " +
                         std::to_string(expected.count) +
                         (got.count == expected.count ? " (the same count, other keys)" : ""));
      result.error += 1;
    }
    result.passed = problems.empty();
    if (result.passed) {
      result.detail = std::to_string(got.count) + " keys ascending over every rank, multiset equal";
    } else {
      for (const std::string& problem : problems) {
        result.detail += (result.detail.empty() ? "" : "; ") + problem;
      }
    }
    return result;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& whole) const override {
    return std::make_shared<KeyMultiset>(multiset_of(whole.inputs.at(0).as<std::uint32_t>()));
  }
  void write_reference(const Reference& reference, std::ostream& out) const override {
    const auto& set = dynamic_cast<const KeyMultiset&>(reference);
    write_value(out, set.count);
    write_value(out, set.key_sum);
    write_value(out, set.mixed_sum);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto set = std::make_shared<KeyMultiset>();
    set->count = read_value<std::uint64_t>(in);
    set->key_sum = read_value<std::uint64_t>(in);
    set->mixed_sum = read_value<std::uint64_t>(in);
    return set;
  }
};

PLUGBENCH_REGISTER_WORKLOAD(DistSort);

}  // namespace
}  // namespace plugbench
