//===- LexedFiles.cpp -----------------------------------------------------===//
#include "migrate/LexedFiles.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace metacu {

llvm::ArrayRef<Token> Lexed::between(unsigned Begin, unsigned End) const {
  auto Before = [](unsigned Off) {
    return [Off](const Token &T) { return T.Offset < Off; };
  };
  size_t First = llvm::partition_point(Tokens, Before(Begin)) - Tokens.begin();
  size_t Last = llvm::partition_point(Tokens, Before(End)) - Tokens.begin();
  return llvm::ArrayRef<Token>(Tokens).slice(First,
                                             std::max(First, Last) - First);
}

const Lexed &LexedFiles::of(llvm::StringRef File) {
  auto [It, New] = Files.try_emplace(File);
  if (New) {
    // The buffer itself (lookup() would return a copy that dies here), a
    // std::string: NUL-terminated, as lexRaw reads it.
    auto Text = F.Buffers.find(File);
    if (Text != F.Buffers.end())
      It->second = Lexed{Text->second, lexRaw(Text->second)};
  }
  return It->second;
}

} // namespace metacu
