//===- Diff.h - Line edits of a file and their unified diff ---------------===//
//
// migrate changes whole lines of a file; `migrate --dry-run` shows the
// changes as a unified diff, as `diff -u` and `git diff` print them.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_DIFF_H
#define METACU_MIGRATE_DIFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace metacu {

/// Replaces the bytes [Begin, End) of the original text (whole lines, or
/// text beside a branch's code and a value use's token).
struct Edit {
  unsigned Begin = 0, End = 0;
  std::string Replacement;
};

/// The text [\p Begin, \p End) of \p Text with \p Edits (ascending, not
/// overlapping, each inside it) made.
std::string applyEdits(llvm::StringRef Text, unsigned Begin, unsigned End,
                       llvm::ArrayRef<Edit> Edits);

/// A unified diff ("--- a/PATH", "+++ b/PATH", 3 lines of context) of
/// \p Edits (ascending, not overlapping) made to \p Old; empty without
/// edits.
std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Old,
                        llvm::ArrayRef<Edit> Edits);

} // namespace metacu

#endif
