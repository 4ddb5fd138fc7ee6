//===- MetaNames.cpp ------------------------------------------------------===//
#include "expand/MetaNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace tok = clang::tok;

namespace metacu {

bool isKeyword(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases({"alignas", "alignof", "asm", "auto", "bool", "break", "case",
              "catch", "char", "char8_t", "char16_t", "char32_t", "class"},
             true)
      .Cases({"concept", "const", "consteval", "constexpr", "constinit",
              "const_cast", "continue", "co_await", "co_return", "co_yield",
              "decltype", "default", "delete", "do", "double"},
             true)
      .Cases({"dynamic_cast", "else", "enum", "explicit", "export", "extern",
              "false", "float", "for", "friend", "goto", "if", "inline", "int",
              "long", "mutable", "namespace", "new", "noexcept", "nullptr"},
             true)
      .Cases({"operator", "private", "protected", "public", "register",
              "reinterpret_cast", "requires", "return", "short", "signed",
              "sizeof", "static", "static_assert", "static_cast", "struct",
              "switch", "template", "this", "thread_local", "throw", "true"},
             true)
      .Cases({"try", "typedef", "typeid", "typename", "union", "unsigned",
              "using", "virtual", "void", "volatile", "wchar_t", "while",
              "__global__", "__device__", "__host__", "__shared__",
              "__constant__", "__forceinline__", "__restrict__"},
             true)
      .Default(false);
}

static bool isTypeKeyword(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases({"auto", "bool", "char", "char8_t", "char16_t", "char32_t",
              "double", "float", "int", "long", "short", "signed",
              "unsigned", "void", "wchar_t"},
             true)
      .Default(false);
}

static bool isSpecifier(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases({"static", "inline", "constexpr", "consteval", "constinit",
              "const", "volatile", "thread_local", "extern", "mutable",
              "typename", "__host__", "__device__", "__forceinline__"},
             true)
      .Default(false);
}

namespace {

/// A cursor over a token slice with bracket skipping.
class Cursor {
public:
  explicit Cursor(llvm::ArrayRef<Token> T) : T(T) {}
  bool done() const { return I >= T.size(); }
  const Token &cur() const { return T[I]; }
  bool is(tok::TokenKind K) const { return !done() && T[I].is(K); }
  bool isIdent() const { return !done() && T[I].isIdent(); }
  bool isIdent(llvm::StringRef S) const { return !done() && T[I].isIdent(S); }
  void next() { ++I; }
  size_t pos() const { return I; }
  void seek(size_t P) { I = P; }

