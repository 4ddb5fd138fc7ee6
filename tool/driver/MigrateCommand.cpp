//===- MigrateCommand.cpp - metacu migrate FILES... -----------------------===//
//
// Rewrites the convertible __CUDA_ARCH__ sites of a tree (the files given
// and every source under the directories given, headers included) into
// 'if codegen' chains and __nvvm_arch values, reporting what changed and
// what was left and why, with counts at the end. A file that cannot be
// read is reported at its place and the others are still migrated; the
// run then fails.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "migrate/AuditPrinter.h"
#include "migrate/Migrate.h"
#include "migrate/Passes.h"
#include "support/Diagnostic.h"
#include "support/Output.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand
    MigrateSubcommand("migrate",
                      "rewrites the convertible __CUDA_ARCH__ sites into 'if "
                      "codegen'");

static cl::list<std::string> Files(cl::Positional,
                                   cl::desc("<files or directories>"),
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

static cl::opt<std::string> AssumeArch(
    "assume-arch",
    cl::desc("Simplify each conditional that the host and these "
             "architectures compile one branch of to that branch (the files "
             "are then right for them only)"),
    cl::value_desc("75,80,90"), cl::sub(MigrateSubcommand),
    cl::cat(MetacuCategory));

static cl::opt<unsigned>
    Jobs("j", cl::desc(".cu files audited at once (default: the cores)"),
         cl::value_desc("N"), cl::init(0), cl::sub(MigrateSubcommand),
         cl::cat(MetacuCategory));

/// Where the migrated \p File goes: below -o DIR as below the tree's
/// common directory, or where it is: in place, the file itself, never a
/// link to it, which a new file would replace.
static std::string destination(const SourceTree &Tree, llvm::StringRef File) {
  if (OutDir.empty()) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(File, Real))
      return File.str();
    return std::string(Real);
  }
  llvm::SmallString<256> P(OutDir);
  llvm::sys::path::append(P, Tree.relative(File));
  return std::string(P);
}

/// Refuses an -o DIR that would write into the tree being read: inside a
/// directory named (a later walk would read the output as sources), or
/// onto any file of the tree, however spelled.
static llvm::Error checkOutputFolder(const SourceTree &Tree) {
  if (OutDir.empty())
    return llvm::Error::success();
  if (std::optional<std::string> Root = Tree.rootHolding(OutDir))
    return llvm::createStringError(
        "the output folder '" + OutDir + "' is inside the tree it migrates ('" +
        *Root + "'): name a folder outside it, or use --in-place");
  for (const std::string &File : Tree.files())
    if (std::string Dest = destination(Tree, File); Tree.contains(Dest))
      return llvm::createStringError("-o " + OutDir + " would write '" + Dest +
                                     "' over '" + Tree.nameOf(Dest) +
                                     "', a file it migrates");
  return llvm::Error::success();
}

/// --assume-arch as a mask of the audit's passes, the host's included.
static llvm::Expected<std::optional<uint64_t>> assumedPasses() {
  if (AssumeArch.getNumOccurrences() == 0)
    return std::nullopt;
  auto List = ArchList::parse(AssumeArch);
  if (!List)
    return llvm::createStringError("--assume-arch: " +
                                   llvm::toString(List.takeError()));
  uint64_t Mask = 1;
  for (const Arch &A : List->archs())
    for (unsigned I = 0; I < NumPasses; ++I)
      if (auditPasses()[I] == A.CC)
        Mask |= uint64_t(1) << I;
  return Mask;
}

