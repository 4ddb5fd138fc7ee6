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
#include <algorithm>

namespace tok = clang::tok;

namespace metacu::lowering {

bool Lowering::declaresForMeta(unsigned B, unsigned E) const {
  auto In = [&](unsigned Offset) { return Offset > B && Offset <= E; };
  return llvm::any_of(Slice.Declarations,
                      [&](const SliceDecl &D) { return In(D.Text.Begin); }) ||
         llvm::any_of(Slice.Enums,
                      [&](const EnumInfo &I) { return In(I.After); }) ||
         llvm::any_of(Slice.Records,
                      [&](const RecordInfo &R) { return In(R.After); });
}

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
    // An inactive region lies between directives, which end a statement:
    // a namespace header there must not become the active one's.
    if (isInactive(T.Offset)) {
      StmtStart = I + 1;
      continue;
    }
    if (T.InDirective) {
      if (T.is(tok::hash) && T.StartOfLine)
        I = lowerDirective(I, E, Pending) - 1;
      StmtStart = I + 1;
      continue;
    }
    if (std::binary_search(HostDevice.begin(), HostDevice.end(), T.Offset)) {
      emitText(Pending, T.Offset);
      Pending = T.Offset;
      emitCode(T.Offset, "__host__ __device__ ");
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
      // A block of plain code is copied as part of the text around it: it
      // has nothing to lower, and mirroring every function body as a
      // block of the generator made large files slow to run.
      if (auto Close = plainBlockEnd(I, StmtStart, E)) {
        PendingTemplateParams.clear();
        PendingParams.clear();
        I = *Close;
        StmtStart = I + 1;
        continue;
      }
      if (atNamespaceLevel() || Scopes.back().Kind == ScopeKind::Namespace)
        if (auto S = enumSpecialization(I, StmtStart);
            S && Toks[S->Template].Offset >= Pending) {
          ensureRun();
          openSpecializations(*S, I, Pending);
          StmtStart = I + 1;
          continue;
        }
      emitText(Pending, T.end());
      Pending = T.end();
      openBrace(I, StmtStart);
      StmtStart = I + 1;
      continue;
    }
    if (T.is(tok::r_brace)) {
      if (Scopes.size() == 1 || Scopes.back().Body)
        return errorAt(T.Offset, "unbalanced '}'");
      emitText(Pending, Scopes.back().GuardedEnd ? T.Offset : T.end());
      Pending = T.end();
      Scope S = std::move(Scopes.back());
      Scopes.pop_back();
      if (S.Kind == ScopeKind::Namespace && !S.InBlock)
        closeRun();
      // A specialization's body is the loop's; each ends its line. Of a
      // chain of branches, the last is followed by the function's '}'.
      if (S.Specializations)
        emitCode(T.end(), S.Branches ? " else" : "\n");
      if (S.GuardedEnd)
        closeGuardedBlock();
      else
        write("}\n");
      if (S.Branches)
        emitCode(T.end(), " {\n}\n}\n");
      // Back at namespace level, a long run ends here: the JIT's code
      // generation takes more than linear time in a function's size, and
      // thousands of function bodies in one run made it quadratic.
      if (atNamespaceLevel() && InRun && Out.size() - RunBegin > MaxRunBytes)
        closeRun();
      StmtStart = I + 1;
      continue;
    }
    if (T.is(tok::l_paren)) {
      ++ParenDepth;
      continue;
    }
    if (T.is(tok::r_paren)) {
      ParenDepth -= ParenDepth > 0;
      continue;
    }
    if (T.is(tok::semi)) {
      if (ParenDepth == 0)
        PendingParams.clear();
      PendingTemplateParams.clear();
      StmtStart = I + 1;
      continue;
    }
    if (T.isIdent("template") && I + 1 < Toks.size() &&
        Toks[I + 1].is(tok::less)) {
      PendingTemplateParams = templateParameters(I + 1);
      continue;
    }
    if (T.is(tok::r_square))
      llvm::erase_if(PendingCaptures, [&](const auto &C) {
        if (C.second != I)
          return false;
        PendingParams.push_back(C.first);
        return true;
      });
    if (T.isIdent("static_assert"))
      if (std::optional<StaticAssertParts> P = metaAssertAt(I, E)) {
        unsigned Semi = P->Close + 1;
        // Alone on its lines, it takes them with it, as a meta statement.
        bool OwnsLines = T.StartOfLine && (Semi + 1 >= Toks.size() ||
                                           Toks[Semi + 1].StartOfLine);
        unsigned From =
            OwnsLines ? std::max(Pending, File.lineStart(T.Offset)) : T.Offset;
        emitText(Pending, From);
        writeMetaAssert(Toks, *P, T.Offset);
        I = Semi;
        Pending = OwnsLines ? std::min(afterLineEnd(Toks[I].end()), E)
                            : Toks[I].end();
        PendingTemplateParams.clear();
        StmtStart = I + 1;
        continue;
      }
    if (!T.isIdent())
      continue;
    if (!isMetaName(T.Text)) {
      if (auto Err = checkMacroUse(I))
        return Err;
      continue;
    }
    const Token *Prev = I > 0 ? &Toks[I - 1] : nullptr;
    if (Prev && (Prev->is(tok::period) || Prev->is(tok::arrow) ||
                 Prev->is(tok::coloncolon)))
      continue;
    if (I + 1 < Toks.size() && Toks[I + 1].is(tok::coloncolon))
      continue;
    if (declaresName(I)) {
      if (auto Err = hideMetaName(I))
        return Err;
      continue;
    }
    if (auto Close = initCaptureAt(I)) {
      PendingCaptures.push_back({T.Text.str(), *Close});
      continue;
    }
    unsigned J = chainEnd(I, E);
    emitText(Pending, T.Offset);
    emitValue(T.Offset, Toks[J - 1].end());
    Pending = Toks[J - 1].end();
    I = J - 1;
  }
  emitText(Pending, E);
  return llvm::Error::success();
}

