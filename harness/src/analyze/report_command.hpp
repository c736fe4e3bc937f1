// report_command.hpp: `harness report FILE.json [MORE.json ...] --out DIR`: DIR/index.html, one
// self-contained page with each file's machine, tables, charts and crossover, and each later
// file compared to the first (analyze/report_page.hpp; docs/exports.md).
#pragma once

namespace plugbench {

// Exit codes of harness report: 0 written, 2 a usage error or a file that is not readable
// results, 4 the page could not be written.
enum ReportExitCode { kReportDone = 0, kReportInputError = 2, kReportOutputError = 4 };

// argv[0] is "report".
int run_report(int argc, const char* const* argv);

}  // namespace plugbench
