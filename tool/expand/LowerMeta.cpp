//===- LowerMeta.cpp - Meta constructs in the generator
//---------------------===//
//
// '@meta' statements are copied as C++; '@meta for', '@meta while' and
// '@meta if' become real loops and ifs around the lowering of their bodies;
// 'if codegen' becomes a chain of per-architecture conditions; a '@meta
// for' whose bounds depend on template parameters becomes a fold that the
// C++ compiler unrolls.
//
//===----------------------------------------------------------------------===//
#include "expand/BranchBraces.h"
#include "expand/LowerInternal.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include <optional>

namespace tok = clang::tok;

namespace metacu::lowering {

llvm::Error Lowering::lowerStatement(const Node &N) {
  llvm::ArrayRef<Token> HT = Scan.tokensIn(N.Head);
  if ((Scopes.back().Kind == ScopeKind::Function ||
       Scopes.back().Kind == ScopeKind::Class) &&
      mentionsTemplateParam(HT))
    return lowerDependentStatement(N, HT);
  llvm::ArrayRef<Token> Decl = HT;
  if (!Decl.empty() && Decl.back().is(tok::semi))
    Decl = Decl.drop_back();
  DeclaredNames D = declaredNames(Decl);
  if (DependentDepth > 0 && !D.IsDeclaration)
    return errorAt(N.Head.Begin,
                   "this meta statement is inside a '@meta if' or '@meta "
                   "for' that depends on template parameters: it would run "
                   "once at generation time, whichever way each "
                   "instantiation goes; only meta declarations may appear "
                   "there");
  if (!HT.empty() && HT.front().isIdent("static_assert"))
    return lowerStaticAssert(N, HT);
  if (D.IsDeclaration && atNamespaceLevel()) {
    closeRun();
    write("static bool __metacu_at_" + std::to_string(Counter++) +
          " = (::metacu::detail::at(" + std::to_string(N.Whole.Begin) +
          "), true);\n");
    writeVerbatim(N.Head.Begin, N.Head.End);
    write("\n");
    if (!D.Enumerators.empty() && !D.Types.empty())
      writeEnumReflection(D.Types.front(), D.Enumerators, std::nullopt);
  } else {
    ensureRun();
    setLocation(N.Whole.Begin);
    writeVerbatim(N.Head.Begin, N.Head.End);
    write("\n");
  }
  for (const std::string &V : D.Values)
    Scopes.back().Names[V] = true;
  return llvm::Error::success();
}

bool Lowering::mentionsTemplateParam(llvm::ArrayRef<Token> Toks,
                                     llvm::ArrayRef<std::string> Except) const {
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (!T.isIdent() || llvm::is_contained(Except, T.Text.str()))
      continue;
    if (I > 0 && (Toks[I - 1].is(tok::period) || Toks[I - 1].is(tok::arrow) ||
                  Toks[I - 1].is(tok::coloncolon)))
      continue;
    if (isTemplateParam(T.Text))
      return true;
  }
  return false;
}

llvm::Error Lowering::lowerDependentStatement(const Node &N,
                                              llvm::ArrayRef<Token> HT) {
  llvm::ArrayRef<Token> Decl = HT;
  if (!Decl.empty() && Decl.back().is(tok::semi))
    Decl = Decl.drop_back();
  DeclaredNames D = declaredNames(Decl);
  bool IsAssert = !HT.empty() && HT.front().isIdent("static_assert");
  if (!IsAssert && !D.IsDeclaration)
    return errorAt(N.Head.Begin,
                   "this meta statement uses a template parameter, so its "
                   "value differs per instantiation; metacu lowers such "
                   "meta code to constant expressions of the template, "
                   "which a statement that is not a declaration (an "
                   "assignment, a call for its effect) cannot be: compute "
                   "the value in a declaration's initializer");
  bool IsVariable = !IsAssert && D.Types.empty() && !D.Values.empty() &&
                    !llvm::any_of(Decl, [](const Token &T) {
                      return T.isIdent("constexpr") || T.isIdent("using") ||
                             T.isIdent("typedef");
                    });
  bool Owns = ownsLines(N);
  emitCode(N.Whole.Begin, Owns ? indentOf(N.Whole.Begin) : "");
  if (IsVariable)
    emitCode(N.Head.Begin, Scopes.back().Kind == ScopeKind::Class
                               ? "static constexpr "
                               : "constexpr ");
  if (auto Err = lowerTokens(N.Head.Begin, N.Head.End))
    return Err;
  emitCode(N.Head.End, Owns ? "\n" : " ");
  // The names are the template's constants now, ordinary code that later
  // dependent meta code builds on.
  for (const std::vector<std::string> *Names : {&D.Values, &D.Types})
    for (const std::string &V : *Names) {
      Scopes.back().Names[V] = false;
      Scopes.back().TemplateParams.push_back(V);
    }
  return llvm::Error::success();
}

