//===- LowerSpecialize.cpp - Templates over an enumeration, per enumerator
//-===//
//
// A function template with a template parameter of an enumeration
// (nvvm_arch_t, or an enumeration of the file) that its meta code reads
// has, for that parameter, finitely many values that meta code can know:
// one per enumerator. Its meta code need not be a constant expression
// then (a lookup in a namespace-scope 'const std::map' keyed by the
// parameter is the Circle article's pattern): the body is expanded once
// per enumerator with the parameter as a meta value. With that one
// parameter, metacu emits the primary template as a declaration and one
// explicit specialization per enumerator; with others beside it
// ('template <nvvm_arch_t sm, typename T>'), which C++ cannot specialize
// partially, the body becomes a chain of 'if constexpr (sm == ...)'
// branches, one per enumerator, in the one template.
//
//===----------------------------------------------------------------------===//
#include "expand/LowerInternal.h"
#include "expand/MetaNames.h"

#include "llvm/ADT/STLExtras.h"

namespace tok = clang::tok;

namespace metacu::lowering {

std::optional<Lowering::Specialization>
Lowering::enumSpecialization(unsigned Open, unsigned StmtStart) const {
  // 'template < PARAMS >' right at the statement start.
  unsigned T = StmtStart;
  if (T + 4 >= Open || !Toks[T].isIdent("template") ||
      !Toks[T + 1].is(tok::less))
    return std::nullopt;
  unsigned Close = skipAngles(Toks, T + 1);
  if (Close >= Open || !Toks[Close - 1].is(tok::greater))
    return std::nullopt;
  // The parameters, split at the commas outside brackets and angles.
  std::vector<llvm::ArrayRef<Token>> Params;
  for (unsigned B = T + 2, K = B; K <= Close - 1; ++K) {
    if (K == Close - 1 || Toks[K].is(tok::comma)) {
      Params.push_back(llvm::ArrayRef<Token>(&Toks[B], K - B));
      B = K + 1;
    } else if (Toks[K].is(tok::less)) {
      K = skipAngles(Toks, K) - 1;
    } else if (Toks[K].isOpenBracket()) {
      K = skipGroup(Toks, K) - 1;
    }
  }
  // Each parameter's name: the identifier before its default, if any.
  auto NameOf = [](llvm::ArrayRef<Token> P) -> std::optional<llvm::StringRef> {
    P = P.take_until([](const Token &K) { return K.is(tok::equal); });
    if (P.size() < 2 || !P.back().isIdent() || isKeyword(P.back().Text))
      return std::nullopt;
    return P.back().Text;
  };
  // The enumeration parameter: a (possibly qualified) type name, then the
  // name, without a default.
  auto EnumType = [&](llvm::ArrayRef<Token> P) -> std::optional<std::string> {
    if (P.size() < 2 || !NameOf(P) || P.size() != P.take_until([](const Token &K) {
                                                      return K.is(tok::equal);
                                                    }).size())
      return std::nullopt;
    std::string Type;
    for (const Token &K : P.drop_back()) {
      if (!K.isIdent() && !K.is(tok::coloncolon))
        return std::nullopt;
      Type += K.Text;
    }
    bool Known =
        Type == "nvvm_arch_t" ||
        llvm::any_of(Slice.Enums, [&](const EnumInfo &E) {
          return E.QualifiedName == Type ||
                 llvm::StringRef(E.QualifiedName).ends_with("::" + Type);
        });
    if (!Known)
      return std::nullopt;
    return Type;
  };
  // The function's name: the identifier before the first parenthesis that
  // is not an attribute's.
  unsigned Name = 0;
  for (unsigned K = Close + 1; K + 1 < Open; ++K) {
    if (Toks[K].isOpenBracket() && !Toks[K].is(tok::l_paren))
      return std::nullopt;
    if (Toks[K + 1].is(tok::l_paren) && Toks[K].isIdent() &&
        !isKeyword(Toks[K].Text) && !Toks[K].Text.starts_with("__")) {
      Name = K;
      break;
    }
    if (Toks[K].is(tok::l_paren))
      K = skipGroup(Toks, K) - 1;
  }
  if (!Name)
    return std::nullopt;
  // Worth it only if meta code in the body reads the parameter.
  std::optional<unsigned> End = partnerOf(Toks, Open);
  if (!End)
    return std::nullopt;
  auto Reads = [&](llvm::StringRef Var) {
    bool Read = false;
    walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Whole.End <= Toks[Open].Offset || N.Whole.Begin >= Toks[*End].Offset)
      return WalkNext::Siblings;
    if (N.Kind == NodeKind::Text)
      return WalkNext::Siblings;
    std::vector<Range> Meta{N.Head};
    for (const Branch &B : N.Branches)
      Meta.push_back(B.Cond);
    for (const Range &R : Meta)
      for (const Token &K : Scan.tokensIn(R))
        Read |= K.isIdent(Var);
    return Read ? WalkNext::Stop : WalkNext::Children;
    });
    return Read;
  };
  // The first enumeration parameter that meta code reads.
  std::optional<Specialization> S;
  for (llvm::ArrayRef<Token> P : Params)
    if (auto Type = EnumType(P); !S && Type && Reads(*NameOf(P)))
      S = Specialization{T, Close, Name, NameOf(P)->str(), *Type, {}};
  if (!S)
    return std::nullopt;
  for (llvm::ArrayRef<Token> P : Params) {
    std::optional<llvm::StringRef> N = NameOf(P);
    if (!N) // an unnamed parameter cannot be named in the chain's branches
      return std::nullopt;
    if (*N != S->Var)
      S->Others.push_back(N->str());
  }
  return S;
}

