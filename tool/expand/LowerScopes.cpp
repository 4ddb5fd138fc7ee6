//===- LowerScopes.cpp - Brace scopes and the meta names they hold
//----------===//
//
// Meta declarations are scoped like C++ ones: the lowering mirrors every
// brace of ordinary code as a scope, whose kind (namespace, class,
// function, initializer) decides what a meta loop body there keeps and
// whether 'if codegen' may appear.
//
//===----------------------------------------------------------------------===//
#include "expand/LowerInternal.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"

namespace tok = clang::tok;

namespace metacu::lowering {

bool Lowering::isMetaName(llvm::StringRef N) const {
  if (llvm::is_contained(PendingParams, N))
    return false;
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto F = It->Names.find(N);
    if (F != It->Names.end())
      return F->second;
  }
  return false;
}

bool Lowering::isTemplateParam(llvm::StringRef N) const {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    if (llvm::is_contained(It->TemplateParams, N.str()))
      return true;
    if (It->Names.count(N))
      return false;
  }
  return false;
}

void Lowering::pushBodyScope() {
  Scope S;
  S.Kind = Scopes.back().Kind;
  S.DeviceOnly = Scopes.back().DeviceOnly;
  S.InBlock = true;
  S.Body = true;
  Scopes.push_back(std::move(S));
}

void Lowering::openBrace(unsigned I, unsigned StmtStart) {
  Scope S;
  S.OpenOffset = Toks[I].Offset;
  S.InBlock = Scopes.back().InBlock;
  ScopeKind Outer = Scopes.back().Kind;
  auto Any = [&](llvm::StringRef W) {
    for (unsigned K = StmtStart; K < I; ++K)
      if (Toks[K].isIdent(W))
        return true;
    return false;
  };
  const Token *Before = I > StmtStart ? &Toks[I - 1] : nullptr;
  bool AfterParen =
      Before && (Before->is(tok::r_paren) || Before->isIdent("const") ||
                 Before->isIdent("noexcept") || Before->isIdent("override") ||
                 Before->isIdent("mutable"));
  bool HasArrow = false;
  for (unsigned K = StmtStart; K < I; ++K)
    HasArrow |= Toks[K].is(tok::arrow);
  unsigned HeaderBegin = I;
  if (Outer == ScopeKind::Function && Before &&
      (Before->is(tok::equal) || Before->isIdent("return"))) {
    // 'int lut[] = {...}' in a function body is a list, not a block: a meta
    // loop in it emits elements, not '{ ... }' blocks.
    S.Kind = ScopeKind::Init;
  } else if (Outer == ScopeKind::Function) {
    S.Kind = ScopeKind::Function;
    S.DeviceOnly = Scopes.back().DeviceOnly;
  } else if (Outer == ScopeKind::Namespace && Any("namespace")) {
    S.Kind = ScopeKind::Namespace;
    for (unsigned K = StmtStart; K < I; ++K)
      if (Toks[K].isIdent("namespace") || Toks[K].isIdent("inline")) {
        HeaderBegin = K;
        break;
      }
  } else if (Outer == ScopeKind::Namespace && Before &&
             Before->is(tok::string_literal) && I >= 2 &&
             Toks[I - 2].isIdent("extern")) {
    S.Kind = ScopeKind::Namespace;
    HeaderBegin = I - 2;
  } else if (AfterParen || HasArrow || Any("try")) {
    S.Kind = ScopeKind::Function;
  } else if (Any("enum")) {
    S.Kind = ScopeKind::Init;
  } else if (Any("struct") || Any("class") || Any("union")) {
    S.Kind = ScopeKind::Class;
  } else {
    S.Kind = ScopeKind::Init;
  }
  if (S.Kind == ScopeKind::Function && Outer != ScopeKind::Function)
    S.DeviceOnly = Any("__device__") && !Any("__host__");
  if (S.Kind == ScopeKind::Function || S.Kind == ScopeKind::Class) {
    S.TemplateParams = std::move(PendingTemplateParams);
    PendingTemplateParams.clear();
  }
  // Parameters (of a function, a lambda, a 'for' or a 'catch') are names
  // of the body that follows.
  if (S.Kind == ScopeKind::Function)
    for (const std::string &P : PendingParams)
      S.Names[P] = false;
  PendingParams.clear();
  if (S.Kind == ScopeKind::Namespace && !S.InBlock) {
    // Mirror the namespace so meta code sees qualified names as C++ does.
    closeRun();
    writeVerbatim(Toks[HeaderBegin].Offset, Toks[I].end());
    write("\n");
  } else {
    ensureRun();
    // A block of ordinary code inside a meta loop's body: a '@meta break'
    // or '@meta continue' in it must still write its '}'.
    std::optional<unsigned> Close = partnerOf(Toks, I);
    if (S.Kind == ScopeKind::Function && S.InBlock && Close) {
      S.GuardedEnd = true;
      unsigned At = Toks[*Close].Offset;
      openGuardedBlock([&] { emitText(At, At + 1); }, At);
    } else {
      write("{\n");
    }
  }
  Scopes.push_back(std::move(S));
}

