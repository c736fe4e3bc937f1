// test_plugin_matrix.cpp: every shipped plugin x workload x variant (opt-in ones included), on
// every distribution, at the awkward sizes of awkward_sizes.hpp (tiny, prime, not powers of two;
// the same ones harness --check-plugin uses), checked against the harness's references. One test
// per kernel, registered at run time from what the plugins declare; a plugin that cannot run here
// (a GPU plugin without a GPU) is skipped with its reason. Every sort kernel also sorts keys skewed
// into one bucket of a radix split digit after digit.
#include "load/plugin_loader.hpp"
#include "measure/cell_protocol.hpp"
#include "plan/awkward_sizes.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>

namespace plugbench {
namespace {

struct CachedProblem {
  ProblemData data;
  std::shared_ptr<const Reference> reference;
};

// Problems and references are shared by all kernels of a workload.
const CachedProblem& problem_for(const Workload& workload, const std::string& distribution,
                                 const Shape& shape) {
  static std::map<std::tuple<std::string, std::string, std::uint64_t, std::uint64_t>,
                  std::unique_ptr<CachedProblem>>
      cache;
  auto key = std::make_tuple(workload.name(), distribution, shape.n, shape.width);
  auto& entry = cache[key];
  if (!entry) {
    entry = std::make_unique<CachedProblem>();
    entry->data = workload.generate(shape, distribution);
    entry->reference = workload.reference(entry->data);
  }
  return *entry;
}

// One registered kernel's test: skipped with the reason where its plugin cannot run here; the
// plugin's session (its worker state) is shared by all tests of the plugin.
class KernelTest : public ::testing::Test {
 public:
  KernelTest(const PluginRecord* plugin, const KernelRecord* kernel)
      : plugin_(plugin), kernel_(kernel) {}

  void TestBody() final {
    if (plugin_->state != PluginState::available) {
      GTEST_SKIP() << plugin_->name << " is " << to_string(plugin_->state) << ": "
                   << plugin_->reason;
    }
    static std::map<std::string, std::unique_ptr<PluginSession>> sessions;
    auto& session = sessions[plugin_->name];
    if (!session) session = std::make_unique<PluginSession>(*plugin_, 0);
    run(*session);
  }

 protected:
  virtual void run(PluginSession& session) = 0;

  const PluginRecord* plugin_;
  const KernelRecord* kernel_;
};

class KernelOnAwkwardSizes : public KernelTest {
 public:
  using KernelTest::KernelTest;

 private:
  void run(PluginSession& session) override {
    const Workload* workload = WorkloadRegistry::instance().find(kernel_->workload);
    ASSERT_NE(workload, nullptr) << "no workload named " << kernel_->workload;
    RunSettings settings;
    settings.repetitions = 1;
    settings.warmup = 0;
    settings.cache = CacheMode::warm;
    for (const std::string& distribution : workload->distributions()) {
      for (const Shape& shape : awkward_shapes(*workload)) {
        SCOPED_TRACE(distribution + " n=" + std::to_string(shape.n) + " (" +
                     std::to_string(shape.width) + "x" + std::to_string(shape.height) + ")");
        const CachedProblem& problem = problem_for(*workload, distribution, shape);
        CellResult cell =
            measure_cell(*workload, problem.data, *problem.reference, session, *kernel_, settings);
        if (cell.status == CellStatus::unsupported) continue;  // a declared limit, reported as such
        EXPECT_EQ(cell.status, CellStatus::ok) << cell.message;
        ASSERT_TRUE(cell.verification.has_value()) << cell.message;
        EXPECT_TRUE(cell.verification->passed) << cell.verification->detail;
        EXPECT_TRUE(cell.kernel.has_value());
      }
    }
  }
};

// Keys that leave most of them in one bucket of a radix split for several digits in a row, with a
// few spread over the whole range: every sort kernel, each of its levels of splits. And keys in
// order but for one pair between two evenly spaced samples, which a kernel that copies keys it
// finds in order (openmp's adaptive) must still sort.
struct SkewedKeys {
  const char* name;
  std::uint32_t (*key)(std::mt19937& gen);
  void (*arrange)(std::span<std::uint32_t> keys) = nullptr;
};

void one_pair_out_of_order(std::span<std::uint32_t> keys, bool ascending, bool last) {
  std::sort(keys.begin(), keys.end());
  if (!ascending) std::reverse(keys.begin(), keys.end());
  // Neither the pair past the middle nor the last is among 4096 evenly spaced samples.
  const std::size_t middle = last ? keys.size() - 2 : keys.size() / 2 + 5;
  std::swap(keys[middle], keys[middle + 1]);
  if (keys[middle] == keys[middle + 1]) keys[middle] += ascending ? 1 : -1;
}
const SkewedKeys kSkewedKeys[] = {
    {"one_prefix_of_three_bytes",
     [](std::mt19937& gen) -> std::uint32_t {
       return gen() % 100 == 0 ? gen() : 0x12345600u + gen() % 200;
     }},
    {"one_key_and_a_few_others",
     [](std::mt19937& gen) -> std::uint32_t { return gen() % 100 == 0 ? gen() : 0x12345678u; }},
    {"three_runs_under_one_top_byte",
     [](std::mt19937& gen) -> std::uint32_t {
       return gen() % 50 == 0 ? gen() : 0xAB000000u + (gen() % 3 << 16) + gen() % 65536;
     }},
    {"ascending_but_one_pair", [](std::mt19937& gen) -> std::uint32_t { return gen(); },
     [](std::span<std::uint32_t> keys) { one_pair_out_of_order(keys, true, false); }},
    {"descending_but_one_pair", [](std::mt19937& gen) -> std::uint32_t { return gen(); },
     [](std::span<std::uint32_t> keys) { one_pair_out_of_order(keys, false, false); }},
    {"ascending_but_the_last_pair", [](std::mt19937& gen) -> std::uint32_t { return gen(); },
     [](std::span<std::uint32_t> keys) { one_pair_out_of_order(keys, true, true); }},
};

class SortOnSkewedKeys : public KernelTest {
 public:
  using KernelTest::KernelTest;

