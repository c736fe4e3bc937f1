// test_buffer_contract.cpp: after the checked call the harness checks that a kernel kept to its
// buffers (tests/fake_plugins/buffer_contract_plugin.cpp): an input it wrote, or bytes it wrote
// past an output, fail the cell's verification with what it did, in a worker process and in the
// harness's own, on host and (posing) device memory, while honest kernels stay verified.
#include "load/plugin_loader.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::CommandResult;
using plugbench::testing::contains;
using plugbench::testing::fake_plugin_dir;
using plugbench::testing::read_json;
using plugbench::testing::run_harness;
using plugbench::testing::TempFolder;

const std::string kOneBytePastSum =
    "wrote past output 0 (sum) by at least 1 byte (it holds 8 bytes; the guard bytes the harness "
    "places after it were changed)";
const std::string kFourKibPastSum =
    "wrote past output 0 (sum) by at least 4096 bytes (it holds 8 bytes; the guard bytes the "
    "harness places after it were changed)";
const std::string kFlippedY =
    "input 1 (y) modified: 1 of its 4000 bytes differ from what it was given, the first at byte 0 "
    "(inputs are read-only)";
const std::regex kSortedKeys(
    R"(input 0 \(keys\) modified: [1-9][0-9]* of its 4000 bytes differ from what it was given, )"
    R"(the first at byte [0-9]+ \(inputs are read-only\))");

// Runs the contract plugin in `folder` on reduce, sort and dot at n = 1000 (or the workloads and
// size given) under `isolation`, and returns its results file.
nlohmann::json run_contract(const std::string& folder, const std::string& plugin,
                            const std::string& isolation, CommandResult& result,
                            const std::string& workloads = "reduce,sort,dot",
                            const std::string& size = "1000") {
  TempFolder temp;
  const std::string path = temp.file("r.json");
  result = run_harness({"--plugin-dir", fake_plugin_dir(folder), "-p", plugin, "-w", workloads,
                        "-s", size, "-r", "3", "--warmup", "0", "--cache", "warm", "--isolation",
                        isolation, "--json", path, "-q"});
  return read_json(path);
}

const nlohmann::json& cell_of(const nlohmann::json& results, const std::string& workload,
                              const std::string& variant) {
  for (const nlohmann::json& cell : results.at("results")) {
    if (cell.at("workload") == workload && cell.at("variant") == variant) return cell;
  }
  static const nlohmann::json missing;
  ADD_FAILURE() << "no cell " << workload << "/" << variant << " in " << results.dump();
  return missing;
}

// Failed verification (not an error, not a crash) with exactly `message`, counted as `measure`.
void expect_breach(const nlohmann::json& cell, const std::string& message,
                   const std::string& measure, double error) {
  ASSERT_TRUE(cell.is_object());
  EXPECT_EQ(cell.at("status"), "failed") << cell.dump();
  EXPECT_EQ(cell.at("message"), message) << cell.dump();
  ASSERT_TRUE(cell.at("verification").is_object()) << cell.dump();
  EXPECT_FALSE(cell.at("verification").at("passed").get<bool>()) << cell.dump();
  EXPECT_EQ(cell.at("verification").at("error_measure"), measure) << cell.dump();
  EXPECT_EQ(cell.at("verification").at("error").get<double>(), error) << cell.dump();
}

void expect_verified(const nlohmann::json& cell) {
  ASSERT_TRUE(cell.is_object());
  EXPECT_EQ(cell.at("status"), "ok") << cell.dump();
  EXPECT_TRUE(cell.at("verification").at("passed").get<bool>()) << cell.dump();
}