std::vector<std::string> Lowering::templateParameters(unsigned Less) const {
  std::vector<std::string> Names;
  unsigned Close = skipAngles(Toks, Less);
  std::string Last;
  bool SawDefault = false;
  // The parameters' own brackets and argument lists are skipped whole.
  for (unsigned K = Less + 1; K < Close;) {
    const Token &T = Toks[K];
    if (T.isOpenBracket()) {
      K = skipGroup(Toks, K);
      continue;
    }
    if (T.is(tok::less)) {
      K = skipAngles(Toks, K);
      continue;
    }
    if (T.is(tok::comma)) {
      if (!Last.empty())
        Names.push_back(Last);
      Last.clear();
      SawDefault = false;
    } else if (T.is(tok::equal)) {
      SawDefault = true;
    } else if (!SawDefault && T.isIdent() && !isKeyword(T.Text)) {
      Last = T.Text.str();
    }
    ++K;
  }
  if (Close < Toks.size() && !Last.empty())
    Names.push_back(Last);
  return Names;
}

llvm::Error Lowering::hideMetaName(unsigned I) {
  llvm::StringRef N = Toks[I].Text;
  if (ParenDepth > 0) {
    PendingParams.push_back(N.str());
    return llvm::Error::success();
  }
  // In the scope that declares the meta name, C++ would call this a
  // redeclaration: which of the two later uses mean is anyone's guess. A
  // branch whose braces open no scope declares into the scope around it.
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto Here = It->Names.find(N);
    if (Here != It->Names.end() && Here->second)
      return errorAt(Toks[I].Offset,
                     "declaration of '" + N +
                         "' in ordinary code redeclares "
                         "the meta variable '" +
                         N + "' of the same scope; rename one of them");
    if (!It->OpensNoScope)
      break;
  }
  Scopes.back().Names[N] = false;
  return llvm::Error::success();
}

std::optional<unsigned> Lowering::initCaptureAt(unsigned I) const {
  if (I < 1 || I + 1 >= Toks.size())
    return std::nullopt;
  const Token &N = Toks[I + 1];
  if (!N.is(tok::equal) && !N.is(tok::l_brace) && !N.is(tok::l_paren))
    return std::nullopt;
  unsigned P = I - 1;
  if (Toks[P].is(tok::amp) && P > 0)
    --P;
  if (!Toks[P].is(tok::l_square) && !Toks[P].is(tok::comma))
    return std::nullopt;
  // The '[' that opens the list the name is in.
  unsigned Depth = 0;
  for (unsigned K = I; K-- > 0;) {
    const Token &T = Toks[K];
    if (T.isCloseBracket()) {
      ++Depth;
    } else if (T.isOpenBracket()) {
      if (Depth) {
        --Depth;
        continue;
      }
      if (!T.is(tok::l_square))
        return std::nullopt;
      // A subscript follows an operand; a lambda introducer does not.
      const Token *Before = K > 0 ? &Toks[K - 1] : nullptr;
      if (Before && (Before->is(tok::r_paren) || Before->is(tok::r_square) ||
                     Before->is(tok::string_literal) ||
                     (Before->isIdent() && !isKeyword(Before->Text))))
        return std::nullopt;
      return partnerOf(Toks, K);
    } else if (T.is(tok::semi)) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool Lowering::declaresName(unsigned I) const {
  if (I == 0 || I + 1 >= Toks.size())
    return false;
  const Token &P = Toks[I - 1], &N = Toks[I + 1];
  bool TypeBefore =
      P.isIdent() &&
      (!isKeyword(P.Text) ||
       llvm::is_contained({"int", "float", "double", "char", "bool", "auto",
                           "long", "short", "unsigned", "signed"},
                          P.Text));
  return TypeBefore &&
         (N.is(tok::equal) || N.is(tok::semi) || N.is(tok::comma) ||
          N.is(tok::l_square) || N.is(tok::l_brace) || N.is(tok::r_paren));
}

} // namespace metacu::lowering
