// export_command.hpp: `harness export FILE.json --to gbench|bmf|gab [--out PATH]`: a results file
// in a format other tools read (results/exports.hpp; docs/exports.md).
#pragma once

namespace plugbench {

// Exit codes of harness export: 0 written, 2 a usage error or a file that is not readable results,
// 4 the output could not be written.
enum ExportExitCode { kExportDone = 0, kExportInputError = 2, kExportOutputError = 4 };

// argv[0] is "export".
int run_export(int argc, const char* const* argv);

}  // namespace plugbench
