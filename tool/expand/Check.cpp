//===- Check.cpp ----------------------------------------------------------===//
#include "expand/Check.h"
#include "support/Diagnostic.h"
#include "support/RangeSet.h"

namespace metacu {

namespace {

constexpr llvm::StringLiteral ArchValue = "__nvvm_arch";

/// The first '__nvvm_arch' among \p Toks outside skipped regions.
const Token *findArchValue(llvm::ArrayRef<Token> Toks,
                           const HostSliceResult &Slice) {
  for (const Token &T : Toks)
    if (T.isIdent(ArchValue) && !Slice.Inactive.contains(T.Offset))
      return &T;
  return nullptr;
}

/// The tokens of \p D. Where its initializer did not parse (in C++ mode
/// '__nvvm_arch' is undeclared), Clang's range of it ends before the
/// initializer: then up to its ';'.
llvm::ArrayRef<Token> wholeDeclaration(const ScanResult &Scan,
                                       const SliceDecl &D) {
  llvm::ArrayRef<Token> Toks = Scan.Tokens;
  unsigned B = Scan.tokenAt(D.Text.Begin), E = Scan.tokenAt(D.Text.End);
  if (E > B &&
      (Toks[E - 1].is(clang::tok::semi) || Toks[E - 1].is(clang::tok::r_brace)))
    return Toks.slice(B, E - B);
  while (E < Toks.size() && !Toks[E].is(clang::tok::semi))
    E = Toks[E].isOpenBracket() ? skipGroup(Toks, E) : E + 1;
  return Toks.slice(B, std::min<size_t>(E, Toks.size()) - B);
}

/// The parts of \p N that are meta code: they run once, at generation
/// time, before any compilation pass has an architecture.
std::vector<Range> metaCodeOf(const Node &N) {
  switch (N.Kind) {
  case NodeKind::Stmt:
  case NodeKind::For:
  case NodeKind::ForEnum:
  case NodeKind::While:
  case NodeKind::Splice:
    return {N.Head};
  case NodeKind::If: {
    std::vector<Range> Conds;
    for (const Branch &B : N.Branches)
      Conds.push_back(B.Cond);
    return Conds;
  }
  case NodeKind::Codegen: // its condition is evaluated once per pass
  case NodeKind::Text:
  case NodeKind::Malformed:
    break;
  }
  return {};
}

/// Whether the directive at \p Hash lies in a region the preprocessor
/// skipped for an enclosing or earlier condition. A skipped region begins
/// at the '#' of the directive whose condition was false, and that one the
/// preprocessor did evaluate.
bool evaluatedNever(const HostSliceResult &Slice, unsigned Hash) {
  std::optional<Range> Skipped = Slice.Inactive.find(Hash);
  return Skipped && Skipped->Begin != Hash;
}

/// '__nvvm_arch' is a value of the compilation pass (Emit defines it per
/// architecture); where no pass exists yet, or the preprocessor would have
/// to evaluate it, it is refused at the use.
llvm::Error checkArchValues(const ScanResult &Scan,
                            const HostSliceResult &Slice) {
  llvm::Error Err = llvm::Error::success();
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (Slice.Inactive.contains(N.Whole.Begin))
      return WalkNext::Siblings;
    for (Range R : metaCodeOf(N))
      if (const Token *T = findArchValue(Scan.tokensIn(R), Slice)) {
        Err = errorAt(
            T->Offset,
            "'__nvvm_arch' in meta code: meta code runs once, before any "
            "architecture is compiled, so it has no '__nvvm_arch'; test it "
            "with 'if codegen (__nvvm_arch ...)', or iterate the targets "
            "with '@meta for enum (auto arch : nvvm_arch_t)'");
        return WalkNext::Stop;
      }
    return WalkNext::Children;
  });
  if (Err)
    return Err;
  for (const SliceDecl &D : Slice.Declarations)
    if (const Token *T = findArchValue(wholeDeclaration(Scan, D), Slice))
      return errorAt(T->Offset,
                     "'__nvvm_arch' in a declaration that meta code uses: "
                     "meta code runs once for every architecture, so what "
                     "it reads cannot depend on the architecture; keep "
                     "'__nvvm_arch' out of this declaration or out of meta "
                     "code's reach");
  // A directive line's tokens: '#', its name, its operands.
  const std::vector<Token> &Toks = Scan.Tokens;
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].InDirective || !Toks[I].StartOfLine ||
        evaluatedNever(Slice, Toks[I].Offset))
      continue;
    llvm::StringRef Name = Toks[I + 1].Text;
    if (Name != "if" && Name != "elif")
      continue;
    for (size_t J = I + 2; J < Toks.size() && !Toks[J].StartOfLine; ++J)
      if (Toks[J].isIdent(ArchValue))
        return errorAt(Toks[J].Offset,
                       "'__nvvm_arch' in '#" + Name +
                           "': it is a C++ value of type nvvm_arch_t, which "
                           "the preprocessor cannot evaluate; test "
                           "__CUDA_ARCH__ here, or use 'if codegen "
                           "(__nvvm_arch ...)' or 'if constexpr'");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error check(const ScanResult &Scan, const HostSliceResult &Slice) {
  if (!Slice.MetaHeaders.empty()) {
    const MetaHeader &H = Slice.MetaHeaders.front();
    return errorAt(H.IncludeOffset,
                   "header '" + H.Path + "' contains meta constructs (at " +
                       H.Path + ":" + llvm::Twine(H.Line) + ":" +
                       llvm::Twine(H.Col) +
                       ") that metacu could not splice into this "
                       "file; include it with #include from a user "
                       "directory");
  }
  // nvcc reads a header given with -include before the input, as it is:
  // no splice can come first.
  if (!Slice.PreIncludedMetaHeaders.empty()) {
    const MetaHeader &H = Slice.PreIncludedMetaHeaders.front();
    std::string Reads = H.PreIncluded == H.Path
                            ? ": header"
                            : " includes '" + H.Path + "', which";
    return llvm::createStringError(
        "-include '" + H.PreIncluded + "'" + Reads +
        " contains meta constructs (at " + H.Path + ":" +
        std::to_string(H.Line) + ":" + std::to_string(H.Col) +
        "), which nvcc would read as they are through the same -include; "
        "metacu expands the dialect headers the input includes: #include "
        "it at the top of the input instead of -include");
  }
  RangeSet ArchConditional(Slice.ArchConditional),
      CompilerConditional(Slice.CompilerConditional);
  llvm::Error Err = llvm::Error::success();
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Text)
      return WalkNext::Siblings;
    bool Inactive = Slice.Inactive.contains(N.Whole.Begin);
    if (N.Kind == NodeKind::Malformed) {
      if (Inactive)
        return WalkNext::Siblings;
      Err = errorAt(N.ErrorOffset, N.Error);
      return WalkNext::Stop;
    }
    if (ArchConditional.contains(N.Whole.Begin)) {
      Err = errorAt(N.Whole.Begin,
                    "meta construct inside a preprocessor conditional that "
                    "tests __CUDA_ARCH__; metacu sees the file once, not "
                    "once per architecture, so select per-architecture "
                    "code with 'if codegen (__nvvm_arch ...)'");
      return WalkNext::Stop;
    }
    if (CompilerConditional.contains(N.Whole.Begin)) {
      Err = errorAt(N.Whole.Begin,
                    "meta construct inside a preprocessor conditional that "
                    "tests __CUDACC__ or __NVCC__; metacu reads the file as "
                    "a host C++ compiler does, without them, so it cannot "
                    "tell whether nvcc compiles this region: move the "
                    "construct out of the conditional");
      return WalkNext::Stop;
    }
    // What the preprocessor skips is left as written, whatever it holds.
    return Inactive ? WalkNext::Siblings : WalkNext::Children;
  });
  if (Err)
    return Err;
  return checkArchValues(Scan, Slice);
}

} // namespace metacu