llvm::Error Lowering::lowerStaticAssert(const Node &N,
                                        llvm::ArrayRef<Token> HT) {
  if (HT.size() < 3 || !HT[1].is(tok::l_paren))
    return errorAt(N.Head.Begin, "expected '(' after 'static_assert'");
  std::optional<StaticAssertParts> P = staticAssertParts(HT, 0);
  if (!P)
    return errorAt(N.Head.Begin, "malformed static_assert");
  writeMetaAssert(HT, *P, N.Whole.Begin);
  return llvm::Error::success();
}

void Lowering::writeMetaAssert(llvm::ArrayRef<Token> T,
                               const StaticAssertParts &P, unsigned At) {
  Range Cond{T[P.CondBegin].Offset, T[P.CondEnd - 1].end()};
  ensureRun();
  setLocation(At);
  write("::metacu::detail::meta_assert(static_cast<bool>(");
  writeVerbatim(Cond.Begin, Cond.End);
  write("), ");
  if (P.MsgBegin < P.MsgEnd)
    writeVerbatim(T[P.MsgBegin].Offset, T[P.MsgEnd - 1].end());
  else
    write("nullptr");
  write(", " + stringLiteral(File.text().slice(Cond.Begin, Cond.End)) + ");\n");
}

void Lowering::noteUnbracedBody(const Branch &B) {
  if (B.Braced)
    return;
  // Directive lines ('#pragma unroll') may come before the statement.
  for (unsigned K = Scan.tokenAt(B.Body.Begin);
       K < Toks.size() && Toks[K].Offset < B.Body.End; ++K)
    if (!Toks[K].InDirective) {
      UnbracedMetaBody = Toks[K].Offset;
      return;
    }
}

llvm::Error Lowering::emitBody(const Node &N, const Branch &B, bool IsLoop) {
  bool Owns = ownsLines(N);
  std::string Indent = Owns ? indentOf(N.Whole.Begin) : "";
  unsigned BB = B.Body.Begin, BE = B.Body.End;
  noteUnbracedBody(B);
  if (Scopes.back().Kind == ScopeKind::Function && !N.Using &&
      !Scopes.back().Unbraced) {
    // The end of each output block is written by a guard, so that a '@meta
    // break' or '@meta continue' inside the body still closes it.
    auto Body =
        [&](unsigned From, unsigned To, llvm::function_ref<void()> WriteEnd,
            std::optional<unsigned> EarlyIndent = std::nullopt) -> llvm::Error {
      openGuardedBlock(WriteEnd, EarlyIndent);
      llvm::Error Err = lowerSequence(B.Nodes, From, To);
      closeGuardedBlock();
      return Err;
    };
    if (B.Braced) {
      emitCode(BB, Indent);
      emitText(BB, B.Inner.Begin);
      return Body(
          B.Inner.Begin, B.Inner.End,
          [&] {
            emitText(B.Inner.End, BE);
            emitCode(BE, Owns ? "\n" : " ");
          },
          B.Inner.End);
    }
    bool NestedOwner = B.Nodes.size() == 1 &&
                       B.Nodes[0].Kind != NodeKind::Text &&
                       ownsLines(B.Nodes[0]);
    if (NestedOwner) {
      if (IsLoop && Owns)
        emitCode(BB, Indent + "{\n");
      return Body(BB, BE, [&] {
        if (IsLoop && Owns)
          emitCode(BE, Indent + "}\n");
      });
    }
    // A directive ('#pragma unroll' before an ordinary loop) must begin
    // its line.
    bool DirectiveFirst = Toks[Scan.tokenAt(BB)].InDirective;
    std::string Open = IsLoop ? "{ " : "";
    if (DirectiveFirst)
      Open = IsLoop ? "{\n" : Owns ? "" : "\n";
    emitCode(BB, Indent + Open);
    return Body(BB, BE, [&] {
      emitCode(BE, std::string(IsLoop ? " }" : "") + (Owns ? "\n" : " "));
    });
  }
  // Namespace, class and initializer scope, a 'using if codegen' branch
  // and one that can lose its braces: the braces are not emitted, so a loop can
  // generate declarations and a branch declares into the scope around it.
  if (B.Braced) {
    unsigned IB = B.Inner.Begin, IE = B.Inner.End;
    llvm::StringRef Inner = File.text().slice(IB, IE);
    size_t FirstNL = Inner.find('\n');
    if (FirstNL != llvm::StringRef::npos &&
        Inner.take_front(FirstNL).trim().empty())
      IB += FirstNL + 1;
    size_t LastNL = File.text().slice(IB, IE).rfind('\n');
    bool EndsLine = false;
    if (LastNL != llvm::StringRef::npos &&
        File.text().slice(IB + LastNL + 1, IE).trim().empty()) {
      IE = IB + LastNL + 1;
      EndsLine = true;
    }
    if (auto Err = lowerSequence(B.Nodes, IB, IE))
      return Err;
    if (!EndsLine)
      emitCode(BE, Owns ? "\n" : " ");
    return llvm::Error::success();
  }
  emitCode(BB, Indent);
  if (auto Err = lowerSequence(B.Nodes, BB, BE))
    return Err;
  emitCode(BE, Owns ? "\n" : " ");
  return llvm::Error::success();
}