 private:
  void run(PluginSession& session) override {
    const Workload* workload = WorkloadRegistry::instance().find("sort");
    ASSERT_NE(workload, nullptr);
    RunSettings settings;
    settings.repetitions = 1;
    settings.warmup = 0;
    settings.cache = CacheMode::warm;
    for (const SkewedKeys& keys : kSkewedKeys) {
      for (std::uint64_t n : {std::uint64_t{300007}, std::uint64_t{1} << 21}) {
        SCOPED_TRACE(std::string(keys.name) + " n=" + std::to_string(n));
        const Shape shape{n, n, 1};
        ProblemData problem = workload->generate(shape, "uniform");
        std::mt19937 gen(11);
        for (std::uint32_t& key : problem.inputs.at(0).as<std::uint32_t>()) key = keys.key(gen);
        if (keys.arrange != nullptr) keys.arrange(problem.inputs.at(0).as<std::uint32_t>());
        const auto reference = workload->reference(problem);
        CellResult cell = measure_cell(*workload, problem, *reference, session, *kernel_, settings);
        if (cell.status == CellStatus::unsupported) continue;
        EXPECT_EQ(cell.status, CellStatus::ok) << cell.message;
        ASSERT_TRUE(cell.verification.has_value()) << cell.message;
        EXPECT_TRUE(cell.verification->passed) << cell.verification->detail;
      }
    }
  }
};

void register_kernel_tests() {
  static const std::vector<PluginRecord> plugins =
      discover_plugins({{plugbench::testing::plugin_dir(), "test", true}});
  for (const PluginRecord& plugin : plugins) {
    for (const KernelRecord& kernel : plugin.kernels) {
      std::string name = plugin.name + "." + kernel.workload + "." + kernel.variant;
      // Opt-in kernels are tested too (cuda_optimized's teaching variants, and in a build with
      // -DPLUGBENCH_TUNINGS=ON its tunings, must be exact), all but the one that exists to give a
      // wrong answer (test_check_plugin.cpp pins that down).
      if (name == "cpu_serial.dot.float_accumulator") continue;
      ::testing::RegisterTest("PluginMatrix", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [plugin = &plugin, kernel = &kernel]() -> ::testing::Test* {
                                return new KernelOnAwkwardSizes(plugin, kernel);
                              });
      if (kernel.workload == "sort") {
        ::testing::RegisterTest("SortOnSkewedKeys", name.c_str(), nullptr, nullptr, __FILE__,
                                __LINE__,
                                [plugin = &plugin, kernel = &kernel]() -> ::testing::Test* {
                                  return new SortOnSkewedKeys(plugin, kernel);
                                });
      }
    }
  }
}

}  // namespace
}  // namespace plugbench

int main(int argc, char** argv) {
  // These tests check answers, not speed, beside other tests (ctest -j): the openmp plugin's
  // team of every CPU in each of eight of them took each other's CPUs (an openmp sort test took
  // 70 s on the 16-core GPU machine). Four threads still split every awkward size unevenly; the
  // teams take the calling thread's setting (omp_get_max_threads), a user's OMP_NUM_THREADS
  // stands. The harness runs of the other tests keep the whole machine's team.
  if (std::getenv("OMP_NUM_THREADS") == nullptr)
    omp_set_num_threads(std::min(omp_get_max_threads(), 4));
  ::testing::InitGoogleTest(&argc, argv);
  plugbench::register_kernel_tests();
  return RUN_ALL_TESTS();
}
