//===- Server.h - metacu lsp: clangd for dialect files --------------------===//
//
// A language server on the editor's stdio with clangd behind it. Files
// without meta constructs go to clangd as they are; a dialect file is
// expanded on open and, debounced, on change, and clangd works on its
// expansion under the file's own URI (so the compile flags clangd finds
// for the file, its relative #includes and its index entries stay the
// file's); Rewrite.h maps everything between the two texts. metacu's own
// errors are the dialect file's diagnostics while it does not expand, and
// clangd keeps the last good expansion meanwhile.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_SERVER_H
#define METACU_LSP_SERVER_H

#include "expand/Pipeline.h"
#include "toolchain/Arch.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace metacu {

struct ServerOptions {
  /// clangd and its arguments.
  std::string Clangd;
  std::vector<std::string> ClangdArgs;
  /// The architectures dialect files are expanded for.
  ArchList Archs;
  /// The pass the editor shows: 0 the host pass, I + 1 Archs' I-th
  /// architecture (clangd then parses that device pass).
  unsigned ShownPass = 0;
  /// How a file is expanded (its flags, the toolkit, the prelude cache).
  std::function<llvm::Expected<PipelineOptions>(llvm::StringRef Path)>
      OptionsFor;
  /// How long after an edit the expansion starts, so that a burst of
  /// keystrokes costs one: an edit this long or longer after the one
  /// before (the first of a burst) is expanded at once.
  std::chrono::milliseconds Debounce{100};
  /// After each expansion, one line to stderr: the file and how long each
  /// stage took, wall-clock and CPU (the server's log: where an edit's
  /// latency goes).
  bool TimeStages = false;
};

/// Serves the editor on \p In / \p Out until it sends 'exit'. Returns the
/// exit status LSP asks for (0 after a shutdown request, else 1).
llvm::Expected<int> serve(int In, int Out, const ServerOptions &Opts);

} // namespace metacu

#endif
