//===- PragmaMacros.cpp ---------------------------------------------------===//
#include "migrate/PragmaMacros.h"

#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace metacu {

namespace {

/// A token of kind \p Kind spelled \p Text, at \p Loc. \p Loc must be
/// a token of the definition's body: an expansion places each body token
/// by its offset in the definition. The spelling of a string literal is
/// read from its data, kept in the preprocessor's scratch buffer.
clang::Token madeToken(Preprocessor &PP, tok::TokenKind Kind,
                       llvm::StringRef Text, SourceLocation Loc) {
  clang::Token T;
  T.startToken();
  T.setKind(Kind);
  PP.CreateString(Text, T);
  if (Kind == tok::raw_identifier)
    PP.LookUpIdentifierInfo(T);
  T.setLocation(Loc);
  return T;
}

} // namespace

MacroInfo *asPragmaOperator(Preprocessor &PP, const MacroInfo &MI) {
  llvm::ArrayRef<clang::Token> Body = MI.tokens();
  if (!MI.isObjectLike() || Body.size() < 2 || Body[0].isNot(tok::hash) ||
      !Body[1].getIdentifierInfo() ||
      Body[1].getIdentifierInfo()->getName() != "pragma")
    return nullptr;
  std::string Literal = "\"";
  for (const clang::Token &T : Body.drop_front(2)) {
    if (Literal.size() > 1 && T.hasLeadingSpace())
      Literal += ' ';
    for (char C : PP.getSpelling(T)) {
      if (C == '"' || C == '\\')
        Literal += '\\';
      Literal += C;
    }
  }
  Literal += '"';
  clang::Token Tokens[] = {
      madeToken(PP, tok::raw_identifier, "_Pragma", Body[0].getLocation()),
      madeToken(PP, tok::l_paren, "(", Body[0].getLocation()),
      madeToken(PP, tok::string_literal, Literal, Body[1].getLocation()),
      madeToken(PP, tok::r_paren, ")", Body.back().getLocation())};
  MacroInfo *Made = PP.AllocateMacroInfo(MI.getDefinitionLoc());
  Made->setDefinitionEndLoc(MI.getDefinitionEndLoc());
  Made->setTokens(Tokens, PP.getPreprocessorAllocator());
  // The user's own redefinition of it is compared with what was written.
  Made->setIsAllowRedefinitionsWithoutWarning(true);
  return Made;
}

} // namespace metacu