void expect_every_breach_caught(const std::string& folder, const std::string& plugin,
                                const std::string& isolation) {
  CommandResult r;
  const nlohmann::json results = run_contract(folder, plugin, isolation, r);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // failed verification, nothing crashed
  // The table's verified column says what each did.
  EXPECT_TRUE(contains(r.out, "NO (bytes written past output 0 (sum) 4.1e+03)")) << r.out;
  EXPECT_TRUE(contains(r.out, "NO (bytes changed in input 1 (y) 1.0e+00)")) << r.out;

  const nlohmann::json& in_place = cell_of(results, "sort", "sorts_input_in_place");
  EXPECT_EQ(in_place.at("status"), "failed") << in_place.dump();
  EXPECT_TRUE(std::regex_match(in_place.at("message").get<std::string>(), kSortedKeys))
      << in_place.dump();
  EXPECT_EQ(in_place.at("verification").at("error_measure"), "bytes changed in input 0 (keys)");
  EXPECT_FALSE(in_place.at("verification").at("passed").get<bool>());

  expect_breach(cell_of(results, "dot", "flips_a_byte_of_y"), kFlippedY,
                "bytes changed in input 1 (y)", 1);
  expect_breach(cell_of(results, "reduce", "overruns_1_byte"), kOneBytePastSum,
                "bytes written past output 0 (sum)", 1);
  expect_breach(cell_of(results, "reduce", "overruns_4096_bytes"), kFourKibPastSum,
                "bytes written past output 0 (sum)", 4096);
  // Right on the checked call, past its output in the timed calls: the check after them sees it.
  expect_breach(cell_of(results, "reduce", "overruns_after_first_call"),
                "after the timed calls: " + kOneBytePastSum, "bytes written past output 0 (sum)",
                1);
  expect_verified(cell_of(results, "reduce", "honest"));
  expect_verified(cell_of(results, "sort", "honest"));
}

TEST(BufferContract, AWrittenInputOrAnOverrunFailsVerificationInAWorkerProcess) {
  expect_every_breach_caught("contract", "fake_contract", "process");
}

TEST(BufferContract, AWrittenInputOrAnOverrunFailsVerificationInTheHarnessProcess) {
  expect_every_breach_caught("contract", "fake_contract", "none");
}

TEST(BufferContract, DeviceBuffersAreReadBackAndCheckedTheSameWay) {
  expect_every_breach_caught("contract_device", "fake_contract_device", "process");
}

// Outputs of 2 MiB and more sit on huge pages first touched by the plugin's team: the guard still
// starts at the output's exact size.
TEST(BufferContract, AHugePageOutputIsGuardedFromItsExactSize) {
  CommandResult r;
  const nlohmann::json results =
      run_contract("contract", "fake_contract", "process", r, "sort", "2^20");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  expect_breach(
      cell_of(results, "sort", "overruns_1_byte"),
      "wrote past output 0 (sorted) by at least 1 byte (it holds 4194304 bytes; the guard "
      "bytes the harness places after it were changed)",
      "bytes written past output 0 (sorted)", 1);
  expect_verified(cell_of(results, "sort", "honest"));
}

// Runs where CUDA was built and a GPU is present (the GPU machine); skipped elsewhere, with why.
TEST(BufferContract, DeviceMemoryOnTheGpuIsGuardedAndReadBack) {
  const std::string folder = fake_plugin_dir("cuda_buffer_contract");
  const std::string library = folder + "/libplugbench_cuda_buffer_contract.so";
  if (!std::filesystem::exists(library)) {
    GTEST_SKIP() << "built without CUDA: " << library << " does not exist";
  }
  PluginRecord plugin = load_plugin(library, "test");
  if (plugin.state != PluginState::available) {
    GTEST_SKIP() << plugin.name << " is " << to_string(plugin.state) << ": " << plugin.reason;
  }
  CommandResult r;
  const nlohmann::json results =
      run_contract("cuda_buffer_contract", "cuda_buffer_contract", "process", r, "reduce,sort");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  expect_breach(cell_of(results, "reduce", "overruns_1_byte"), kOneBytePastSum,
                "bytes written past output 0 (sum)", 1);
  expect_breach(cell_of(results, "reduce", "overruns_4096_bytes"), kFourKibPastSum,
                "bytes written past output 0 (sum)", 4096);
  const nlohmann::json& zeroed = cell_of(results, "reduce", "zeroes_its_input");
  EXPECT_EQ(zeroed.at("status"), "failed") << zeroed.dump();
  EXPECT_TRUE(contains(zeroed.at("message"), "input 0 (x) modified: ")) << zeroed.dump();
  const nlohmann::json& in_place = cell_of(results, "sort", "sorts_input_in_place");
  EXPECT_EQ(in_place.at("status"), "failed") << in_place.dump();
  EXPECT_TRUE(std::regex_match(in_place.at("message").get<std::string>(), kSortedKeys))
      << in_place.dump();
  expect_verified(cell_of(results, "reduce", "honest"));
  expect_verified(cell_of(results, "sort", "honest"));
}

}  // namespace
}  // namespace plugbench