llvm::Error Lowering::lowerLoop(const Node &N) {
  llvm::ArrayRef<Token> HT = Scan.tokensIn(N.Head);
  if (N.Kind == NodeKind::For && isTemplateDependent(HT))
    return lowerTemplateFor(N, HT);
  if (mentionsTemplateParam(HT, loopVariables(HT)))
    return errorAt(N.Head.Begin,
                   "only a counted '@meta for (T i = A; i < B; ++i)' may "
                   "depend on template parameters (it becomes a fold the "
                   "C++ compiler unrolls per instantiation); a range, enum "
                   "or while loop is run at generation time");
  ensureRun();
  setLocation(N.Whole.Begin);
  std::vector<std::string> Vars;
  if (N.Kind == NodeKind::ForEnum) {
    // The ':' outside brackets and template argument lists.
    unsigned Colon = 0;
    for (unsigned K = 0; K < HT.size() && !Colon;)
      if (HT[K].isOpenBracket())
        K = skipGroup(HT, K);
      else if (HT[K].is(tok::less))
        K = skipAngles(HT, K);
      else if (HT[K].is(tok::colon))
        Colon = K;
      else
        ++K;
    if (!Colon || Colon + 1 >= HT.size())
      return errorAt(N.Head.Begin, "expected '@meta for enum (DECLARATION "
                                   ": ENUMERATION_TYPE)'");
    Range TypeR{HT[Colon + 1].Offset, HT.back().end()};
    anchored(TypeR.Begin, [&] {
      write("static_assert(std::is_enum_v<");
      writeVerbatim(TypeR.Begin, TypeR.End);
      write(">, \"'@meta for enum' needs an enumeration type\");\n");
    });
    write("for (");
    writeVerbatim(N.Head.Begin, HT[Colon].Offset);
    write(" : ::metacu::enum_values<");
    writeVerbatim(TypeR.Begin, TypeR.End);
    write(">()) {\n");
    Vars = loopVariables(HT);
  } else {
    write(N.Kind == NodeKind::While ? "while (" : "for (");
    writeVerbatim(N.Head.Begin, N.Head.End);
    write(") {\n");
    if (N.Kind == NodeKind::For)
      Vars = loopVariables(HT);
  }
  pushBodyScope();
  for (const std::string &V : Vars)
    Scopes.back().Names[V] = true;
  auto Err = emitBody(N, N.Branches[0], /*IsLoop=*/true);
  Scopes.pop_back();
  write("}\n");
  return Err;
}

llvm::Error Lowering::lowerMetaIf(const Node &N) {
  bool Dependent = llvm::any_of(N.Branches, [&](const Branch &B) {
    return !B.IsElse && mentionsTemplateParam(Scan.tokensIn(B.Cond));
  });
  if (Dependent)
    return lowerDependentIf(N);
  ensureRun();
  setLocation(N.Whole.Begin);
  for (size_t I = 0; I < N.Branches.size(); ++I) {
    const Branch &B = N.Branches[I];
    if (B.IsElse) {
      write("} else {\n");
    } else {
      write(I == 0 ? "if (" : "} else if (");
      writeVerbatim(B.Cond.Begin, B.Cond.End);
      write(") {\n");
    }
    pushBodyScope();
    auto Err = emitBody(N, B, /*IsLoop=*/false);
    Scopes.pop_back();
    if (Err)
      return Err;
  }
  write("}\n");
  return llvm::Error::success();
}