void Lowering::openSpecializations(const Specialization &S, unsigned Open,
                                   unsigned &Pending) {
  if (!S.Others.empty())
    return openBranches(S, Open, Pending);
  // The primary template, declared only: every use names an enumerator.
  emitText(Pending, Toks[S.Template].Offset);
  Pending = Toks[Open].end();
  emitText(Toks[S.Template].Offset, Toks[Open - 1].end());
  emitCode(Toks[Open].Offset, ";\n");
  write("for (auto " + S.Var + " : ::metacu::enum_values<" + S.Type +
        ">()) {\n");
  emitCode(Toks[S.Template].Offset, "template <>");
  emitText(Toks[S.Close - 1].end(), Toks[S.Name].end());
  emitCode(Toks[S.Name].end(), "<");
  anchored(Toks[S.Name].Offset, [&] {
    write("::metacu::detail::value(" + std::to_string(Toks[S.Name].Offset) +
          ", " + S.Var + ");\n");
  });
  emitCode(Toks[S.Name].end(), ">");
  emitText(Toks[S.Name].end(), Toks[Open].end());
  Scope Body;
  Body.Kind = ScopeKind::Function;
  Body.InBlock = true;
  Body.OpenOffset = Toks[Open].Offset;
  Body.Names[S.Var] = true;
  Body.Specializations = true;
  Body.DeviceOnly =
      llvm::any_of(llvm::ArrayRef<Token>(&Toks[S.Close], &Toks[Open]),
                   [](const Token &K) { return K.isIdent("__device__"); }) &&
      llvm::none_of(llvm::ArrayRef<Token>(&Toks[S.Close], &Toks[Open]),
                    [](const Token &K) { return K.isIdent("__host__"); });
  PendingTemplateParams.clear();
  PendingParams.clear();
  Scopes.push_back(std::move(Body));
}

void Lowering::openBranches(const Specialization &S, unsigned Open,
                            unsigned &Pending) {
  // The template as written, up to its '{'; then one branch per
  // enumerator, which the body's '}' closes (LowerCode.cpp).
  emitText(Pending, Toks[Open].end());
  Pending = Toks[Open].end();
  write("for (auto " + S.Var + " : ::metacu::enum_values<" + S.Type +
        ">()) {\n");
  emitCode(Toks[Open].end(), "\nif constexpr (" + S.Var + " == ");
  anchored(Toks[S.Name].Offset, [&] {
    write("::metacu::detail::value(" + std::to_string(Toks[S.Name].Offset) +
          ", " + S.Var + ");\n");
  });
  emitCode(Toks[Open].end(), ") {");
  Scope Body;
  Body.Kind = ScopeKind::Function;
  Body.InBlock = true;
  Body.OpenOffset = Toks[Open].Offset;
  Body.Names[S.Var] = true;
  Body.Specializations = true;
  Body.Branches = true;
  // Meta code reading the other parameters has a value per instantiation.
  Body.TemplateParams = S.Others;
  Body.DeviceOnly =
      llvm::any_of(llvm::ArrayRef<Token>(&Toks[S.Close], &Toks[Open]),
                   [](const Token &K) { return K.isIdent("__device__"); }) &&
      llvm::none_of(llvm::ArrayRef<Token>(&Toks[S.Close], &Toks[Open]),
                    [](const Token &K) { return K.isIdent("__host__"); });
  PendingTemplateParams.clear();
  PendingParams.clear();
  Scopes.push_back(std::move(Body));
}

} // namespace metacu::lowering
