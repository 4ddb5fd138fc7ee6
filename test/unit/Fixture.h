//===- Fixture.h - A translation unit from annotated text -----------------===//
//
// Tests write their input with its expectations marked in it
// (llvm::Annotations): '^' a point, '[[...]]' a range, '$name^' and
// '$name[[...]]' named ones. The marks are removed; the code is the file
// k.cu of a fresh directory, where headers the test writes sit beside it:
//
//   TestTU TU("int a;\n$bad^@meta for (\n");
//   EXPECT_EQ(errorOf(lower(TU)).Offset, TU.point("bad"));
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TEST_FIXTURE_H
#define METACU_TEST_FIXTURE_H

#include "TempDir.h"
#include "expand/HostSlice.h"
#include "expand/MetaNames.h"
#include "expand/Pipeline.h"
#include "expand/Scan.h"
#include "support/Diagnostic.h"
#include "support/SourceFile.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Testing/Annotations/Annotations.h"
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

namespace metacu {

class TestTU {
public:
  explicit TestTU(llvm::StringRef Annotated)
      : Marks(Annotated), File(Tmp.path("k.cu"), Marks.code().str()) {}

  /// Writes a file beside the input (a header it includes, a data file).
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    return Tmp.write(Name, Text);
  }
  std::string path(llvm::StringRef Name) const { return Tmp.path(Name); }

  const SourceFile &file() const { return File; }
  llvm::StringRef code() const { return File.text(); }
  unsigned point(llvm::StringRef Name = "") const { return Marks.point(Name); }
  Range range(llvm::StringRef Name = "") const {
    return toRange(Marks.range(Name));
  }
  std::vector<Range> ranges(llvm::StringRef Name = "") const {
    std::vector<Range> Out;
    for (const llvm::Annotations::Range &R : Marks.ranges(Name))
      Out.push_back(toRange(R));
    return Out;
  }
  std::string text(Range R) const {
    return File.text().slice(R.Begin, R.End).str();
  }

  /// The scan; a failure is the test's.
  const ScanResult &scanned() {
    if (!Scan) {
      auto S = metacu::scan(File);
      if (!S) {
        ADD_FAILURE() << llvm::toString(S.takeError());
        S = ScanResult();
      }
      Scan = std::move(*S);
    }
    return *Scan;
  }

  /// The host slice with the default toolchain and \p Args as the user's
  /// flags.
  llvm::Expected<HostSliceResult> slice(std::vector<std::string> Args = {}) {
    const ScanResult &S = scanned();
    HostSliceOptions Opts;
    Opts.Flags.Args = std::move(Args);
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    return sliceHost(File, S, metaIdentifiers(S), Opts);
  }

  /// Pipeline options with the default toolchain and no cache.
  static PipelineOptions pipelineOptions() {
    PipelineOptions Opts;
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    Opts.OutputName = "k.gen.cu";
    return Opts;
  }

private:
  static Range toRange(const llvm::Annotations::Range &R) {
    return {unsigned(R.Begin), unsigned(R.End)};
  }

  TempDir Tmp;
  llvm::Annotations Marks;
  SourceFile File;
  std::optional<ScanResult> Scan;
};

/// Where an error is and what it says.
struct ErrorAt {
  unsigned Offset = ~0u;
  std::string Message;
};

/// \p Err, which must be one LocatedError.
inline ErrorAt errorOf(llvm::Error Err) {
  ErrorAt Out;
  if (!Err) {
    ADD_FAILURE() << "expected an error";
    return Out;
  }
  llvm::handleAllErrors(
      std::move(Err),
      [&](const LocatedError &E) {
        Out = {E.offset(), E.text()};
      },
      [&](const llvm::ErrorInfoBase &E) {
        ADD_FAILURE() << "not a located error: " << E.message();
      });
  return Out;
}

} // namespace metacu

#endif
