//===- LexedFiles.h - The raw tokens of the files the passes read ---------===//
//
// Classification and placement read the code between directives token by
// token (a branch's names, the braces before a nested site). Each file is
// lexed once, when first asked for, however many of its sites are read:
// no slice of it is copied and lexed per site.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_LEXEDFILES_H
#define METACU_MIGRATE_LEXEDFILES_H

#include "migrate/Facts.h"
#include "support/Tokens.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace metacu {

/// A file's buffer and its raw tokens.
struct Lexed {
  llvm::StringRef Buffer;
  std::vector<Token> Tokens;

  /// The tokens that begin in [\p Begin, \p End).
  llvm::ArrayRef<Token> between(unsigned Begin, unsigned End) const;
};

/// The files of a Facts' buffers, each lexed once.
class LexedFiles {
public:
  explicit LexedFiles(const Facts &F) : F(F) {}

  /// \p File, lexed; no buffer and no tokens where the passes kept no
  /// buffer of it (a file they read only in part: nothing there to place
  /// or classify by its tokens).
  const Lexed &of(llvm::StringRef File);

private:
  const Facts &F;
  llvm::StringMap<Lexed> Files;
};

} // namespace metacu

#endif
