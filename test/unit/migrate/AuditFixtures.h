//===- PassMasks.h - Sets of audit passes, for the tests ------------------===//
#ifndef METACU_TEST_MIGRATE_AUDITFIXTURES_H
#define METACU_TEST_MIGRATE_AUDITFIXTURES_H

#include "TempDir.h"
#include "migrate/PreprocessorPass.h"

#include "clang/Basic/FileManager.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"
#include <optional>
#include <string>

#include "llvm/ADT/STLExtras.h"
#include <initializer_list>

namespace metacu {

/// The passes of \p Archs (0 the host pass).
inline uint64_t mask(std::initializer_list<unsigned> Archs) {
  uint64_t M = 0;
  llvm::ArrayRef<unsigned> P = auditPasses();
  for (unsigned A : Archs)
    M |= uint64_t(1) << (llvm::find(P, A) - P.begin());
  return M;
}

/// Every device pass from sm_\p Arch on.
inline uint64_t from(unsigned Arch) {
  uint64_t M = 0;
  llvm::ArrayRef<unsigned> P = auditPasses();
  for (size_t I = 0; I < P.size(); ++I)
    if (P[I] >= Arch && P[I] != 0)
      M |= uint64_t(1) << I;
  return M;
}

/// The index of the pass of \p Arch in auditPasses().
inline unsigned passIndex(unsigned Arch) {
  return llvm::find(auditPasses(), Arch) - auditPasses().begin();
}

/// Runs audit passes over a file k.cu and looks into the facts.
class PassTest : public ::testing::Test {
protected:
  /// Runs the passes of \p Archs (0 the host) over \p Code, in that order.
  void run(llvm::StringRef Code, std::initializer_list<unsigned> Archs,
           bool Parse = false, const CompileFlags &Flags = {}) {
    Path = Tmp.write("k.cu", Code);
    PassSources Sources(*Files);
    for (unsigned A : Archs)
      if (llvm::Error Err = runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT),
                                    Flags, passIndex(A), Parse, F, Sources))
        ADD_FAILURE() << llvm::toString(std::move(Err));
  }

  /// The line of \p Offset in \p File (k.cu by default).
  unsigned lineOf(unsigned Offset, std::string File = "") {
    return llvm::StringRef(F.Buffers[File.empty() ? Path : File])
               .take_front(Offset)
               .count('\n') +
           1;
  }

  /// The conditional whose #if is on line \p Line of k.cu.
  const Group &groupAt(unsigned Line) {
    for (auto &[K, G] : F.Groups)
      if (K.first == Path && lineOf(K.second) == Line)
        return G;
    ADD_FAILURE() << "no conditional at line " << Line;
    static const Group None;
    return None;
  }

  /// The kind of the other site on line \p Line of k.cu, if any.
  std::optional<SiteKind> otherAt(unsigned Line) {
    for (auto &[K, O] : F.Others)
      if (K.first == Path && lineOf(K.second) == Line)
        return O.Kind;
    return std::nullopt;
  }

  TempDir Tmp;
  std::string Path;
  Facts F;
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files =
      llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions());
};

} // namespace metacu

#endif