  /// Skips a bracket group, or a template argument list, starting at the
  /// cursor; to the end if it is not closed.
  void skipGroup() {
    I = T[I].is(tok::less) ? skipAngles(T, I) : metacu::skipGroup(T, I);
  }

private:
  llvm::ArrayRef<Token> T;
  size_t I = 0;
};

/// Parses '[::] name [<...>] (:: name [<...>])*' or a run of builtin type
/// keywords, or decltype(...). Returns false if no type is there.
bool parseType(Cursor &C) {
  size_t Start = C.pos();
  if (C.isIdent("decltype")) {
    C.next();
    if (!C.is(tok::l_paren))
      return false;
    C.skipGroup();
    return true;
  }
  if (C.isIdent() && isTypeKeyword(C.cur().Text)) {
    while (C.isIdent() && (isTypeKeyword(C.cur().Text) ||
                           isSpecifier(C.cur().Text)))
      C.next();
    return true;
  }
  if (C.is(tok::coloncolon))
    C.next();
  while (C.isIdent() && !isKeyword(C.cur().Text)) {
    C.next();
    if (C.is(tok::less))
      C.skipGroup();
    if (!C.is(tok::coloncolon))
      return true;
    C.next();
  }
  C.seek(Start);
  return false;
}

void skipPtrOps(Cursor &C) {
  while (C.is(tok::star) || C.is(tok::amp) || C.is(tok::ampamp) ||
         C.isIdent("const") || C.isIdent("volatile") ||
         C.isIdent("__restrict__"))
    C.next();
}

/// Skips to the next ',' at depth 0 (or the end). Returns false at the end.
bool skipToComma(Cursor &C) {
  while (!C.done()) {
    if (C.is(tok::comma)) {
      C.next();
      return true;
    }
    if (C.is(tok::l_paren) || C.is(tok::l_square) || C.is(tok::l_brace))
      C.skipGroup();
    else
      C.next();
  }
  return false;
}

} // namespace

DeclaredNames declaredNames(llvm::ArrayRef<Token> Toks) {
  DeclaredNames R;
  Cursor C(Toks);
  if (C.isIdent("template")) {
    C.next();
    if (C.is(tok::less))
      C.skipGroup();
  }
  if (C.isIdent("concept")) {
    C.next();
    R.IsDeclaration = true;
    if (C.isIdent())
      R.Types.push_back(C.cur().Text.str());
    return R;
  }
  while (C.isIdent() && isSpecifier(C.cur().Text) &&
         !C.isIdent("typename"))
    C.next();
  if (C.isIdent("struct") || C.isIdent("class") || C.isIdent("union") ||
      C.isIdent("enum")) {
    bool IsEnum = C.isIdent("enum");
    R.IsDeclaration = true;
    C.next();
    if (IsEnum && (C.isIdent("class") || C.isIdent("struct"))) {
      R.IsScopedEnum = true;
      C.next();
    }
    if (C.isIdent() && !isKeyword(C.cur().Text)) {
      R.Types.push_back(C.cur().Text.str());
      C.next();
    }
    if (IsEnum) {
      while (!C.done() && !C.is(tok::l_brace))
        C.next();
      if (C.done())
        return R;
      // Enumerators: identifiers after '{' or ',' at depth 1.
      C.next();
      bool ExpectName = true;
      while (!C.done() && !C.is(tok::r_brace)) {
        if (ExpectName && C.isIdent())
          R.Enumerators.push_back(C.cur().Text.str());
        ExpectName = C.is(tok::comma);
        if (C.is(tok::l_paren) || C.is(tok::l_square) || C.is(tok::l_brace))
          C.skipGroup();
        else
          C.next();
      }
    }
    return R;
  }
  if (C.isIdent("using")) {
    R.IsDeclaration = true;
    C.next();
    if (C.isIdent() && !C.isIdent("namespace")) {
      size_t P = C.pos();
      C.next();
      if (C.is(tok::equal))
        R.Types.push_back(Toks[P].Text.str());
    }
    return R;
  }
  if (C.isIdent("typedef")) {
    R.IsDeclaration = true;
    for (size_t I = Toks.size(); I-- > 0;)
      if (Toks[I].isIdent() && !isKeyword(Toks[I].Text)) {
        R.Types.push_back(Toks[I].Text.str());
        break;
      }
    return R;
  }
  if (C.isIdent("namespace")) {
    R.IsDeclaration = true;
    return R;
  }
  if (!parseType(C))
    return R;
  skipPtrOps(C);
  // 'auto [a, b] = ...': a structured binding.
  if (C.is(tok::l_square)) {
    if (Toks.empty() || !Toks[C.pos() - 1].isIdent("auto")) {
      bool SawAuto = false;
      for (size_t I = 0; I < C.pos(); ++I)
        SawAuto |= Toks[I].isIdent("auto");
      if (!SawAuto)
        return R;
    }
    R.IsDeclaration = true;
    C.next();
    while (!C.done() && !C.is(tok::r_square)) {
      if (C.isIdent())
        R.Values.push_back(C.cur().Text.str());
      C.next();
    }
    return R;
  }
  if (!C.isIdent() || isKeyword(C.cur().Text))
    return R;
  R.IsDeclaration = true;
  while (true) {
    if (C.isIdent() && !isKeyword(C.cur().Text)) {
      R.Values.push_back(C.cur().Text.str());
      C.next();
      // A function definition declares nothing after its parameter list.
      if (C.is(tok::l_paren)) {
        size_t P = C.pos();
        C.skipGroup();
        while (C.isIdent("const") || C.isIdent("noexcept") ||
               C.isIdent("override"))
          C.next();
        if (C.is(tok::l_brace) || C.is(tok::arrow))
          return R;
        C.seek(P);
      }
    }
    if (!skipToComma(C))
      return R;
    skipPtrOps(C);
  }
}

std::vector<std::string> loopVariables(llvm::ArrayRef<Token> Head) {
  // The declaration part ends at the first ';' or ':' outside brackets.
  size_t End = 0;
  while (End < Head.size() && !Head[End].is(tok::semi) &&
         !Head[End].is(tok::colon))
    End = Head[End].isOpenBracket() ? skipGroup(Head, End) : End + 1;
  return declaredNames(Head.take_front(End)).Values;
}

std::optional<StaticAssertParts> staticAssertParts(llvm::ArrayRef<Token> Toks,
                                                   unsigned I) {
  if (I + 2 >= Toks.size() || !Toks[I + 1].is(tok::l_paren))
    return std::nullopt;
  std::optional<unsigned> Close = partnerOf(Toks, I + 1);
  if (!Close || *Close == I + 2)
    return std::nullopt;
  StaticAssertParts P;
  P.Close = *Close;
  P.CondBegin = I + 2;
  // The message is a trailing run of string literals after a comma.
  unsigned MsgBegin = *Close;
  while (MsgBegin > I + 3 && Toks[MsgBegin - 1].is(tok::string_literal))
    --MsgBegin;
  bool HasMsg = MsgBegin < *Close && Toks[MsgBegin - 1].is(tok::comma);
  P.CondEnd = HasMsg ? MsgBegin - 1 : *Close;
  if (HasMsg) {
    P.MsgBegin = MsgBegin;
    P.MsgEnd = *Close;
  }
  return P;
}

llvm::StringSet<> declaredMetaNames(const ScanResult &Scan) {
  llvm::StringSet<> Declared;
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Stmt) {
      DeclaredNames D = declaredNames(Scan.tokensIn(N.Head).drop_back());
      for (auto *Names : {&D.Values, &D.Types, &D.Enumerators})
        for (auto &V : *Names)
          Declared.insert(V);
    } else if (N.Kind == NodeKind::For || N.Kind == NodeKind::ForEnum) {
      for (auto &V : loopVariables(Scan.tokensIn(N.Head)))
        Declared.insert(V);
    }
    return WalkNext::Children;
  });
  return Declared;
}

