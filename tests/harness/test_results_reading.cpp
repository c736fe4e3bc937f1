// test_results_reading.cpp: a results file read a cell at a time (the cells' JSON never all at
// once), with the document, the typed cells and the messages what a whole parse gave; the gbench
// export written an entry at a time, the same text as the document it stands for.
#include "results/exports.hpp"
#include "results/results_reader.hpp"
#include "results/run_context.hpp"
#include "results/streamed_results.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plugbench {
namespace {

using plugbench::testing::read_text;

std::string committed_text() {
  return read_text(std::string(PLUGBENCH_SOURCE_DIR) + "/results/cpu-2core-default.json");
}

// What parse_streaming_results hands on, and the document it returns.
struct Streamed {
  nlohmann::json document;
  std::vector<nlohmann::json> cells;
  int restarts = 0;
};

Streamed stream(const std::string& text) {
  Streamed out;
  out.document = parse_streaming_results(
      text, [&](nlohmann::json&& cell) { out.cells.push_back(std::move(cell)); },
      [&] { ++out.restarts; });
  return out;
}

TEST(StreamedResults, EachCellIsHandedOnInOrderAndTheDocumentKeepsTheRest) {
  const std::string text = committed_text();
  const nlohmann::json whole = nlohmann::json::parse(text);
  Streamed streamed = stream(text);
  ASSERT_EQ(streamed.cells.size(), whole["results"].size());
  for (std::size_t i = 0; i < streamed.cells.size(); ++i) {
    EXPECT_EQ(streamed.cells[i], whole["results"][i]) << "cell " << i;
  }
  EXPECT_EQ(streamed.document["results"], nlohmann::json::array());
  nlohmann::json rest = whole;
  rest["results"] = nlohmann::json::array();
  EXPECT_EQ(streamed.document, rest);
  EXPECT_EQ(streamed.restarts, 0);
}

TEST(StreamedResults, OnlyTheTopLevelResultsArrayIsStreamed) {
  // A "results" key deeper down, scalar and array elements, nested values inside a cell.
  const std::string text =
      R"({"context":{"results":[{"a":1}]},"results":[1,"two",[3,[4]],{"x":{"y":[5,{"z":6}]}}],)"
      R"("schema_version":2,"z":{"results":[7]}})";
  Streamed streamed = stream(text);
  const nlohmann::json whole = nlohmann::json::parse(text);
  ASSERT_EQ(streamed.cells.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(streamed.cells[i], whole["results"][i]);
  EXPECT_EQ(streamed.document["context"], whole["context"]);
  EXPECT_EQ(streamed.document["z"], whole["z"]);

  // "results" that is not an array is the document's, as parsed.
  Streamed object = stream(R"({"results":{"a":{"b":1}},"schema_version":2})");
  EXPECT_TRUE(object.cells.empty());
  EXPECT_EQ(object.document["results"], nlohmann::json::parse(R"({"a":{"b":1}})"));
}

TEST(StreamedResults, ASecondResultsArrayStartsTheCellsAgainAsNlohmannKeepsTheLast) {
  Streamed streamed = stream(R"({"results":[{"n":1},{"n":2}],"results":[{"n":3}]})");
  EXPECT_EQ(streamed.restarts, 1);
  EXPECT_EQ(streamed.cells.size(), 3u);  // the reader drops the first two at the restart
  EXPECT_EQ(streamed.document["results"], nlohmann::json::array());
}

TEST(StreamedResults, BadTextThrowsWhatNlohmannThrows) {
  EXPECT_THROW(stream(R"({"results":[{"n":1})"), nlohmann::json::parse_error);
  EXPECT_THROW(stream(R"({"results":[1e400]})"), nlohmann::json::out_of_range);
  EXPECT_THROW(stream(""), nlohmann::json::parse_error);
}

TEST(StreamedResults, TheTopLevelScalarIsFoundWithoutTheDocument) {
  EXPECT_EQ(top_level_scalar(R"({"results":[{"schema_version":9}],"schema_version":2})",
                             "schema_version"),
            nlohmann::json(2));
  EXPECT_EQ(top_level_scalar(R"({"schema_version":1,"schema_version":"x"})", "schema_version"),
            nlohmann::json("x"));
  EXPECT_FALSE(top_level_scalar(R"({"schema_version":[2]})", "schema_version"));
  EXPECT_FALSE(top_level_scalar(R"([{"schema_version":2}])", "schema_version"));
  EXPECT_FALSE(top_level_scalar(R"({"schema_version":2)", "schema_version"));
}

TEST(ResultsReader, CellsAreTypedAndTheirJsonKeptOnlyWhenAsked) {
  const std::string text = committed_text();
  const nlohmann::json whole = nlohmann::json::parse(text);
  const ResultsFile dropped = parse_results_text(text, "run.json");
  ASSERT_EQ(dropped.cells.size(), whole["results"].size());
  EXPECT_EQ(dropped.document["results"], nlohmann::json::array());
  EXPECT_FALSE(dropped.cell_json_kept);
  const ResultsFile kept = parse_results_text(text, "run.json", CellJson::kept);
  EXPECT_TRUE(kept.cell_json_kept);
  EXPECT_EQ(kept.document, whole);  // the history's digest is of this document
  for (std::size_t i = 0; i < dropped.cells.size(); ++i) {
    EXPECT_EQ(dropped.cells[i].workload, whole["results"][i]["workload"].get<std::string>());
    EXPECT_EQ(dropped.cells[i].shape.n, whole["results"][i]["n"].get<std::uint64_t>());
    EXPECT_EQ(to_json(dropped.cells[i]), to_json(kept.cells[i]));
  }
}

// The context is typed once when a file is read: what a run writes reads back the same, and a
// field of the wrong type (a file edited by hand, an older one) is left blank, never an error.
TEST(ResultsReader, TheContextIsTypedAndWhatIsWrittenReadsBackTheSame) {
  HostFacts host;
  host.name = "node7";
  host.cpu = "Some CPU";
  host.logical_cores = 16;
  host.memory_bytes = std::uint64_t{128} << 30;
  host.environment["OMP_PLACES"] = "cores";
  host.frequency_scaling = {{"scaling", nullptr}};
  BuildFacts build{"0.1.0", "abc123-dirty", "abc123", "GNU 13.3.0", "off"};
  nlohmann::json context = {{"time", "2026-12-05T16:00:00Z"},
                            {"host", to_json(host)},
                            {"build", to_json(build)},
                            {"settings", {{"cache", "cold"}, {"repetitions", 10}}},
                            {"devices", {{{"name", "NVIDIA H200"}, {"driver_version", "13.0"}}}},
                            {"peaks",
                             {{{"memory_space", "host"}, {"pattern", "read"}, {"gbps", 98.5}},
                              {{"memory_space", "host"}, {"gbps", "fast"}}}},
                            {"plugins",
                             {{{"name", "openmp"},
                               {"memory_space", "host"},
                               {"process", {{"cpus", 16}, {"openmp_threads", 16}}}}}}};
  RunContext run = run_context_from_json(context);
  EXPECT_EQ(to_json(run.host), to_json(host));
  EXPECT_EQ(to_json(run.build), to_json(build));
  EXPECT_EQ(setting_text(run.settings, "repetitions"), "10");
  ASSERT_EQ(run.devices.size(), 1u);
  EXPECT_EQ(run.devices[0].name, "NVIDIA H200");
  ASSERT_EQ(run.peaks.size(), 1u);  // the one without a number is left out
  EXPECT_EQ(run.peaks[0].gbps, 98.5);
  ASSERT_EQ(run.plugins.size(), 1u);
  EXPECT_EQ(run.plugins[0].cpus, std::optional<std::uint64_t>(16));

  context["host"]["logical_cores"] = "sixteen";
  context["host"]["memory_bytes"] = -1;
  context["build"] = "not an object";
  context["settings"]["repetitions"] = "automatic";
  context["plugins"][0]["process"]["cpus"] = 1.5;
  run = run_context_from_json(context);
  EXPECT_EQ(run.host.logical_cores, 0u);
  EXPECT_EQ(run.host.memory_bytes, 0u);
  EXPECT_EQ(run.host.name, "node7");
  EXPECT_EQ(run.build.git_commit, "");
  EXPECT_EQ(setting_text(run.settings, "repetitions"), "automatic");
  EXPECT_FALSE(run.plugins[0].cpus);
  EXPECT_TRUE(run_context_from_json(nlohmann::json::array()).host.name.empty());

  // A file without a context is read as it is: the history knows a file by its document's digest.
  const ResultsFile bare = parse_results_text(R"({"schema_version":2,"results":[]})", "bare.json");
  EXPECT_FALSE(bare.document.contains("context")) << bare.document.dump();
  EXPECT_TRUE(bare.context.host.name.empty());
}

// What the tables, the exports and the history read of a context beside the machine's facts:
// the command line, the baseline, the devices' identities, the plugins' build and the MPI ranks.
TEST(ResultsReader, TheContextTypesWhatTheReadersTakeAndLeavesTheRestEmpty) {
  nlohmann::json context = {
      {"command_line", "harness run --plugins openmp"},
      {"settings", {{"baseline", "cpu_serial"}, {"outlier_threshold", 0.2}}},
      {"devices", {{{"name", "NVIDIA H200"}, {"uuid", "GPU-1"}, {"pci_bus_id", "0000:01:00.0"}}}},
      {"plugins",
       {{{"name", "cuda"}, {"status", "available"}, {"build_info", {{"cccl", "2.8.0"}}}}}},
      {"mpi",
       {{"ranks",
         {{{"rank", 0}, {"host", "node-a"}},
          {{"rank", "one"}, {"host", "node-b"}},
          {{"rank", -1}, {"host", "node-c"}}}}}}};
  RunContext run = run_context_from_json(context);
  EXPECT_EQ(run.command_line, "harness run --plugins openmp");
  EXPECT_EQ(run.settings.baseline, "cpu_serial");
  EXPECT_EQ(run.settings.outlier_threshold, std::optional<double>(0.2));
  ASSERT_EQ(run.devices.size(), 1u);
  EXPECT_EQ(run.devices[0].uuid, "GPU-1");
  EXPECT_EQ(run.devices[0].pci_bus_id, "0000:01:00.0");
  ASSERT_EQ(run.plugins.size(), 1u);
  EXPECT_EQ(run.plugins[0].status, "available");
  EXPECT_EQ(run.plugins[0].build_info, nlohmann::json({{"cccl", "2.8.0"}}));
  ASSERT_TRUE(run.mpi);
  ASSERT_EQ(run.mpi->ranks.size(), 3u);
  EXPECT_EQ(run.mpi->ranks[0].rank, std::optional<int>(0));
  EXPECT_EQ(run.mpi->ranks[0].host, "node-a");
  EXPECT_FALSE(run.mpi->ranks[1].rank);  // not a number: names no rank
  EXPECT_FALSE(run.mpi->ranks[2].rank);

  context.erase("mpi");
  context["command_line"] = 7;
  context["settings"]["baseline"] = nullptr;
  run = run_context_from_json(context);
  EXPECT_FALSE(run.mpi);  // a run of one process
  EXPECT_EQ(run.command_line, "");
  EXPECT_EQ(run.settings.baseline, "");
}

// The run writes its file's run fields from the typed context: what is read back writes the
// same JSON, the parts no command reads (a device's clocks, a plugin's kernels, a rank's
// placement) carried beside the typed fields, whole numbers written as integers.
TEST(RunContext, WhatTheRunWritesReadsBackAndWritesTheSame) {
  // Committed runs of this writer's shape (an older file may lack a setting added since).
  for (const char* committed :
       {"/results/cpu-2core-default.json", "/results/h100/aa/pair1-b.json"}) {
    const nlohmann::json document =
        nlohmann::json::parse(read_text(std::string(PLUGBENCH_SOURCE_DIR) + committed));
    nlohmann::json fields = {{"complete", document["complete"]}, {"context", document["context"]}};
    EXPECT_EQ(to_json(run_context_from_document(document)), fields) << committed;
  }
  const nlohmann::json written = {
      {"complete", false},
      {"interrupted_by_signal", 15},
      {"context",
       {{"time", "2026-12-05T16:00:00Z"},
        {"run_id", "0123456789abcdef"},
        {"command_line", "harness -r 5"},
        {"host", to_json(HostFacts{})},
        {"build", to_json(BuildFacts{})},
        {"settings",
         {{"cache", "warm"},
          {"order", "sequential"},
          {"order_seed", nullptr},
          {"host_memory", "both"},
          {"repetitions", 5},
          {"min_time_s", 0.5},
          {"warmup", 2},
          {"cell_budget_s", 2.0},
          {"throttle_threshold", 0.75},
          {"baseline", "openmp"},
          {"device", 1},
          {"isolation", "none"},
          {"timeout_s", 300.0},
          {"max_restarts", 3},
          {"mpi_sync", "none"},
          {"outlier_threshold", 0.1}}},
        {"devices",
         {{{"name", "NVIDIA H200"},
           {"driver_version", "13.0"},
           {"runtime_version", "12.9"},
           {"uuid", "GPU-1"},
           {"pci_bus_id", "0000:01:00.0"},
           {"reported_by", "cuda_naive"},
           {"clock_khz", 1980000},
           {"telemetry", "NVML"}}}},
        {"peaks", nlohmann::json::array()},
        {"plugins",
         {{{"name", "openmp"},
           {"status", "available"},
           {"memory_space", "host"},
           {"build_info", {{"openmp", "201511"}}},
           {"peak_gbps", 39.5},
           {"process", {{"cpus", 16}, {"openmp_threads", 16}}},
           {"kernels", {{{"workload", "reduce"}, {"variant", "parallel_for"}}}},
           {"path", "/p/libplugbench_openmp.so"}}}},
        {"own_threads_quiet",
         {{"waits", 4},
          {"waited_s", 0.25},
          {"over_limit", 0},
          {"limit_ms", 300.0},
          {"available", true}}},
        {"mpi",
         {{"ranks",
           {{{"rank", 0}, {"host", "node-a"}, {"local_rank", 0}, {"devices", {{"x", 1}}}},
            {{"rank", 1}, {"host", "node-a"}, {"cpus", "0-7"}}}},
          {"sync", "lockstep"},
          {"rank_count", 2},
          {"shared_gpus", {{{"host", "node-a"}, {"uuid", "GPU-1"}, {"ranks", {0, 1}}}}}}}}}};
  const RunContext run = run_context_from_document(written);
  EXPECT_FALSE(run.complete);
  EXPECT_EQ(run.interrupted_by_signal, std::optional<double>(15));
  EXPECT_EQ(setting_text(run.settings, "repetitions"), "5");
  EXPECT_EQ(run.run_id, "0123456789abcdef");
  EXPECT_EQ(run.devices.at(0).reported_by, "cuda_naive");
  EXPECT_EQ(run.plugins.at(0).peak_gbps, std::optional<double>(39.5));
  ASSERT_TRUE(run.mpi);
  EXPECT_EQ(run.mpi->shared_gpus.at(0).ranks, std::vector<int>({0, 1}));
  EXPECT_EQ(to_json(run), written);
  EXPECT_EQ(to_json(run).dump(), written.dump());  // 15, not 15.0; 300.0, not 300
}

// A file without "complete" was complete (older files, hand-made ones), as the commands have
// always read it; one stopped by a signal names the signal.
TEST(ResultsReader, CompleteIsReadLenientlyAndTheSignalWhereThereIsOne) {
  const ResultsFile bare = parse_results_text(R"({"schema_version":2,"results":[]})", "bare.json");
  EXPECT_TRUE(bare.context.complete);
  EXPECT_FALSE(bare.context.interrupted_by_signal);
  const ResultsFile cut = parse_results_text(
      R"({"schema_version":2,"results":[],"complete":false,"interrupted_by_signal":2})",
      "cut.json");
  EXPECT_FALSE(cut.context.complete);
  EXPECT_EQ(cut.context.interrupted_by_signal, std::optional<double>(2));
  const ResultsFile lost =
      parse_results_text(R"({"schema_version":2,"results":[],"complete":false})", "lost.json");
  EXPECT_FALSE(lost.context.complete);
  EXPECT_FALSE(lost.context.interrupted_by_signal);
  EXPECT_THROW(parse_results_text(R"({"schema_version":2,"results":[],"complete":"no"})", "x.json"),
               ResultsFileError);
}

TEST(ResultsReader, ACellOfTheWrongShapeIsNamedBeforeOneThatCannotBeRead) {
  nlohmann::json document = nlohmann::json::parse(committed_text());
  ASSERT_GE(document["results"].size(), 3u);
  document["results"][0].erase("shape");
  try {
    parse_results_text(document.dump(), "run.json");
    FAIL() << "a cell without its shape was read";
  } catch (const ResultsFileError& e) {
    EXPECT_EQ(std::string(e.what()), "run.json: cell 0 cannot be read: key 'shape' not found");
  }
  document["results"][2].erase("workload");
  try {
    parse_results_text(document.dump(), "run.json");
    FAIL() << "a cell without its workload was read";
  } catch (const ResultsFileError& e) {
    EXPECT_EQ(std::string(e.what()), "run.json: results[2] has no 'workload' string");
  }
}

// A count that is no count of its type (1e10 repetitions for an int, -1 bytes, 2.5 threads) is a
// cell that cannot be read, named: a cast of it would be undefined behaviour (the fuzz target's
// UBSan found them).
TEST(ResultsReader, ACountOutOfItsTypesRangeIsRefusedNotCast) {
  const nlohmann::json committed = nlohmann::json::parse(committed_text());
  const std::vector<std::pair<std::string, nlohmann::json>> bad = {
      {"/time/kernel/repetitions", 1e10},
      {"/time/kernel/repetitions", 2.5},
      {"/workspace_bytes", -1},
      {"/workspace_bytes", 1e30},
      {"/shape/width", nlohmann::json::parse("18446744073709551616.0")}};
  for (const auto& [pointer, value] : bad) {
    nlohmann::json document = committed;
    document["results"][0][nlohmann::json::json_pointer(pointer)] = value;
    try {
      parse_results_text(document.dump(), "run.json");
      ADD_FAILURE() << pointer << " = " << value.dump() << " was read";
    } catch (const ResultsFileError& e) {
      EXPECT_NE(std::string(e.what()).find("run.json: cell 0 cannot be read: type must be an "
                                           "integer from"),
                std::string::npos)
          << e.what();
    }
  }
  // An integral float in range is a count.
  nlohmann::json document = committed;
  document["results"][0]["time"]["kernel"]["repetitions"] = 3.0;
  EXPECT_EQ(parse_results_text(document.dump(), "run.json").cells[0].kernel->repetitions, 3);
}

TEST(ResultsReader, ACellOfAnUnreadableVersionIsNotTypedAndTheVersionIsRefused) {
  nlohmann::json document = nlohmann::json::parse(committed_text());
  document["schema_version"] = 99;
  document["results"][0].erase("shape");
  try {
    parse_results_text(document.dump(), "run.json");
    FAIL() << "a newer file was read";
  } catch (const ResultsFileError& e) {
    EXPECT_NE(std::string(e.what()).find("schema_version 99 was written by a newer harness"),
              std::string::npos)
        << e.what();
  }
}

TEST(Exports, TheGbenchExportWrittenAnEntryAtATimeIsTheDocumentsText) {
  nlohmann::json document = nlohmann::json::parse(committed_text());
  document["results"][1]["status"] = "error";  // an error entry, or a cell left out
  std::vector<nlohmann::json> variants = {document, document};
  variants[1]["results"] = nlohmann::json::array();  // no entry at all: "benchmarks": []
  for (const nlohmann::json& variant : variants) {
    const ResultsFile file = parse_results_text(variant.dump(), "run.json");
    for (bool error_entries : {false, true}) {
      std::string streamed;
      write_gbench(file, error_entries, [&](std::string_view piece) { streamed += piece; });
      EXPECT_EQ(streamed, gbench_document(file, error_entries).dump(2) + "\n")
          << "cells " << file.cells.size() << ", error entries " << error_entries;
    }
  }
}

}  // namespace
}  // namespace plugbench