llvm::Error Lowering::lowerDependentIf(const Node &N) {
  if (Scopes.back().Kind != ScopeKind::Function)
    return errorAt(N.Whole.Begin,
                   "a '@meta if' whose condition depends on template "
                   "parameters becomes 'if constexpr', which only a "
                   "function body can hold");
  bool Owns = ownsLines(N);
  emitCode(N.Whole.Begin, Owns ? indentOf(N.Whole.Begin) : "");
  for (size_t I = 0; I < N.Branches.size(); ++I) {
    const Branch &B = N.Branches[I];
    if (B.IsElse) {
      emitCode(B.Body.Begin, "else ");
    } else {
      emitCode(B.Cond.Begin, I == 0 ? "if constexpr (" : "else if constexpr (");
      if (auto Err = lowerTokens(B.Cond.Begin, B.Cond.End))
        return Err;
      emitCode(B.Cond.End, ") ");
    }
    // The branch is a block of the template; its meta declarations are
    // scoped to it as C++ declarations are.
    pushBodyScope();
    ++DependentDepth;
    emitCode(B.Body.Begin, B.Braced ? "" : "{ ");
    noteUnbracedBody(B);
    llvm::Error Err = B.Braced
                          ? lowerBracedBody(B)
                          : lowerSequence(B.Nodes, B.Body.Begin, B.Body.End);
    bool Last = I + 1 == N.Branches.size();
    emitCode(B.Body.End, std::string(B.Braced ? "" : " }") + (Last ? "" : " "));
    --DependentDepth;
    Scopes.pop_back();
    if (Err)
      return Err;
  }
  emitCode(N.Whole.End, Owns ? "\n" : " ");
  return llvm::Error::success();
}

llvm::Error Lowering::lowerBracedBody(const Branch &B) {
  emitText(B.Body.Begin, B.Inner.Begin);
  if (auto Err = lowerSequence(B.Nodes, B.Inner.Begin, B.Inner.End))
    return Err;
  emitText(B.Inner.End, B.Body.End);
  return llvm::Error::success();
}

llvm::Error Lowering::lowerCodegen(const Node &N) {
  // The scanner let it begin after a ',' directly inside braces: entries
  // of a list, which only an initializer or an enumerator list has.
  if (followsComma(N) && Scopes.back().Kind != ScopeKind::Init)
    return errorAt(N.Whole.Begin,
                   "'if codegen' after a ',' chooses entries of a braced "
                   "list, and these braces are no initializer or enumerator "
                   "list; write the list as the initializer of a declared "
                   "variable ('T t[] = {...}')");
  // A 'using' chain's branches are no blocks that 'if (false)' could
  // guard, and the names they declare are the function's.
  bool HostCopy = Scopes.back().DeviceOnly && !N.Using &&
                  llvm::any_of(Scan.tokensIn(N.Whole), [](const Token &T) {
                    return T.isIdent("return");
                  });
  if (HostCopy)
    HostCopyChains.push_back(N.Whole.Begin);
  // The host pass's copy puts each branch in a block of its own, so the
  // device passes' braces follow the same rule with or without it.
  std::vector<bool> Unbraced = bracesCanGo(N);
  ensureRun();
  write("{\n");
  setLocation(N.Whole.Begin);
  // The body of an 'if', 'else' or loop: no statement begins before it.
  // (An empty block would be right anywhere a statement is; this only
  // keeps it out of the output where it is not needed.)
  bool Substatement = !N.Using && isSubstatement(N);
  write("::metacu::detail::codegen_chain __metacu_cg(" +
        std::to_string(N.Whole.Begin) +
        (Substatement ? ", \"" + indentOf(N.Whole.Begin) + "{}\\n\"" : "") +
        ");\n");
  // The '#endif', also when a '@meta break' leaves a branch.
  write("::metacu::detail::block_end __metacu_cg_end([&](bool) { "
        "__metacu_cg.close(); });\n");
  for (const Branch &B : N.Branches) {
    if (B.IsElse) {
      write("__metacu_cg.otherwise();\n");
      continue;
    }
    write("__metacu_cg.branch([&](nvvm_arch_t __nvvm_arch) -> bool { "
          "(void)__nvvm_arch; return static_cast<bool>(");
    writeVerbatim(B.Cond.Begin, B.Cond.End);
    write("); });\n");
  }
  for (size_t I = 0; I < N.Branches.size(); ++I) {
    write("if (__metacu_cg.open(" + std::to_string(I) + ")) {\n");
    pushBodyScope();
    Scopes.back().OpensNoScope =
        N.Using || Scopes.back().Kind != ScopeKind::Function;
    Scopes.back().Unbraced = Unbraced[I];
    auto Err = emitBody(N, N.Branches[I], /*IsLoop=*/false);
    Scope Branch = std::move(Scopes.back());
    Scopes.pop_back();
    if (Err)
      return Err;
    // What the branch's ordinary declarations hide stays hidden below the
    // chain, where C++ sees them. Its meta declarations stay its own.
    if (Branch.OpensNoScope)
      for (const auto &Name : Branch.Names)
        if (!Name.second)
          Scopes.back().Names.try_emplace(Name.first(), false);
    write("}\n");
  }
  write("}\n");
  return llvm::Error::success();
}

