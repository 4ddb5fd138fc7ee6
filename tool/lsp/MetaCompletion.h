//===- MetaCompletion.h - Completion after a meta value's '.' -------------===//
//
// A meta value in ordinary code (cfg.nt) becomes a constant in the
// expansion, and while the user types 'cfg.' the file does not expand at
// all: clangd has nothing to complete. What it needs is the value's type,
// and the meta statement that declares the value names it: a probe (the
// last good expansion, then a function holding that declaration and the
// typed chain) lets clangd complete the members as it would in C++.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_METACOMPLETION_H
#define METACU_LSP_METACOMPLETION_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace metacu {

struct CompletionProbe {
  /// What clangd completes in, and the byte offset of the cursor there.
  std::string Text;
  unsigned Cursor = 0;
  /// Where the member typed so far starts in the user's text: the
  /// completion replaces it.
  unsigned WordBegin = 0;
};

/// The probe for completing at byte \p Cursor of \p UserText (of \p Path)
/// with \p Body the expansion clangd holds; none unless the cursor follows
/// '.' or '->' after a chain whose root a meta statement before the
/// cursor declares.
std::optional<CompletionProbe> metaMemberProbe(llvm::StringRef Path,
                                               llvm::StringRef UserText,
                                               unsigned Cursor,
                                               llvm::StringRef Body);

} // namespace metacu

#endif
