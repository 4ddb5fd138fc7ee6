//===- Lower.cpp
//------------------------------------------------------------===//
#include "expand/BranchBraces.h"
#include "expand/LowerInternal.h"
#include "expand/StartHeaders.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

#include <metacu/detail/host_api.h>

namespace metacu {
namespace lowering {

llvm::Expected<Generator> Lowering::run() {
  Scopes.push_back(Scope());
  if (Slice.NeedsCudaRuntime)
    write("#include <cuda_runtime.h>\n");
  if (auto Err = lowerSequence(Scan.Nodes, 0, File.size()))
    return std::move(Err);
  if (Scopes.size() != 1)
    return errorAt(Scopes.back().OpenOffset,
                   "this '{' is never closed (metacu tracks braces to scope "
                   "meta declarations)");
  closeRun();
  Generator G;
  G.Prelude = prelude();
  G.Program = std::move(Out);
  G.StartEnd = StartEnd.value_or(0);
  // The headers end after the last #include and the last splice.
  G.HeadersEnd = std::max(startHeadersEnd(llvm::StringRef(G.Program).take_front(
                              G.StartEnd ? G.StartEnd : BeforeFirstConstruct)),
                          AfterSplices);
  if (G.HeadersEnd == G.StartEnd)
    G.HeadersEnd = 0;
  G.Map = std::move(Map);
  G.HostCopyChains = std::move(HostCopyChains);
  return G;
}

bool Lowering::namesAMacro(unsigned I) const {
  if (!Toks[I].InDirective || I == 0)
    return false;
  const Token *Prev = &Toks[I - 1];
  if (Prev->is(clang::tok::l_paren) && I >= 2)
    Prev = &Toks[I - 2];
  return Prev->isIdent("define") || Prev->isIdent("undef") ||
         Prev->isIdent("ifdef") || Prev->isIdent("ifndef") ||
         Prev->isIdent("elifdef") || Prev->isIdent("elifndef") ||
         Prev->isIdent("defined");
}

void Lowering::writeVerbatim(unsigned B, unsigned E) {
  // __LINE__ and __FILE__ in the user's code mean the user's line and file
  // (as nvcc sees them through the #line map), not the generator's.
  for (unsigned I = Scan.tokenAt(B); I < Toks.size() && Toks[I].end() <= E;
       ++I) {
    const Token &T = Toks[I];
    bool IsLine = T.isIdent("__LINE__");
    if ((!IsLine && !T.isIdent("__FILE__")) || namesAMacro(I))
      continue;
    copyVerbatim(B, T.Offset);
    anchored(T.Offset, [&] {
      write(IsLine ? std::to_string(File.line(T.Offset))
                   : stringLiteral(File.path()));
    });
    B = T.end();
  }
  copyVerbatim(B, E);
}

void Lowering::noteOrigin(unsigned B, unsigned E, bool RunOpensHere) {
  if (StartEnd)
    return;
  // Whose code it is: the line break that ends a header's last line is
  // nobody's.
  while (B < E && llvm::isSpace(File.text()[B]))
    ++B;
  if (B == E)
    return;
  Origin O = File.origin(B);
  if (O.Library || O.Path != File.path()) {
    AfterHeaderCode = true;
    return;
  }
  // The file's own code after a splice, where a piece of the program can
  // end: a run about to open at the file's level (a declaration of its
  // own).
  if (AfterHeaderCode && RunOpensHere && !InRun && Scopes.size() == 1 &&
      atNamespaceLevel() && (Out.empty() || Out.back() == '\n')) {
    AfterSplices = Out.size();
    AfterHeaderCode = false;
  }
}

void Lowering::copyVerbatim(unsigned B, unsigned E) {
  if (E <= B)
    return;
  noteOrigin(B, E, /*RunOpensHere=*/false);
  Map.addVerbatim(Out.size(), B, E - B);
  Out += File.text().slice(B, E);
}

void Lowering::ensureRun() {
  if (InRun)
    return;
  write("static bool __metacu_run_" + std::to_string(Counter++) +
        " = ::metacu::detail::run_block([] {\n");
  InRun = true;
  RunBegin = Out.size();
}

void Lowering::closeRun() {
  if (!InRun)
    return;
  write("::metacu::detail::block_finished = true;\n});\n");
  InRun = false;
}

void Lowering::emitText(unsigned B, unsigned E) {
  if (E <= B)
    return;
  noteOrigin(B, E, /*RunOpensHere=*/true);
  ensureRun();
  write("::metacu::detail::text(" + std::to_string(B) + ", " +
        std::to_string(E) + ");\n");
}

void Lowering::emitCode(unsigned At, llvm::StringRef S) {
  if (S.empty())
    return;
  ensureRun();
  write("::metacu::detail::code(" + std::to_string(At) + ", " +
        stringLiteral(S) + ");\n");
}

void Lowering::openGuardedBlock(llvm::function_ref<void()> WriteEnd,
                                std::optional<unsigned> EarlyIndent) {
  write("{\n::metacu::detail::block_end __metacu_end([&](bool "
        "__metacu_early) {\n");
  // The end goes on a line of its own. The space makes the line the
  // skipped text would have ended whitespace-only, which the output drops
  // instead of leaving a blank line (Emit.cpp).
  if (EarlyIndent)
    write("if (__metacu_early) ::metacu::detail::code(" +
          std::to_string(*EarlyIndent) + ", " +
          stringLiteral(" \n" + indentOf(*EarlyIndent)) + ");\n");
  WriteEnd();
  write("});\n");
}

void Lowering::closeGuardedBlock() { write("__metacu_end.reached();\n}\n"); }

void Lowering::setLocation(unsigned At) {
  write("::metacu::detail::at(" + std::to_string(At) + ");\n");
}

std::string Lowering::indentOf(unsigned Offset) const {
  unsigned B = File.lineStart(Offset);
  std::string S;
  for (unsigned I = B; I < Offset; ++I) {
    char C = File.text()[I];
    if (C != ' ' && C != '\t')
      break;
    S += C;
  }
  return S;
}

bool Lowering::ownsLines(const Node &N) const {
  if (N.Kind == NodeKind::Splice || N.Kind == NodeKind::Malformed ||
      isInactive(N.Whole.Begin))
    return false;
  return Toks[N.TokBegin].StartOfLine &&
         (N.TokEnd >= Toks.size() || Toks[N.TokEnd].StartOfLine);
}

unsigned Lowering::unrollPragmaBefore(unsigned B, unsigned E) const {
  // The last line of [B, E) that holds tokens.
  unsigned I = Scan.tokenAt(E);
  if (I == 0)
    return E;
  unsigned Last = I - 1;
  if (Toks[Last].Offset < B || !Toks[Last].InDirective)
    return E;
  unsigned First = Last;
  while (First > 0 && !Toks[First].StartOfLine)
    --First;
  if (Toks[First].Offset < B || !Toks[First].is(clang::tok::hash) ||
      First + 2 > Last || !Toks[First + 1].isIdent("pragma") ||
      !Toks[First + 2].isIdent("unroll"))
    return E;
  return File.lineStart(Toks[First].Offset);
}

unsigned Lowering::afterLineEnd(unsigned Offset) const {
  size_t NL = File.text().find('\n', Offset);
  return NL == llvm::StringRef::npos ? File.size() : unsigned(NL + 1);
}

llvm::Error Lowering::lowerSequence(const std::vector<Node> &Nodes,
                                    unsigned Begin, unsigned End) {
  for (size_t I = 0; I < Nodes.size(); ++I) {
    const Node &N = Nodes[I];
    if (N.Kind == NodeKind::Text) {
      unsigned B = std::max(N.Whole.Begin, Begin);
      unsigned E = std::min(N.Whole.End, End);
      if (I > 0 && ownsLines(Nodes[I - 1]))
        B = std::max(
            B, std::min(afterLineEnd(Nodes[I - 1].Whole.End), N.Whole.End));
      if (I + 1 < Nodes.size() && ownsLines(Nodes[I + 1]))
        E = std::min(E, std::max(File.lineStart(Nodes[I + 1].Whole.Begin),
                                 N.Whole.Begin));
      if (I + 1 < Nodes.size() && isMetaLoop(Nodes[I + 1]))
        E = std::max(B, unrollPragmaBefore(B, E));
      if (auto Err = lowerTokens(B, E))
        return Err;
      continue;
    }
    // Check() has made sure that what remains of malformed constructs
    // and of those in conditionals lies in skipped regions.
    if (N.Kind == NodeKind::Malformed || isInactive(N.Whole.Begin)) {
      // nvcc skips this region too; leave it as written.
      emitText(N.Whole.Begin, N.Whole.End);
      continue;
    }
    markStart(N);
    if (auto Err = lowerConstruct(N))
      return Err;
  }
  return llvm::Error::success();
}

void Lowering::markStart(const Node &N) {
  if (StartEnd)
    return;
  Origin O = File.origin(N.Whole.Begin);
  if (O.Library || O.Path != File.path())
    return;
  StartEnd = 0;
  BeforeFirstConstruct = Out.size();
  // Only at the file's level can the rest be parsed on its own.
  if (Scopes.size() != 1 || !atNamespaceLevel() || isSubstatement(N))
    return;
  closeRun();
  if (Out.empty() || Out.back() != '\n')
    return;
  StartEnd = Out.size();
}

bool Lowering::isSubstatement(const Node &N) const {
  if (Scopes.back().Kind != ScopeKind::Function ||
      UnbracedMetaBody == N.Whole.Begin)
    return false;
  return !followsComma(N) &&
         !beginsBlockStatement(Toks, Scan.tokenAt(N.Whole.Begin));
}

bool Lowering::followsComma(const Node &N) const {
  std::optional<unsigned> P = previousCode(Toks, Scan.tokenAt(N.Whole.Begin));
  return P && Toks[*P].is(clang::tok::comma);
}

llvm::Error Lowering::lowerConstruct(const Node &N) {
  // A meta construct that is the body of an ordinary 'if', 'else' or loop
  // may make any number of statements, none included: they are made one
  // statement, or the body would be the first copy, or what follows.
  // ('if codegen' makes at most one, and an empty block where it makes
  // none: lowerCodegen.)
  if (N.Kind != NodeKind::Codegen && N.Kind != NodeKind::Splice &&
      isSubstatement(N)) {
    bool Owns = ownsLines(N);
    std::string Indent = Owns ? indentOf(N.Whole.Begin) : "";
    emitCode(N.Whole.Begin, Indent + (Owns ? "{\n" : "{ "));
    if (auto Err = lowerMetaConstruct(N))
      return Err;
    emitCode(N.Whole.End, Owns ? Indent + "}\n" : " }");
    return llvm::Error::success();
  }
  return lowerMetaConstruct(N);
}

llvm::Error Lowering::lowerMetaConstruct(const Node &N) {
  switch (N.Kind) {
  case NodeKind::Stmt:
    return lowerStatement(N);
  case NodeKind::For:
  case NodeKind::ForEnum:
  case NodeKind::While:
    return lowerLoop(N);
  case NodeKind::If:
    return lowerMetaIf(N);
  case NodeKind::Codegen:
    return lowerCodegen(N);
  case NodeKind::Splice:
    // metacu runs before any instantiation: a splice has one value.
    if (mentionsTemplateParam(Scan.tokensIn(N.Head)))
      return errorAt(N.Whole.Begin,
                     "this splice reads a template parameter (or a constant "
                     "of the template, such as the index of a '@meta for' "
                     "over template parameters), which has a value per "
                     "instantiation only; write the expression without "
                     "'@(...)': it is a constant expression there");
    ensureRun();
    setLocation(N.Whole.Begin);
    anchored(N.Whole.Begin, [&] {
      write("::metacu::detail::splice(" + std::to_string(N.Whole.Begin) +
            ", (");
      writeVerbatim(N.Head.Begin, N.Head.End);
      write("));\n");
    });
    return llvm::Error::success();
  case NodeKind::Text:
  case NodeKind::Malformed:
    break;
  }
  return llvm::Error::success();
}

std::string Lowering::prelude() {
  std::string P = "#include <metacu/detail/generator.h>\n"
                  "metacu_host_api metacu_host;\n";
  P += Archs.enumDefinition() + "\n";
  std::vector<std::string> Names;
  for (const Arch &A : Archs.archs())
    Names.push_back(A.name());
  std::swap(Out, P);
  writeEnumReflection("nvvm_arch_t", Names, std::string("nvvm_arch_t::"));
  std::swap(Out, P);
  P += "extern \"C\" void " METACU_RUN_INITIALIZERS "(void (*init)()) {\n"
       "  ::metacu::detail::run(init);\n"
       "}\n";
  return P;
}

} // namespace lowering

llvm::Expected<Generator> lower(const SourceFile &File, const ScanResult &Scan,
                                const HostSliceResult &Slice,
                                const ArchList &Archs,
                                llvm::ArrayRef<unsigned> HostDevice) {
  return lowering::Lowering(File, Scan, Slice, Archs, HostDevice).run();
}

} // namespace metacu
