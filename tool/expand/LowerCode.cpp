//===- LowerCode.cpp - Ordinary code in the generator
//-----------------------===//
//
// Ordinary code becomes text() calls over input ranges; a meta name used
// in it becomes a value() call that spells the value; #define lines, the
// #include lines and declarations meta code needs are copied into the
// program; braces open and close scopes.
//
//===----------------------------------------------------------------------===//
#include "expand/LowerInternal.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"

namespace tok = clang::tok;

namespace metacu::lowering {

const SliceDecl *Lowering::declarationAt(unsigned Offset) const {
  for (const SliceDecl &D : Slice.Declarations)
    if (D.Text.Begin == Offset)
      return &D;
  return nullptr;
}

bool Lowering::isNeededInclude(unsigned LineBegin) const {
  for (const Range &R : Slice.NeededIncludes)
    if (R.Begin == LineBegin)
      return true;
  return false;
}

llvm::Error Lowering::lowerTokens(unsigned B, unsigned E) {
  unsigned Pending = B;
  unsigned StmtStart = Scan.tokenAt(B);
  for (unsigned I = Scan.tokenAt(B); I < Toks.size() && Toks[I].Offset < E;
       ++I) {
    const Token &T = Toks[I];
    if (isInactive(T.Offset))
      continue;
    if (T.InDirective) {
      if (T.is(tok::hash) && T.StartOfLine)
        I = lowerDirective(I, E, Pending) - 1;
      StmtStart = I + 1;
      continue;
    }
    if (atNamespaceLevel())
      if (const SliceDecl *D = declarationAt(T.Offset)) {
        if (D->Text.End > E)
          return errorAt(T.Offset,
                         "this declaration is used by meta code, so it must "
                         "not contain meta constructs itself");
        emitText(Pending, T.Offset);
        Pending = T.Offset;
        closeRun();
        writeDeclaration(*D);
      }
    if (T.is(tok::l_brace)) {
      emitText(Pending, T.end());
      Pending = T.end();
      openBrace(I, StmtStart);
      StmtStart = I + 1;
      continue;
    }
    if (T.is(tok::r_brace)) {
      if (Scopes.size() == 1)
        return errorAt(T.Offset, "unbalanced '}'");
      emitText(Pending, T.end());
      Pending = T.end();
      Scope S = std::move(Scopes.back());
      Scopes.pop_back();
      if (S.Kind == ScopeKind::Namespace && !S.InBlock)
        closeRun();
      write("}\n");
      StmtStart = I + 1;
      continue;
    }
    if (T.is(tok::semi)) {
      PendingTemplateParams.clear();
      StmtStart = I + 1;
      continue;
    }
    if (T.isIdent("template") && I + 1 < Toks.size() &&
        Toks[I + 1].is(tok::less)) {
      PendingTemplateParams = templateParameters(I + 1);
      continue;
    }
    if (!T.isIdent() || !isMetaName(T.Text))
      continue;
    const Token *Prev = I > 0 ? &Toks[I - 1] : nullptr;
    if (Prev && (Prev->is(tok::period) || Prev->is(tok::arrow) ||
                 Prev->is(tok::coloncolon)))
      continue;
    if (I + 1 < Toks.size() && Toks[I + 1].is(tok::coloncolon))
      continue;
    if (declaresName(I))
      return errorAt(T.Offset, "declaration of '" + T.Text +
                                   "' in ordinary code shadows the meta "
                                   "variable '" +
                                   T.Text + "'; rename one of them");
    unsigned J = chainEnd(I, E);
    emitText(Pending, T.Offset);
    emitValue(T.Offset, Toks[J - 1].end());
    Pending = Toks[J - 1].end();
    I = J - 1;
  }
  emitText(Pending, E);
  return llvm::Error::success();
}

unsigned Lowering::lowerDirective(unsigned I, unsigned E, unsigned &Pending) {
  unsigned J = I + 1;
  while (J < Toks.size() && !Toks[J].StartOfLine && Toks[J].Offset < E)
    ++J;
  llvm::StringRef Name = I + 1 < J ? Toks[I + 1].Text : "";
  Range Line{Toks[I].Offset, Toks[J - 1].end()};
  if (Name == "define" || Name == "undef") {
    // Meta code may use the file's macros.
    write("\n");
    writeVerbatim(Line.Begin, Line.End);
    write("\n");
  } else if (Name == "include" && atNamespaceLevel() &&
             isNeededInclude(File.lineStart(Line.Begin))) {
    emitText(Pending, Line.Begin);
    Pending = Line.Begin;
    closeRun();
    write("\n");
    writeVerbatim(Line.Begin, Line.End);
    write("\n");
    describeTypesAfter(File.lineStart(Line.Begin));
  }
  return J;
}

unsigned Lowering::chainEnd(unsigned I, unsigned E) const {
  unsigned J = I + 1;
  while (J < Toks.size() && Toks[J].Offset < E) {
    if ((Toks[J].is(tok::period) || Toks[J].is(tok::arrow)) &&
        J + 1 < Toks.size() && Toks[J + 1].isIdent()) {
      J += 2;
      continue;
    }
    if (Toks[J].is(tok::l_square) || Toks[J].is(tok::l_paren)) {
      std::optional<unsigned> Close = partnerOf(Toks, J);
      if (!Close || Toks[*Close].Offset >= E)
        return J;
      J = *Close + 1;
      continue;
    }
    break;
  }
  return J;
}

void Lowering::emitValue(unsigned B, unsigned E) {
  ensureRun();
  setLocation(B);
  anchored(B, [&] {
    write("static_assert(::metacu::detail::has_spelling<std::remove_cvref_t<"
          "decltype(");
    writeVerbatim(B, E);
    write(")>>, \"no constant spelling\");\n");
    write("::metacu::detail::value(" + std::to_string(B) + ", (");
    writeVerbatim(B, E);
    write("));\n");
  });
}

void Lowering::writeDeclaration(const SliceDecl &D) {
  write("\n");
  if (D.BodyBegin) {
    writeVerbatim(D.Text.Begin, D.BodyBegin);
    write(";\n");
  } else {
    writeVerbatim(D.Text.Begin, D.Text.End);
    write("\n");
  }
  describeTypesAfter(D.Text.End);
}

} // namespace metacu::lowering
