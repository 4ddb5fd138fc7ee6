//===- PassSources.h - The source manager the passes of a file share ------===//
//
// The audit runs Clang's preprocessor over a file once per pass (13 for
// nvcc 13), and every pass reads the same headers. A source manager per
// pass computed each header's line table again in every pass: Clang asks
// for the line of a macro's definition at each #undef of a defined macro
// (whether it was a built-in one), and the toolkit's headers undefine
// thousands, so the line tables of some 70 headers were a tenth of the
// work of auditing a file without sites. The passes of one file share one
// source manager instead, emptied of the previous pass's file IDs before
// each (SourceManager::clearIDTables), which keeps each file's contents and
// line table.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PASSSOURCES_H
#define METACU_MIGRATE_PASSSOURCES_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendAction.h"
#include <memory>
#include <string>
#include <vector>

namespace metacu {

/// The source manager of the passes over one file, and the files they read.
class PassSources {
public:
  explicit PassSources(clang::FileManager &Files);
  PassSources(const PassSources &) = delete;
  PassSources &operator=(const PassSources &) = delete;

  /// Runs \p Action over the command line \p Args ("clang++" first) as
  /// tooling::ToolInvocation runs it, over the shared source manager, its
  /// diagnostics to \p Diags; whether it succeeded. \p Own: over a source
  /// manager of its own instead, for a run that loads a precompiled header
  /// (its source locations would outlive the reader they come from in the
  /// shared one).
  bool run(const std::vector<std::string> &Args,
           std::unique_ptr<clang::FrontendAction> Action,
           clang::DiagnosticConsumer &Diags, bool Own = false);

private:
  class Forward : public clang::DiagnosticConsumer {
  public:
    void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                          const clang::Diagnostic &Info) override {
      if (To)
        To->HandleDiagnostic(L, Info);
    }
    clang::DiagnosticConsumer *To = nullptr;
  };
  class Runner;

  clang::FileManager &Files;
  clang::DiagnosticOptions Options;
  /// What the source manager reports itself (a file it cannot read) goes
  /// to the consumer of the pass that reads it.
  Forward ToPass;
  clang::DiagnosticsEngine Diags;
  llvm::IntrusiveRefCntPtr<clang::SourceManager> SM;
};

} // namespace metacu

#endif
