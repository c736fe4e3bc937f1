// sort.cpp: n uint32 keys sorted ascending (the seeds' radix sort).
//
// Reference:
//   sorted = keys;
//   std::sort(sorted.begin(), sorted.end());
//
// Inputs, all from one std::mt19937 (seed 7):
//   uniform: keys = gen();
//   sorted / reverse: the uniform keys, already ascending / descending;
//   equal:   every key 0x2A2A2A2A (every radix digit the same);
//   few:     16 distinct random values, each key one of them picked by gen() % 16;
//   top_bit: keys just below and just above 2^31 (0x7FFF0000 + gen() % 2^16, or 0x80000000 +
//            gen() % 2^16, picked by gen() % 2), so that the top bit alone orders the two halves:
//            a sort that reads the keys as int32, or whose last radix pass ignores or sign-extends
//            the top digit, puts the upper half first. Not in the default run; --check-plugin and
//            the plugin-matrix tests run it.
//
// Verification: exact (integers): every element must equal the reference's.
#include "byte_stream.hpp"
#include "verify_util.hpp"
#include "workload.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#if defined(__GLIBCXX__) && defined(_OPENMP)
#include <parallel/algorithm>
#endif

namespace plugbench {
namespace {

constexpr std::uint32_t kEqualKey = 0x2A2A2A2A;
constexpr std::size_t kFewDistinct = 16;
constexpr std::uint32_t kBelowTopBit = 0x7FFF0000;  // + up to 0xFFFF: still below 2^31
constexpr std::uint32_t kAboveTopBit = 0x80000000;

struct SortReference : Reference {
  std::vector<std::uint32_t> sorted;
};

// kFewDistinct different values drawn from gen.
std::vector<std::uint32_t> distinct_values(std::mt19937& gen) {
  std::vector<std::uint32_t> values;
  while (values.size() < kFewDistinct) {
    const auto value = static_cast<std::uint32_t>(gen());
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  return values;
}

// std::sort on every host core where libstdc++'s parallel mode is there: at 2^28 keys the serial
// sort alone takes half a minute per distribution. The result is the same sorted sequence.
template <class Iterator, class Compare = std::less<>>
void sort_keys(Iterator first, Iterator last, Compare compare = {}) {
#if defined(__GLIBCXX__) && defined(_OPENMP)
  __gnu_parallel::sort(first, last, compare);
#else
  std::sort(first, last, compare);
#endif
}

class Sort final : public Workload {
 public:
  std::string name() const override { return "sort"; }
  std::string description() const override { return "uint32 keys sorted ascending"; }
  std::vector<std::string> distributions() const override {
    return {"uniform", "sorted", "reverse", "equal", "few", "top_bit"};
  }
  std::vector<std::string> default_sizes() const override { return {"2^20", "2^22"}; }

  ProblemData generate(const Shape& shape, const std::string& distribution) const override {
    require_distribution(*this, distribution);
    ProblemData problem = make_problem(name(), distribution, shape);
    HostArray keys("keys", ElementType::uint32, shape.n);
    std::span<std::uint32_t> values = keys.as<std::uint32_t>();
    std::mt19937 gen(7);
    if (distribution == "equal") {
      std::fill(values.begin(), values.end(), kEqualKey);
    } else if (distribution == "top_bit") {
      for (std::uint32_t& value : values) {
        const std::uint32_t base = gen() % 2 ? kAboveTopBit : kBelowTopBit;
        value = base + static_cast<std::uint32_t>(gen() % 65536);
      }
    } else if (distribution == "few") {
      const std::vector<std::uint32_t> pool = distinct_values(gen);
      for (std::uint32_t& value : values) value = pool[gen() % kFewDistinct];
    } else {
      for (std::uint32_t& value : values) value = static_cast<std::uint32_t>(gen());
      if (distribution == "sorted") sort_keys(values.begin(), values.end());
      if (distribution == "reverse") sort_keys(values.begin(), values.end(), std::greater<>());
    }
    problem.inputs.push_back(std::move(keys));
    problem.outputs.push_back({"sorted", ElementType::uint32, shape.n});
    return problem;
  }

  std::shared_ptr<const Reference> reference(const ProblemData& problem) const override {
    std::span<const std::uint32_t> keys = problem.inputs[0].as<std::uint32_t>();
    auto result = std::make_shared<SortReference>();
    result->sorted.assign(keys.begin(), keys.end());
    sort_keys(result->sorted.begin(), result->sorted.end());
    return result;
  }

  Verification verify(const ProblemData& problem, const Reference& reference,
                      const std::vector<HostArray>& outputs) const override {
    const auto& expected = dynamic_cast<const SortReference&>(reference).sorted;
    const std::string compared = std::to_string(problem.shape.n) + " uint32 keys sorted ascending";
    if (auto wrong_layout = check_output_layout(problem, outputs, compared)) return *wrong_layout;
    return compare_exactly(compared, "element", "elements",
                           std::span<const std::uint32_t>(expected),
                           outputs[0].as<std::uint32_t>());
  }

  void write_reference(const Reference& reference, std::ostream& out) const override {
    write_vector(out, dynamic_cast<const SortReference&>(reference).sorted);
  }
  std::shared_ptr<const Reference> read_reference(std::istream& in) const override {
    auto result = std::make_shared<SortReference>();
    result->sorted = read_vector<std::uint32_t>(in);
    return result;
  }

  Traffic traffic(const ProblemData& problem, const Reference&) const override {
    return minimum_traffic(problem, *peak_pattern());
  }
};

PLUGBENCH_REGISTER_WORKLOAD(Sort);

}  // namespace
}  // namespace plugbench