std::optional<unsigned>
Lowering::plainBlockEnd(unsigned Open, unsigned StmtStart, unsigned E) const {
  std::optional<unsigned> Close = partnerOf(Toks, Open);
  if (!Close || Toks[*Close].Offset >= E)
    return std::nullopt;
  // Namespace bodies are mirrored so meta code sees the declarations it
  // uses by their qualified names, as C++ does; one that declares none of
  // them has nothing to mirror. Mirroring it could even break the
  // generator: where an enclosing namespace is opened by a macro
  // (THRUST_NAMESPACE_BEGIN), which this lexical view cannot see, the
  // mirror lands at global scope ('namespace system' against ::system).
  unsigned OpenAt = Toks[Open].Offset, CloseAt = Toks[*Close].Offset;
  // The helpers it emits __host__ __device__ are edits to make inside.
  auto Helper = llvm::lower_bound(HostDevice, OpenAt);
  if (Helper != HostDevice.end() && *Helper < CloseAt)
    return std::nullopt;
  for (unsigned K = StmtStart; K < Open; ++K)
    if ((Toks[K].isIdent("namespace") || Toks[K].isIdent("extern")) &&
        declaresForMeta(OpenAt, CloseAt))
      return std::nullopt;
  for (unsigned K = Open + 1; K < *Close; ++K) {
    const Token &T = Toks[K];
    // Directives may define macros meta code uses later.
    if (T.InDirective || (T.isIdent() && isMetaName(T.Text)))
      return std::nullopt;
    llvm::StringSet<> Seen;
    if (T.isIdent() && Macros.count(T.Text) && metaNameInMacro(T.Text, Seen))
      return std::nullopt;
  }
  return Close;
}

