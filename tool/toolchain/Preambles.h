//===- Preambles.h - Clang runs that reuse the headers a file starts with -===//
//
// Every Clang run of the expansion reads, before the input's own code, the
// headers its command line includes (nvcc's implicit cuda_runtime.h in C++
// mode, Clang's CUDA wrapper headers in CUDA mode) and those of the
// #include lines the input starts with (the standard library's, the
// toolkit's, metacu's runtime). They are most of what the run reads, and
// they do not change between two expansions of a file edited in the editor.
// The language server keeps them precompiled (a Clang precompiled preamble,
// as clangd keeps one per file) and reuses them while those #include lines
// and the files they read stay the same.
//
// A preamble holds the input's leading #include lines only where each names
// its header literally: any other directive ends it, so a stage's
// preprocessor callbacks still see every other line of the input. What they
// would have seen of the headers the preamble holds, they see while it is
// built: the stage's callbacks watch the build, and what they learned is
// kept with the preamble and handed to each run that uses it.
//
// A preamble whose headers met an error is not used (the run reads them and
// meets it), unless the stage says it ignores such errors; the run then
// reuses one of the command line's headers only.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_PREAMBLES_H
#define METACU_TOOLCHAIN_PREAMBLES_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendAction.h"
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class PPCallbacks;
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

/// What a stage's callbacks learned of a preamble's headers while it was
/// built (the stage's own type): the runs that use it never read them.
class PreambleNotes {
public:
  virtual ~PreambleNotes();
};

/// A stage's callbacks for a preamble's build, given its preprocessor, and
/// the notes they fill.
struct PreambleWatch {
  std::unique_ptr<clang::PPCallbacks> Callbacks;
  std::shared_ptr<PreambleNotes> Notes;
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
  /// Where given, the stage's callbacks watch the build of a preamble (one
  /// with their notes is reused only by runs with the same WatchKey).
  std::function<PreambleWatch(clang::Preprocessor &)> Watch;
  /// What the callbacks' reading depends on besides the command line.
  std::string WatchKey;
  /// Where given, the errors the stage ignores: a preamble whose headers
  /// meet only those is used (without them the run would not see them).
  std::function<bool(clang::DiagnosticsEngine::Level,
                     const clang::Diagnostic &)>
      Ignored;
};

/// What a run read from a preamble.
struct PreambleUse {
  /// The files the preamble read, in the order read, the input first.
  std::vector<std::string> Files;
  /// What the stage's callbacks learned while it was built (ClangRun::Watch).
  std::shared_ptr<const PreambleNotes> Notes;
};

/// Runs \p Action on \p Run as tooling::ToolInvocation would. With \p
/// Cache, the headers of the command line and of the input's leading
/// #include lines come from a preamble (built on first use, or when those
/// lines or a file it read changed); what the run took from it is then in
/// \p Used (empty otherwise), set before the action begins. Returns whether
/// the action ran.
bool runClang(const ClangRun &Run,
              std::unique_ptr<clang::FrontendAction> Action, Preambles *Cache,
              PreambleUse *Used);

/// The bytes of \p Text (NUL-terminated) that a preamble may hold: its
/// leading lines of comments and of #include directives that name their
/// header literally, to the end of the last such directive's line.
unsigned leadingIncludes(llvm::StringRef Text);

} // namespace metacu

#endif