/// Rewrites \p FA's file of the tree, reporting each site to \p Report.
static llvm::Error migrateFile(const SourceTree &Tree, const FileAudit &FA,
                               std::optional<uint64_t> Assumed,
                               unsigned &Simplified,
                               llvm::raw_ostream &Report) {
  // A pipe would block the read forever, a device give anything.
  if (isSpecialFile(FA.Path))
    return llvm::make_error<SourceError>(FA.Path, LineCol{}, std::nullopt,
                                         "cannot read the file: not a "
                                         "regular file");
  auto Buf = llvm::MemoryBuffer::getFile(FA.Path);
  if (!Buf)
    return llvm::make_error<SourceError>(FA.Path, LineCol{}, std::nullopt,
                                         "cannot read the file: " +
                                             Buf.getError().message());
  llvm::StringRef Text = (*Buf)->getBuffer();
  Migration M = migrate(FA.Path, Text, FA.Sites, Assumed);
  Simplified += M.Simplified;
  for (const std::string &Line : M.Report)
    Report << Line << '\n';
  if (DryRun) {
    llvm::outs() << unifiedDiff(FA.Path, Text, M.Edits);
    return llvm::Error::success();
  }
  // Unchanged files are copied too: -o DIR holds the whole tree.
  if (M.Edits.empty() && OutDir.empty())
    return llvm::Error::success();
  std::string Dest = destination(Tree, FA.Path);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Dest);
  if (std::error_code EC = Dir.empty() ? std::error_code()
                                       : llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create '" + Dir +
                                   "': " + EC.message());
  return writeOutput(Dest, M.Text);
}

int runMigrateCommand() {
  if (!DryRun && InPlace == !OutDir.empty())
    return reportFailure(llvm::createStringError(
        "say where the migrated files go: -o DIR or --in-place (or "
        "--dry-run to see the changes)"));
  // With --dry-run the diff is the output; the report goes beside it.
  llvm::raw_ostream &Report = DryRun ? llvm::errs() : llvm::outs();
  auto Assumed = assumedPasses();
  if (!Assumed)
    return reportFailure(Assumed.takeError());
  unsigned Simplified = 0;
  auto Tree = collectTree(Files);
  if (!Tree)
    return reportFailure(Tree.takeError());
  if (auto Err = checkOutputFolder(*Tree))
    return reportFailure(std::move(Err));
  TreeAudit Audit = auditTree(*Tree, Jobs);
  int Status = 0;
  for (llvm::Error &E : Audit.Errors)
    Status = reportFailure(std::move(E));
  for (const SourceTree::Link &L : Tree->outside())
    Report << L.Path << ": note: leads out of the tree to '" << L.Target
           << "'; not followed, nothing there is rewritten\n";
  std::set<std::string> Done;
  for (const FileAudit &FA : Audit.Files) {
    if (!Tree->contains(FA.Path)) {
      // A header outside the tree: its sites are reported, never rewritten.
      for (const Site &S : FA.Sites)
        Report << FA.Path << ":" << S.Line << ": left ("
               << categoryName(S.Category) << "): " << S.Text << ": "
               << S.Reason << "\n";
      continue;
    }
    Done.insert(FA.Path);
    if (auto Err = migrateFile(*Tree, FA, *Assumed, Simplified, Report))
      Status = reportFailure(std::move(Err));
  }
  // The rest of the tree: files without sites, which -o DIR still needs
  // beside the others, headers no .cu file includes, and files that could
  // not be audited.
  for (const std::string &File : Tree->files()) {
    if (Done.count(File))
      continue;
    if (Audit.Failed.count(File)) {
      // Reported; in place it stays as it is, and -o DIR gets it as it is,
      // so the tree is whole (a pipe or a device has nothing to copy).
      if (OutDir.empty() || isSpecialFile(File))
        continue;
      Report << File << ": note: could not be audited; copied unchanged\n";
    } else if (!Audit.Reached.count(File)) {
      Report << File
             << ": note: no .cu file of the tree includes it; not audited\n";
    }
    if (auto Err = migrateFile(*Tree, {File, {}}, *Assumed, Simplified, Report))
      Status = reportFailure(std::move(Err));
  }
  printSummary(Report, Audit.Files);
  if (*Assumed)
    Report << "--assume-arch " << AssumeArch << ": " << Simplified
           << " conditional" << (Simplified == 1 ? "" : "s")
           << " simplified to the one branch " << passNames(**Assumed)
           << " compile\n";
  return Status;
}

} // namespace metacu