llvm::StringSet<> metaIdentifiers(const ScanResult &Scan) {
  llvm::StringSet<> Used;
  const std::vector<Token> &T = Scan.Tokens;
  auto AddRange = [&](Range R) {
    unsigned B = Scan.tokenAt(R.Begin);
    for (unsigned I = B; I < T.size() && T[I].Offset < R.End; ++I) {
      if (!T[I].isIdent() || isKeyword(T[I].Text))
        continue;
      if (I > B && (T[I - 1].is(tok::period) || T[I - 1].is(tok::arrow)))
        continue;
      if (I >= B + 2 && T[I - 1].is(tok::coloncolon) && T[I - 2].isIdent())
        Used.insert((T[I - 2].Text + "::" + T[I].Text).str());
      else
        Used.insert(T[I].Text);
    }
  };
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind != NodeKind::Text)
      AddRange(N.Head);
    for (const Branch &B : N.Branches)
      AddRange(B.Cond);
    return WalkNext::Children;
  });
  llvm::StringSet<> Declared = declaredMetaNames(Scan);
  for (unsigned I = 0; I < T.size(); ++I) {
    if (!T[I].isIdent("static_assert") || T[I].InDirective)
      continue;
    std::optional<StaticAssertParts> P = staticAssertParts(T, I);
    if (!P)
      continue;
    llvm::ArrayRef<Token> Cond(&T[P->CondBegin], &T[P->CondEnd]);
    if (llvm::any_of(Cond, [&](const Token &C) {
          return C.isIdent() && Declared.contains(C.Text);
        }))
      AddRange({Cond.front().Offset, Cond.back().end()});
  }
  llvm::StringSet<> Result;
  for (auto &U : Used)
    if (!Declared.contains(U.getKey()))
      Result.insert(U.getKey());
  return Result;
}

} // namespace metacu
