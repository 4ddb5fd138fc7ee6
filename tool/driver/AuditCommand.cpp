//===- AuditCommand.cpp - metacu audit FILES... ---------------------------===//
//
// Lists every __CUDA_ARCH__ site of the files (or the trees under the
// directories given) and the local headers they include, with its
// category, as text or JSON (docs/audit-json.md). The .cu files are
// audited on every core; a file that cannot be read is reported at its
// place and the others are still audited; the run then fails.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "migrate/Audit.h"
#include "migrate/AuditPrinter.h"
#include "migrate/HostIncluders.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <thread>

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand AuditSubcommand(
    "audit", "lists the __CUDA_ARCH__ sites of existing code and what can "
             "become 'if codegen'");

static cl::list<std::string> Files(cl::Positional,
                                   cl::desc("<files or directories>"),
                                   cl::OneOrMore, cl::sub(AuditSubcommand),
                                   cl::cat(MetacuCategory));

enum class AuditFormat { Text, Json };
static cl::opt<AuditFormat>
    Format("format", cl::desc("Output format"),
           cl::values(clEnumValN(AuditFormat::Text, "text", "a table per file"),
                      clEnumValN(AuditFormat::Json, "json",
                                 "as docs/audit-json.md documents")),
           cl::init(AuditFormat::Text), cl::sub(AuditSubcommand),
           cl::cat(MetacuCategory));

static cl::opt<unsigned>
    Jobs("j", cl::desc(".cu files audited at once (default: the cores)"),
         cl::value_desc("N"), cl::init(0), cl::sub(AuditSubcommand),
         cl::cat(MetacuCategory));

static llvm::Expected<std::vector<FileAudit>>
auditAsCompiled(llvm::StringRef File, const SourceTree &Tree,
                std::shared_ptr<PlacementCache> Placements,
                const std::map<std::string, std::string> &HostIncluders) {
  auto Flags = compileFlagsFor(File);
  if (!Flags)
    return Flags.takeError();
  AuditOptions Opts;
  Opts.Flags = std::move(*Flags);
  Opts.Toolkit = CudaToolkit::find(CudaPathOption);
  Opts.InTree = [&Tree](llvm::StringRef P) { return Tree.contains(P); };
  Opts.HostIncluder = [&](llvm::StringRef P) -> std::optional<std::string> {
    if (!Tree.contains(P))
      return std::nullopt;
    auto It = HostIncluders.find(Tree.nameOf(P));
    if (It == HostIncluders.end())
      return std::nullopt;
    return It->second;
  };
  Opts.Placements = std::move(Placements);
  Opts.CacheDir = cacheDirectory().str();
  return auditFile(File, Opts);
}

llvm::Expected<SourceTree> collectTree(llvm::ArrayRef<std::string> Args) {
  auto Tree = SourceTree::collect(Args);
  if (!Tree)
    return Tree.takeError();
  if (Tree->files().empty())
    return llvm::createStringError("no CUDA source or header (.cu, .cuh, .h, "
                                   ".hpp, .hh, .inl) among the files given");
  return Tree;
}

TreeAudit auditTree(const SourceTree &Tree, unsigned Jobs) {
  if (!Jobs)
    Jobs = std::max(1u, std::thread::hardware_concurrency());
  auto Placements = std::make_shared<PlacementCache>();
  std::map<std::string, std::string> HostIncluders = hostIncluders(
      Tree, compileFlagsFor, CudaToolkit::find(CudaPathOption), Jobs);
  return auditTree(
      Tree,
      [&](llvm::StringRef F) {
        return auditAsCompiled(F, Tree, Placements, HostIncluders);
      },
      Jobs);
}

int runAuditCommand() {
  auto Tree = collectTree(Files);
  if (!Tree)
    return reportFailure(Tree.takeError());
  for (const SourceTree::Link &L : Tree->outside())
    llvm::errs() << L.Path << ": note: leads out of the tree to '" << L.Target
                 << "'; not followed\n";
  TreeAudit Audit = auditTree(*Tree, Jobs);
  int Status = 0;
  for (llvm::Error &E : Audit.Errors)
    Status = reportFailure(std::move(E));
  if (Format == AuditFormat::Json)
    printAuditJson(llvm::outs(), Audit.Files);
  else
    printAuditText(llvm::outs(), Audit.Files);
  return Status;
}

} // namespace metacu