unsigned Lowering::lowerDirective(unsigned I, unsigned E, unsigned &Pending) {
  unsigned J = I + 1;
  while (J < Toks.size() && !Toks[J].StartOfLine && Toks[J].Offset < E)
    ++J;
  llvm::StringRef Name = I + 1 < J ? Toks[I + 1].Text : "";
  Range Line{Toks[I].Offset, Toks[J - 1].end()};
  if (Name == "define" || Name == "undef") {
    if (I + 2 < J)
      recordMacro(I + 2, J, Name == "define");
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

void Lowering::recordMacro(unsigned NameTok, unsigned End, bool Define) {
  llvm::StringRef Name = Toks[NameTok].Text;
  Macros.erase(Name);
  if (!Define)
    return;
  std::vector<std::string> Params, Used;
  unsigned K = NameTok + 1;
  // A function-like macro: '(' right after the name.
  if (K < End && Toks[K].is(tok::l_paren) &&
      Toks[K].Offset == Toks[NameTok].end())
    for (++K; K < End && !Toks[K].is(tok::r_paren); ++K)
      if (Toks[K].isIdent())
        Params.push_back(Toks[K].Text.str());
  for (++K; K < End; ++K)
    if (Toks[K].isIdent() && !llvm::is_contained(Params, Toks[K].Text) &&
        !(Toks[K - 1].is(tok::period) || Toks[K - 1].is(tok::arrow) ||
          Toks[K - 1].is(tok::coloncolon)))
      Used.push_back(Toks[K].Text.str());
  Macros[Name] = {Toks[NameTok].Offset, std::move(Used)};
}

std::optional<std::string>
Lowering::metaNameInMacro(llvm::StringRef Name, llvm::StringSet<> &Seen) const {
  auto M = Macros.find(Name);
  if (M == Macros.end() || !Seen.insert(Name).second)
    return std::nullopt;
  for (const std::string &U : M->second.Identifiers) {
    if (isMetaName(U))
      return U;
    if (auto Inner = metaNameInMacro(U, Seen))
      return Inner;
  }
  return std::nullopt;
}

llvm::Error Lowering::checkMacroUse(unsigned I) const {
  llvm::StringRef Name = Toks[I].Text;
  if (I > 0 && (Toks[I - 1].is(tok::period) || Toks[I - 1].is(tok::arrow) ||
                Toks[I - 1].is(tok::coloncolon)))
    return llvm::Error::success();
  llvm::StringSet<> Seen;
  std::optional<std::string> Meta = metaNameInMacro(Name, Seen);
  if (!Meta)
    return llvm::Error::success();
  return errorAt(Toks[I].Offset,
                 "macro '" + Name + "' (defined at line " +
                     llvm::Twine(File.line(Macros.find(Name)->second.Offset)) +
                     ") expands to the meta variable '" + *Meta +
                     "', which nvcc cannot see: metacu replaces meta names "
                     "in ordinary code before the preprocessor expands "
                     "macros; pass the value as an argument ('" +
                     Name + "(..., " + *Meta +
                     ")') or use a constexpr variable");
}

std::optional<StaticAssertParts> Lowering::metaAssertAt(unsigned I,
                                                        unsigned E) const {
  std::optional<StaticAssertParts> P = staticAssertParts(Toks, I);
  if (!P || P->Close + 1 >= Toks.size() || !Toks[P->Close + 1].is(tok::semi) ||
      Toks[P->Close + 1].end() > E)
    return std::nullopt;
  bool NamesMeta = false;
  for (unsigned K = P->CondBegin; K < P->CondEnd; ++K) {
    const Token &C = Toks[K];
    if (C.InDirective || isInactive(C.Offset))
      return std::nullopt;
    if (!C.isIdent() || isKeyword(C.Text) || C.isIdent("__LINE__") ||
        C.isIdent("__FILE__"))
      continue;
    const Token &Prev = Toks[K - 1];
    if (Prev.is(tok::period) || Prev.is(tok::arrow) || Prev.is(tok::coloncolon))
      continue;
    if (isMetaName(C.Text)) {
      NamesMeta = true;
      continue;
    }
    // What the generator always has, and what the host slice compiles
    // into it; a template parameter of that name hides the latter.
    bool Visible = C.isIdent("nvvm_arch_t") || C.isIdent("metacu") ||
                   Slice.Visible.contains(C.Text) || Macros.count(C.Text);
    if (!Visible || isTemplateParam(C.Text))
      return std::nullopt;
  }
  if (!NamesMeta)
    return std::nullopt;
  return P;
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
