//===- NvccPasses.h - Stage 3b: the headers nvcc's own passes read --------===//
//
// metacu splices in the dialect headers nvcc's host pass includes
// (DialectHeaders.h). nvcc reads the output once more per architecture, in
// a device pass with __CUDA_ARCH__. Where one of those takes an #include
// the host pass did not (under #ifdef __CUDA_ARCH__, in the input or in a
// plain header it includes; a header name from a macro the passes define
// apart), a dialect header it leads to would reach nvcc unexpanded, and
// nvcc would stop at its first '@', far from the cause.
//
// The host slice notes, cheaply and conservatively, whether such an
// #include may lead to a dialect header (HostSliceResult::UnfollowedInclude);
// only then does this stage preprocess the input as each of nvcc's passes
// does and refuse the first dialect header one of them enters, at the
// #include that enters it.
//
// A meta construct inside a conditional that tests __CUDA_ARCH__ is an
// error (Check.h) unless every pass keeps it: XGBoost's
// '#if XGBOOST_STRICT_R_MODE && !defined(__CUDA_ARCH__)' takes its '#else'
// in every pass of the build configured, so an 'if codegen' there means
// the same to each. Only a file with such a construct pays for the passes.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_NVCCPASSES_H
#define METACU_EXPAND_NVCCPASSES_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/Support/Error.h"
#include <memory>

namespace metacu {

/// nvcc's passes over \p File (its meta constructs masked) for \p Archs:
/// the host's and each device pass. Each runs at most once, when one of the
/// checks below first asks for it, and tells both what it read: a file
/// whose meta constructs stand in an architecture conditional and that may
/// include a dialect header in a device pass needs both.
class NvccPassRuns {
public:
  NvccPassRuns(const SourceFile &File, const ScanResult &Scan,
               const ArchList &Archs, const HostSliceOptions &Opts);
  ~NvccPassRuns();
  NvccPassRuns(const NvccPassRuns &) = delete;
  NvccPassRuns &operator=(const NvccPassRuns &) = delete;

  /// How many passes have run.
  unsigned runs() const;

  struct Reading;
  struct State;

private:
  friend llvm::Error checkNvccPasses(NvccPassRuns &Passes);
  friend void settleArchConditionals(NvccPassRuns &Passes,
                                     HostSliceResult &Slice);
  std::unique_ptr<State> S;
};

/// Preprocesses the file as each of nvcc's passes does. The first dialect
/// header one of them enters is an error at the #include that enters it: a
/// LocatedError in the file, or a SourceError in the user header that
/// holds it.
llvm::Error checkNvccPasses(NvccPassRuns &Passes);

/// Where a meta construct of the file stands in \p Slice's
/// ArchConditional, narrows ArchConditional to the parts of those
/// conditionals that some of nvcc's passes skip: what every pass keeps is
/// no longer chosen per architecture. Left as it is where no construct
/// stands there, or where a pass does not preprocess without error.
void settleArchConditionals(NvccPassRuns &Passes, HostSliceResult &Slice);

} // namespace metacu

#endif