std::vector<bool> Lowering::bracesCanGo(const Node &N) const {
  std::vector<bool> Can(N.Branches.size(), false);
  if (Scopes.back().Kind != ScopeKind::Function || N.Using)
    return Can;
  unsigned First = Scan.tokenAt(N.Whole.Begin);
  unsigned Last = Scan.tokenAt(N.Whole.End) - 1;
  if (!beginsBlockStatement(Toks, First))
    return Can;
  bool Ends = endsBlock(Toks, Last);
  // What the function declared before the chain, in any block: more than
  // the chain's block holds, which only keeps braces that could go.
  std::optional<llvm::StringSet<>> Before;
  auto DeclaredBefore = [&]() -> const llvm::StringSet<> & {
    if (!Before) {
      auto Function = llvm::find_if(
          Scopes, [](const Scope &S) { return S.Kind == ScopeKind::Function; });
      Before = declaredBefore(
          Toks, functionHeadBegin(Toks, Scan.tokenAt(Function->OpenOffset)),
          First);
    }
    return *Before;
  };
  for (size_t I = 0; I < N.Branches.size(); ++I) {
    const Branch &B = N.Branches[I];
    if (!B.Braced)
      continue;
    std::optional<llvm::StringSet<>> Declared = declaredAtTopLevel(
        Toks, Scan.tokenAt(B.Body.Begin), Scan.tokenAt(B.Inner.End));
    Can[I] = Declared &&
             (Declared->empty() ||
              (Ends && llvm::none_of(Declared->keys(), [&](llvm::StringRef K) {
                 return DeclaredBefore().contains(K);
               })));
  }
  return Can;
}

bool Lowering::isTemplateDependent(llvm::ArrayRef<Token> HT) const {
  bool Classic =
      llvm::any_of(HT, [](const Token &T) { return T.is(tok::semi); });
  if (!Classic)
    return false;
  std::vector<std::string> Vars = loopVariables(HT);
  for (const Token &T : HT)
    if (T.isIdent() && !llvm::is_contained(Vars, T.Text.str()) &&
        isTemplateParam(T.Text))
      return true;
  return false;
}

