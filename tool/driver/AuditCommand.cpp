//===- AuditCommand.cpp - metacu audit FILES... ---------------------------===//
//
// Lists every __CUDA_ARCH__ site of the files and the local headers they
// include, with its category, as text or JSON (docs/audit-json.md). A file
// that cannot be read is reported at its place and the others are still
// audited; the run then fails.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "migrate/Audit.h"
#include "migrate/AuditPrinter.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand AuditSubcommand(
    "audit", "lists the __CUDA_ARCH__ sites of existing code and what can "
             "become 'if codegen'");

static cl::list<std::string> Files(cl::Positional, cl::desc("<files>"),
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

llvm::Expected<std::vector<FileAudit>> auditAsCompiled(llvm::StringRef File) {
  auto Flags = compileFlagsFor(File);
  if (!Flags)
    return Flags.takeError();
  AuditOptions Opts;
  Opts.Flags = std::move(*Flags);
  Opts.Toolkit = CudaToolkit::find(CudaPathOption);
  return auditFile(File, Opts);
}

int runAuditCommand() {
  std::vector<FileAudit> All;
  int Status = 0;
  for (const std::string &File : Files) {
    auto Audit = auditAsCompiled(File);
    if (!Audit) {
      Status = reportFailure(Audit.takeError());
      continue;
    }
    // A header included by several files is listed once.
    for (FileAudit &FA : *Audit)
      if (!llvm::any_of(All,
                        [&](const FileAudit &X) { return X.Path == FA.Path; }))
        All.push_back(std::move(FA));
  }
  if (Format == AuditFormat::Json)
    printAuditJson(llvm::outs(), All);
  else
    printAuditText(llvm::outs(), All);
  return Status;
}

} // namespace metacu
