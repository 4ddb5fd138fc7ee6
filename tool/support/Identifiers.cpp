//===- Identifiers.cpp - A preprocessor's identifiers looked up, not made -===//
#include "support/Identifiers.h"
#include "clang/Lex/Preprocessor.h"

namespace metacu {

const clang::IdentifierInfo *findIdentifier(const clang::Preprocessor &PP,
                                            llvm::StringRef Name) {
  const clang::IdentifierTable &Table = PP.getIdentifierTable();
  auto It = Table.find(Name);
  if (It != Table.end())
    return It->second;
  // A precompiled preamble's identifiers are read as they are asked for;
  // its reader makes them in Clang's own code.
  if (clang::IdentifierInfoLookup *External =
          Table.getExternalIdentifierLookup())
    return External->get(Name);
  return nullptr;
}

} // namespace metacu
