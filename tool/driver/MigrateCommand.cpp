//===- MigrateCommand.cpp - metacu migrate FILES... -----------------------===//
//
// Rewrites the convertible __CUDA_ARCH__ conditionals of the files into
// 'if codegen' chains, reporting what changed and what was left and why. A
// file that cannot be read is reported at its place and the others are
// still migrated; the run then fails.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "migrate/Migrate.h"
#include "support/Diagnostic.h"
#include "support/Output.h"

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

/// Where the migrated \p File goes.
static llvm::Expected<std::string> destination(llvm::StringRef File) {
  if (OutDir.empty())
    return File.str();
  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
    return llvm::createStringError("cannot create '" + OutDir +
                                   "': " + EC.message());
  llvm::SmallString<256> P(OutDir);
  llvm::sys::path::append(P, llvm::sys::path::filename(File));
  return std::string(P);
}

/// Audits and rewrites \p File, reporting each site to \p Report.
static llvm::Error migrateFile(llvm::StringRef File,
                               llvm::raw_ostream &Report) {
  auto Audit = auditAsCompiled(File);
  if (!Audit)
    return Audit.takeError();
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return llvm::make_error<SourceError>(File.str(), LineCol{}, std::nullopt,
                                         "cannot read the file: " +
                                             Buf.getError().message());
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
    return llvm::Error::success();
  }
  auto Dest = destination(File);
  if (!Dest)
    return Dest.takeError();
  return writeOutput(*Dest, M.Text);
}

int runMigrateCommand() {
  if (!DryRun && InPlace == !OutDir.empty())
    return reportFailure(llvm::createStringError(
        "say where the migrated files go: -o DIR or --in-place (or "
        "--dry-run to see the changes)"));
  // With --dry-run the diff is the output; the report goes beside it.
  llvm::raw_ostream &Report = DryRun ? llvm::errs() : llvm::outs();
  int Status = 0;
  for (const std::string &File : Files)
    if (auto Err = migrateFile(File, Report))
      Status = reportFailure(std::move(Err));
  return Status;
}

} // namespace metacu
