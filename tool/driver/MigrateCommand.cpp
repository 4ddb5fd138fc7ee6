//===- MigrateCommand.cpp - metacu migrate FILES... -----------------------===//
//
// Rewrites the convertible __CUDA_ARCH__ conditionals of the files into
// 'if codegen' chains, reporting what changed and what was left and why.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "migrate/Audit.h"
#include "migrate/Migrate.h"
#include "support/Output.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand
    MigrateSubcommand("migrate",
                      "rewrites the convertible __CUDA_ARCH__ sites into 'if "
                      "codegen'");

static cl::list<std::string> Files(cl::Positional, cl::desc("<files>"),
                                   cl::OneOrMore, cl::sub(MigrateSubcommand),
                                   cl::cat(MetacuCategory));
static cl::opt<std::string> OutDir("o",
                                   cl::desc("Directory for the migrated files"),
                                   cl::value_desc("dir"),
                                   cl::sub(MigrateSubcommand),
                                   cl::cat(MetacuCategory));
static cl::opt<bool> InPlace("in-place",
                             cl::desc("Rewrite the files where they are"),
                             cl::sub(MigrateSubcommand),
                             cl::cat(MetacuCategory));
static cl::opt<bool> DryRun("dry-run",
                            cl::desc("Print the changes as a unified diff"),
                            cl::sub(MigrateSubcommand),
                            cl::cat(MetacuCategory));

int runMigrateCommand() {
  if (!DryRun && InPlace == !OutDir.empty())
    return reportFailure(llvm::createStringError(
        "say where the migrated files go: -o DIR or --in-place (or "
        "--dry-run to see the changes)"));
  // With --dry-run the diff is the output; the report goes beside it.
  llvm::raw_ostream &Report = DryRun ? llvm::errs() : llvm::outs();
  for (const std::string &File : Files) {
    auto Flags = compileFlagsFor(File);
    if (!Flags)
      return reportFailure(Flags.takeError());
    AuditOptions Opts;
    Opts.Flags = std::move(*Flags);
    Opts.Toolkit = CudaToolkit::find(CudaPathOption);
    auto Audit = auditFile(File, Opts);
    if (!Audit)
      return reportFailure(Audit.takeError());
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return reportFailure(llvm::createStringError(
          "cannot read '" + File + "': " + Buf.getError().message()));
    llvm::StringRef Text = (*Buf)->getBuffer();
    Migration M = migrate(File, Text, Audit->front().Sites);
    for (const std::string &Line : M.Report)
      Report << Line << '\n';
    for (size_t I = 1; I < Audit->size(); ++I)
      if (llvm::any_of((*Audit)[I].Sites,
                       [](const Site &S) { return isConvertible(S.Category); }))
        Report << (*Audit)[I].Path
               << ": note: included header with __CUDA_ARCH__ sites; "
                  "migrate only rewrites the files it is given\n";
    if (DryRun) {
      llvm::outs() << unifiedDiff(File, Text, M.Edits);
      continue;
    }
    std::string Dest = File;
    if (!OutDir.empty()) {
      if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
        return reportFailure(llvm::createStringError(
            "cannot create '" + OutDir + "': " + EC.message()));
      llvm::SmallString<256> P(OutDir);
      llvm::sys::path::append(P, llvm::sys::path::filename(File));
      Dest = std::string(P);
    }
    if (auto Err = writeOutput(Dest, M.Text))
      return reportFailure(std::move(Err));
  }
  return 0;
}

} // namespace metacu
