//===- LowerSpecialize.cpp - Templates over an enumeration, per enumerator
//-===//
//
// A function template whose one template parameter is an enumeration
// (nvvm_arch_t, or an enumeration of the file) and whose meta code reads
// that parameter has finitely many instantiations that meta code can know:
// one per enumerator. Its meta code need not be a constant expression
// then (a lookup in a namespace-scope 'const std::map' keyed by the
// parameter is the Circle article's pattern): metacu emits the primary
// template as a declaration and one explicit specialization per
// enumerator, expanding the body with the parameter as a meta value.
//
//===----------------------------------------------------------------------===//
#include "expand/LowerInternal.h"
#include "expand/MetaNames.h"

#include "llvm/ADT/STLExtras.h"

namespace tok = clang::tok;

namespace metacu::lowering {

std::optional<Lowering::Specialization>
Lowering::enumSpecialization(unsigned Open, unsigned StmtStart) const {
  // 'template < ENUM NAME >' right at the statement start.
  unsigned T = StmtStart;
  if (T + 4 >= Open || !Toks[T].isIdent("template") ||
      !Toks[T + 1].is(tok::less))
    return std::nullopt;
  unsigned Close = skipAngles(Toks, T + 1);
  if (Close >= Open || !Toks[Close - 1].is(tok::greater))
    return std::nullopt;
  // The parameter: a (possibly qualified) type name, then the name.
  llvm::ArrayRef<Token> Param(&Toks[T + 2], Close - 1 - (T + 2));
  if (Param.size() < 2 || !Param.back().isIdent() ||
      isKeyword(Param.back().Text))
    return std::nullopt;
  std::string Type;
  for (const Token &P : Param.drop_back()) {
    if (!P.isIdent() && !P.is(tok::coloncolon))
      return std::nullopt;
    Type += P.Text;
  }
  llvm::StringRef Unqualified = llvm::StringRef(Type).rsplit("::").second;
  if (Unqualified.empty())
    Unqualified = Type;
  bool Known = Type == "nvvm_arch_t" ||
               llvm::any_of(Slice.Enums, [&](const EnumInfo &E) {
                 return E.QualifiedName == Type ||
                        llvm::StringRef(E.QualifiedName).ends_with("::" + Type);
               });
  if (!Known)
    return std::nullopt;
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
  llvm::StringRef Var = Param.back().Text;
  bool Reads = false;
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
        Reads |= K.isIdent(Var);
    return Reads ? WalkNext::Stop : WalkNext::Children;
  });
  if (!Reads)
    return std::nullopt;
  return Specialization{T, Close, Name, Var.str(), Type};
}

void Lowering::openSpecializations(const Specialization &S, unsigned Open,
                                   unsigned &Pending) {
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

} // namespace metacu::lowering
