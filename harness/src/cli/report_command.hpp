// report_command.hpp: `harness report FILE.json [MORE.json ...] --out DIR`: DIR/index.html, one
// self-contained page with each file's machine, tables, charts and crossover, and each later
// file compared to the first (analyze/report_page.hpp; docs/exports.md); with `--trend FILTER`
// (and `--history DB`), trends from the results history at its end (docs/history.md).
#pragma once

namespace plugbench {

// Exit codes of harness report: 0 written; 2 a usage error, a file that is not readable results,
// or a --trend that matches no cell of the history; 4 the page could not be written, or the
// --history database cannot be used (as harness history's exit 4).
enum ReportExitCode { kReportDone = 0, kReportInputError = 2, kReportOutputError = 4 };

// argv[0] is "report".
int run_report(int argc, const char* const* argv);

}  // namespace plugbench
