//===- Emit.h - Stage 5: the generated CUDA file and its dependencies -----===//
//
// Turns the generator's events into the output file: a prelude (the
// architecture guard, nvvm_arch_t, __nvvm_arch per architecture, and a
// metacu header only where the expanded code uses one), then the expanded
// code with #line directives wherever the output stops following the input
// line by line, so nvcc's errors and -lineinfo point at the user's file.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_EMIT_H
#define METACU_EXPAND_EMIT_H

#include "expand/Execute.h"
#include "expand/OutputMap.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu {

struct EmitOptions {
  /// The output's file name, for the message of the architecture guard.
  std::string OutputName;
};

std::string emitOutput(const SourceFile &File, const ArchList &Archs,
                       const Expansion &X, const EmitOptions &Opts);

/// The output of emitOutput with where each part of it comes from.
struct EmittedFile {
  std::string Text;
  /// Where the expanded code starts, after the prelude.
  size_t BodyOffset = 0;
  OutputMap Map;
};
EmittedFile emitMapped(const SourceFile &File, const ArchList &Archs,
                       const Expansion &X, const EmitOptions &Opts);

/// A Makefile rule "Target: Deps..." with paths escaped as Make and Ninja
/// read them.
std::string dependencyRule(llvm::StringRef Target,
                           llvm::ArrayRef<std::string> Deps);

} // namespace metacu

#endif