llvm::Error Lowering::lowerTemplateFor(const Node &N,
                                       llvm::ArrayRef<Token> HT) {
  const char *Form =
      "a '@meta for' whose bounds depend on template parameters must read "
      "'for (T i = A; i < B; ++i)' (also <=, >, >=, != and i++, --i, "
      "i--, i += S, i -= S)";
  unsigned Semi1 = 0, Semi2 = 0;
  for (unsigned K = 0; K < HT.size(); ++K)
    if (HT[K].is(tok::semi))
      (Semi1 ? Semi2 : Semi1) = K;
  if (!Semi1 || !Semi2)
    return errorAt(N.Head.Begin, Form);
  unsigned Eq = 0;
  for (unsigned K = 0; K < Semi1; ++K)
    if (HT[K].is(tok::equal)) {
      Eq = K;
      break;
    }
  if (Eq < 2 || !HT[Eq - 1].isIdent() || Eq + 1 >= Semi1)
    return errorAt(N.Head.Begin, Form);
  llvm::StringRef Var = HT[Eq - 1].Text;
  Range TypeR{HT[0].Offset, HT[Eq - 2].end()};
  Range A{HT[Eq + 1].Offset, HT[Semi1 - 1].end()};
  // Condition: VAR OP B.
  if (Semi1 + 3 > Semi2 || !HT[Semi1 + 1].isIdent(Var))
    return errorAt(HT[Semi1].Offset, Form);
  const Token &Op = HT[Semi1 + 2];
  const char *Cmp = Op.is(tok::less)           ? "lt"
                    : Op.is(tok::lessequal)    ? "le"
                    : Op.is(tok::greater)      ? "gt"
                    : Op.is(tok::greaterequal) ? "ge"
                    : Op.is(tok::exclaimequal) ? "ne"
                                               : nullptr;
  if (!Cmp || Semi1 + 3 >= Semi2)
    return errorAt(Op.Offset, Form);
  Range Bound{HT[Semi1 + 3].Offset, HT[Semi2 - 1].end()};
  // Step.
  llvm::ArrayRef<Token> S = HT.drop_front(Semi2 + 1);
  std::string StepSign;
  std::optional<Range> StepExpr;
  if (S.size() == 2 && ((S[0].is(tok::plusplus) && S[1].isIdent(Var)) ||
                        (S[0].isIdent(Var) && S[1].is(tok::plusplus))))
    StepSign = "1";
  else if (S.size() == 2 && ((S[0].is(tok::minusminus) && S[1].isIdent(Var)) ||
                             (S[0].isIdent(Var) && S[1].is(tok::minusminus))))
    StepSign = "-1";
  else if (S.size() >= 3 && S[0].isIdent(Var) &&
           (S[1].is(tok::plusequal) || S[1].is(tok::minusequal))) {
    StepSign = S[1].is(tok::plusequal) ? "+" : "-";
    StepExpr = Range{S[2].Offset, S.back().end()};
  } else {
    return errorAt(S.empty() ? N.Head.End : S[0].Offset, Form);
  }
  if (auto Err = checkTemplateBody(N.Branches[0], Var))
    return Err;

  bool Owns = ownsLines(N);
  std::string Indent = Owns ? indentOf(N.Whole.Begin) : "";
  std::string Type = File.text().slice(TypeR.Begin, TypeR.End).str();
  unsigned At = N.Whole.Begin;
  emitCode(At, Indent + "::metacu::unroll_for<" + Type + ", ");
  if (auto Err = lowerTokens(A.Begin, A.End))
    return Err;
  emitCode(At, ", ");
  if (auto Err = lowerTokens(Bound.Begin, Bound.End))
    return Err;
  emitCode(At, ", ");
  if (StepExpr) {
    emitCode(At, StepSign + "(");
    if (auto Err = lowerTokens(StepExpr->Begin, StepExpr->End))
      return Err;
    emitCode(At, ")");
  } else {
    emitCode(At, StepSign);
  }
  std::string Param = "metacu_" + Var.str() + "_";
  emitCode(At, std::string(", ::metacu::loop_cmp::") + Cmp + ">([&](auto " +
                   Param + ") { constexpr " + Type + " " + Var.str() +
                   " = decltype(" + Param + ")::value; (void)" + Var.str() +
                   ";");
  // The lambda's braces stand in for the body's own.
  const Branch &B = N.Branches[0];
  pushBodyScope();
  Scopes.back().Names[Var] = false;
  Scopes.back().TemplateParams.push_back(Var.str());
  ++DependentDepth;
  llvm::Error Err = llvm::Error::success();
  if (B.Braced) {
    Err = lowerSequence(B.Nodes, B.Inner.Begin, B.Inner.End);
    emitText(B.Inner.End, B.Body.End);
    emitCode(B.Body.End, std::string(");") + (Owns ? "\n" : " "));
  } else {
    emitCode(B.Body.Begin, " ");
    noteUnbracedBody(B);
    Err = lowerSequence(B.Nodes, B.Body.Begin, B.Body.End);
    emitCode(B.Body.End, std::string(" });") + (Owns ? "\n" : " "));
  }
  --DependentDepth;
  Scopes.pop_back();
  return Err;
}

llvm::Error Lowering::checkTemplateBody(const Branch &B, llvm::StringRef Var) {
  llvm::ArrayRef<Token> BT = Scan.tokensIn(B.Body);
  bool InnerLoop = false;
  for (const Token &T : BT) {
    if (T.isIdent("for") || T.isIdent("while") || T.isIdent("do") ||
        T.isIdent("switch"))
      InnerLoop = true;
    if (T.isIdent("return") ||
        (!InnerLoop && (T.isIdent("break") || T.isIdent("continue"))))
      return errorAt(T.Offset,
                     "'" + T.Text +
                         "' cannot appear in a '@meta for' whose bounds "
                         "depend on template parameters: its body is "
                         "instantiated once per index");
  }
  return llvm::Error::success();
}

} // namespace metacu::lowering
