// results_reader_fuzzer.cpp: libFuzzer's target for the results reader. Any bytes are read as a
// results file; a file the reader refuses must be refused with ResultsFileError (the commands'
// "cannot read" exit 2), and a file it accepts must export in every format without an exception
// (which the commands would report as an internal error). A crash, a sanitizer report, or any
// other exception is a finding.
#include "results/exports.hpp"
#include "results/results_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void finding(const char* where, const std::exception& e) {
  std::fprintf(stderr, "results_reader_fuzzer: %s threw %s\n", where, e.what());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace plugbench;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ResultsFile file;
  try {
    file = parse_results_text(text, "fuzz.json");
  } catch (const ResultsFileError&) {
    return 0;  // refused with a message: what the reader is for
  } catch (const std::exception& e) {
    finding("parse_results_text", e);
  }
  try {
    std::size_t streamed = 0;
    write_gbench(file, true, [&](std::string_view piece) { streamed += piece.size(); });
    for (ExportFormat format : {ExportFormat::gbench, ExportFormat::bmf, ExportFormat::gab}) {
      export_document(file, format).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    cells_left_out(file);
    cells_suspect(file);
  } catch (const std::exception& e) {
    finding("an export", e);
  }
  return 0;
}
