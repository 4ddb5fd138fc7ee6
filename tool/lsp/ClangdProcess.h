//===- ClangdProcess.h - The clangd behind the server ---------------------===//
//
// The server starts one clangd and talks LSP with it over its standard
// input and output; clangd's log (standard error) goes to the server's,
// where editors show it.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_CLANGDPROCESS_H
#define METACU_LSP_CLANGDPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <sys/types.h>

namespace metacu {

/// The clangd to run: \p Given (--clangd), else $METACU_CLANGD, else
/// clangd-22 on PATH, else LLVM 22's own (/usr/lib/llvm-22/bin/clangd), the
/// version whose Clang metacu links. An error names what was tried.
llvm::Expected<std::string> findClangd(llvm::StringRef Given);

class ClangdProcess {
public:
  ClangdProcess() = default;
  ClangdProcess(const ClangdProcess &) = delete;
  ClangdProcess &operator=(const ClangdProcess &) = delete;
  /// Closes clangd's input and waits for it to end.
  ~ClangdProcess();

  /// Starts \p Program with \p Args.
  llvm::Error start(llvm::StringRef Program, llvm::ArrayRef<std::string> Args);

  /// Where to write clangd's messages.
  int input() const { return In; }
  /// Where clangd's messages come from.
  int output() const { return Out; }
  /// Waits for clangd to end (after the exit notification), killing it
  /// after a few seconds; its status.
  int wait();

private:
  pid_t Pid = -1;
  int In = -1, Out = -1;
};

} // namespace metacu

#endif
