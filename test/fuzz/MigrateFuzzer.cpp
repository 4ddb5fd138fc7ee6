//===- MigrateFuzzer.cpp - libFuzzer target for audit and migrate ---------===//
//
// Arbitrary bytes as a .cu file through audit and migrate's rewrite. The
// audit either fails (at a place: migrate then rewrites nothing) or gives
// sites, and the rewrite of those sites must
//   - bring no line break the file did not have (a CR-only file stays so),
//   - still preprocess as the original did (audit of the result succeeds),
//   - still expand wherever the original expanded.
// A violation aborts with the input, for libFuzzer to keep.
//
//===----------------------------------------------------------------------===//
#include "expand/Pipeline.h"
#include "migrate/Audit.h"
#include "migrate/LineTable.h"
#include "migrate/Migrate.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

using namespace metacu;

namespace {

std::string Dir;

std::string write(llvm::StringRef Name, llvm::StringRef Text) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  OS << Text;
  return std::string(P);
}

std::set<std::string> lineBreaks(llvm::StringRef Text) {
  LineTable Lines(Text);
  std::set<std::string> Kinds;
  for (unsigned L = 1; L <= Lines.size(); ++L)
    Kinds.insert(Lines.lineBreak(L).str());
  Kinds.erase("");
  return Kinds;
}

[[noreturn]] void fail(llvm::StringRef Why, llvm::StringRef Migrated) {
  llvm::errs() << "migrate fuzzer: " << Why << "\n--- migrated ---\n"
               << Migrated << "\n";
  std::abort();
}

bool expands(const SourceFile &File) {
  static const ArchList Archs = llvm::cantFail(ArchList::parse("75,90"));
  static const PipelineOptions Opts = [] {
    PipelineOptions O;
    O.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    O.CacheDir = METACU_FUZZ_CACHE_DIR;
    O.OutputName = "fuzz.gen.cu";
    O.Limits.TimeoutSeconds = 10;
    O.Limits.MemoryBytes = uint64_t(512) << 20;
    return O;
  }();
  auto X = expandFile(File, Archs, Opts);
  if (X)
    return true;
  llvm::consumeError(X.takeError());
  return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::SmallString<256> D;
  if (llvm::sys::fs::createUniqueDirectory("metacu-migrate-fuzz", D))
    std::abort();
  Dir = std::string(D);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  AuditOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  std::string Path = write("fuzz.cu", Text);
  auto Audit = auditFile(Path, Opts);
  if (!Audit) {
    // An error at a place: migrate rewrites nothing in the file.
    llvm::consumeError(Audit.takeError());
    return 0;
  }
  Migration M = migrate(Path, Text, Audit->front().Sites);
  if (M.Edits.empty())
    return 0;
  std::set<std::string> Before = lineBreaks(Text), After = lineBreaks(M.Text);
  for (const std::string &B : After)
    if (!Before.count(B))
      fail("a line break the file did not have", M.Text);
  std::string Migrated = write("fuzz.migrated.cu", M.Text);
  if (auto Again = auditFile(Migrated, Opts); !Again)
    fail("the migrated file no longer preprocesses: " +
             llvm::toString(Again.takeError()),
         M.Text);
  if (expands(SourceFile(Path, Text)) && !expands(SourceFile(Path, M.Text)))
    fail("the migrated file no longer expands", M.Text);
  return 0;
}
