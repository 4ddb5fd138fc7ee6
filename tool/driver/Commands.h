//===- Commands.h - The subcommands of metacu -----------------------------===//
//
// One file per subcommand, each declaring its own options (llvm::cl, under
// its SubCommand) and a run function main() calls once the command line is
// parsed. Each returns the process's exit status; only the driver prints
// errors and exits.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_DRIVER_COMMANDS_H
#define METACU_DRIVER_COMMANDS_H

#include "migrate/Site.h"
#include "migrate/Tree.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace metacu {

extern llvm::cl::SubCommand AuditSubcommand;
extern llvm::cl::SubCommand MigrateSubcommand;
extern llvm::cl::SubCommand TuneSubcommand;
extern llvm::cl::SubCommand ReportSubcommand;
extern llvm::cl::SubCommand LspSubcommand;

/// metacu INPUT.cu -o OUTPUT --arch LIST: the top-level command.
int runExpandCommand();
/// metacu audit FILES...
int runAuditCommand();
/// metacu migrate FILES...
int runMigrateCommand();
/// metacu tune ...
int runTuneCommand();
/// metacu report INPUT.cu --arch LIST ...
int runReportCommand();
/// metacu lsp [--arch LIST] [--pass host|ARCH]: a language server on stdio.
int runLspCommand();

/// The tree \p Args names (files and directories, Tree.h); an error if it
/// holds no CUDA source or header.
llvm::Expected<SourceTree> collectTree(llvm::ArrayRef<std::string> Args);

/// The audit of \p Tree, each file with the flags it is compiled with
/// (Options.h), \p Jobs at a time (0: one per core): what audit prints and
/// migrate rewrites.
TreeAudit auditTree(const SourceTree &Tree, unsigned Jobs);

} // namespace metacu

#endif
