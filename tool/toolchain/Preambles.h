//===- Preambles.h - Clang runs that reuse their command line's headers ---===//
//
// Every Clang run of the expansion reads, before the input, the headers its
// command line includes: nvcc's implicit cuda_runtime.h in C++ mode, Clang's
// CUDA wrapper headers in CUDA mode. They are most of what the run reads,
// and they do not change between two expansions of a file edited in the
// editor. The language server keeps them precompiled (a Clang precompiled
// preamble, as clangd keeps one per file, here of the command line's
// headers only: the input's own #include lines are read as in any run, so
// what a stage's preprocessor callbacks see of the input and its headers is
// unchanged) and reuses them while none of the files they read changed.
//
// A stage that asks for a preamble says which headers it may not hold: one
// whose reading the stage's callbacks must see (a user's header given with
// -include). A preamble that read one, or met an error, is not used.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_PREAMBLES_H
#define METACU_TOOLCHAIN_PREAMBLES_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <list>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace metacu {

/// The preambles kept, the latest used first.
class Preambles {
public:
  /// \p Capacity: how many are kept (one per command line: each open file
  /// has its own, for each mode of Clang the expansion runs).
  explicit Preambles(unsigned Capacity = 8);
  ~Preambles();
  Preambles(const Preambles &) = delete;
  Preambles &operator=(const Preambles &) = delete;

  struct Entry;

private:
  friend class PreambleAction;
  unsigned Capacity;
  std::list<std::unique_ptr<Entry>> Kept;
};

struct ClangRun {
  /// The command line ("clang++" first, the file last).
  std::vector<std::string> Args;
  /// The files, the input's text among them (Invocation.h, filesWith).
  clang::FileManager *Files = nullptr;
  clang::DiagnosticConsumer *Diagnostics = nullptr;
  /// Function bodies are skipped (by the preamble too, so that its
  /// declarations are those the run would have read).
  bool SkipFunctionBodies = false;
  /// Where given, a header the preamble may not hold: its reading is the
  /// stage's to see.
  llvm::function_ref<bool(clang::FileEntryRef, clang::Preprocessor &)>
      Excluded = nullptr;
};

/// Runs \p Action on \p Run as tooling::ToolInvocation would. With \p
/// Cache, the headers of the command line come from a preamble of it
/// (built on first use, or when a file it read changed); the files that
/// preamble read, in the order read, the input first, are then in \p
/// PreambleFiles. Returns whether the action ran.
bool runClang(const ClangRun &Run,
              std::unique_ptr<clang::FrontendAction> Action, Preambles *Cache,
              std::vector<std::string> *PreambleFiles);

} // namespace metacu

#endif
