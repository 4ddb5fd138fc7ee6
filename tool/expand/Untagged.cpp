//===- Untagged.cpp -------------------------------------------------------===//
#include "expand/Untagged.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"
#include "support/RangeSet.h"
#include "toolchain/Invocation.h"
#include "toolchain/Preambles.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Cuda.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaCUDA.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tok = clang::tok;
using namespace clang;

namespace metacu {

namespace {

//===----------------------------------------------------------------------===//
// The cheap test: names in the tokens.
//===----------------------------------------------------------------------===//

/// The input's meta code: heads of meta constructs and conditions of their
/// branches.
std::vector<Range> metaCode(const ScanResult &Scan) {
  std::vector<Range> Meta;
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Text)
      return WalkNext::Siblings;
    Meta.push_back(N.Head);
    for (const Branch &B : N.Branches)
      Meta.push_back(B.Cond);
    return WalkNext::Children;
  });
  return Meta;
}

/// Whether token \p I of \p Toks names a function it calls: followed by
/// '(' or by template arguments and '(', and not a member's name.
bool namesCallee(llvm::ArrayRef<Token> Toks, unsigned I) {
  if (!Toks[I].isIdent() || isKeyword(Toks[I].Text) || I + 1 >= Toks.size())
    return false;
  unsigned After = I + 1;
  if (Toks[After].is(tok::less))
    After = skipAngles(Toks, After);
  if (After >= Toks.size() || !Toks[After].is(tok::l_paren))
    return false;
  return I == 0 || !(Toks[I - 1].is(tok::period) || Toks[I - 1].is(tok::arrow));
}

/// A function declared at namespace scope in the input, as its tokens
/// show it.
struct Declared {
  std::string Name;
  /// The names of the namespaces around it, outermost first.
  std::vector<std::string> Namespaces;
  bool Tagged = false, Device = false;
  /// Token range of the body, inside the braces; empty for a declaration.
  unsigned BodyBegin = 0, BodyEnd = 0;
};

/// The namespace-scope functions of the input's active, non-meta tokens.
class Declarations {
public:
  Declarations(const ScanResult &Scan, const HostSliceResult &Slice)
      : Toks(Scan.Tokens), Inactive(Slice.Inactive),
        // Meta code is not the program's: its tokens are skipped.
        Meta(metaCode(Scan)) {
    // 'namespace A = x::B;': A names B.
    for (unsigned I = 0; I + 2 < Toks.size(); ++I) {
      if (!Toks[I].isIdent("namespace") || !Toks[I + 1].isIdent() ||
          !Toks[I + 2].is(tok::equal))
        continue;
      unsigned K =
          I + 3 + (I + 3 < Toks.size() && Toks[I + 3].is(tok::coloncolon));
      while (K + 2 < Toks.size() && Toks[K + 1].is(tok::coloncolon))
        K += 2;
      if (K < Toks.size() && Toks[K].isIdent())
        Aliases[Toks[I + 1].Text] = Toks[K].Text;
    }
  }

  std::vector<Declared> functions() const {
    std::vector<Declared> Fs;
    // The namespaces open: the index of the '}' closing each, its name.
    std::vector<std::pair<unsigned, std::string>> Open;
    auto Declare = [&](Declared F) {
      for (const auto &N : Open)
        if (!N.second.empty())
          F.Namespaces.push_back(N.second);
      Fs.push_back(std::move(F));
    };
    unsigned Start = 0;
    for (unsigned I = 0; I < Toks.size(); ++I) {
      while (!Open.empty() && Open.back().first <= I)
        Open.pop_back();
      if (skipped(I)) {
        Start = I + 1;
        continue;
      }
      const Token &T = Toks[I];
      if (T.is(tok::semi) || T.is(tok::r_brace)) {
        if (T.is(tok::semi))
          if (auto F = declaration(Start, I))
            Declare(*F);
        Start = I + 1;
        continue;
      }
      if (!T.is(tok::l_brace))
        continue;
      std::optional<unsigned> Close = partnerOf(Toks, I);
      if (!Close)
        break;
      // 'extern "C" {' opens a linkage block; 'extern "C" int f() {' a
      // function's body.
      bool Opens = I == Start + 2 && Toks[Start].isIdent("extern") &&
                   Toks[Start + 1].is(tok::string_literal);
      for (unsigned K = Start; K < I; ++K)
        Opens |= Toks[K].isIdent("namespace");
      if (Opens) {
        // A namespace or extern "C" body: its declarations are at
        // namespace scope too ('namespace a::b {' opens two).
        bool Named = false;
        for (unsigned K = Start; K < I; ++K)
          if (Toks[K].isIdent() && K > Start &&
              (Toks[K - 1].isIdent("namespace") ||
               Toks[K - 1].is(tok::coloncolon)))
            Open.push_back({*Close, Toks[K].Text.str()}), Named = true;
        if (!Named)
          Open.push_back({*Close, ""});
        Start = I + 1;
        continue;
      }
      if (auto F = declaration(Start, I)) {
        F->BodyBegin = I + 1;
        F->BodyEnd = *Close;
        Declare(*F);
      }
      // A class, an initializer or a function body: nothing inside is at
      // namespace scope.
      I = *Close;
      Start = I + 1;
      if (I + 1 < Toks.size() && Toks[I + 1].is(tok::semi))
        Start = ++I + 1;
    }
    return Fs;
  }

  /// Whether [Begin, End) names one of the functions \p Names lists by
  /// name (with the namespaces around each): unqualified, or qualified by
  /// one of those namespaces or an alias of it ('cg::reduce', with
  /// 'namespace cg = cooperative_groups', names no 'reduce' of the file's
  /// global namespace).
  bool
  names(unsigned Begin, unsigned End,
        const llvm::StringMap<std::vector<const Declared *>> &Names) const {
    for (unsigned I = Begin; I < End; ++I) {
      auto It = Toks[I].isIdent() ? Names.find(Toks[I].Text) : Names.end();
      if (It == Names.end() || Meta.contains(Toks[I].Offset))
        continue;
      if (I > 0 && (Toks[I - 1].is(tok::period) || Toks[I - 1].is(tok::arrow)))
        continue;
      if (I < 2 || !Toks[I - 1].is(tok::coloncolon) || !Toks[I - 2].isIdent())
        return true;
      llvm::StringRef Q = Toks[I - 2].Text;
      auto A = Aliases.find(Q);
      if (A != Aliases.end())
        Q = A->second;
      for (const Declared *F : It->second)
        if (llvm::is_contained(F->Namespaces, Q))
          return true;
    }
    return false;
  }

  const std::vector<Token> &Toks;

private:
  bool skipped(unsigned I) const {
    return Toks[I].InDirective || Inactive.contains(Toks[I].Offset) ||
           Meta.contains(Toks[I].Offset) || Toks[I].isAt();
  }

  /// The function that tokens [Begin, End) declare, if they declare one.
  std::optional<Declared> declaration(unsigned Begin, unsigned End) const {
    if (Begin >= End)
      return std::nullopt;
    Declared F;
    unsigned K = Begin;
    if (Toks[K].isIdent("template") && K + 1 < End &&
        Toks[K + 1].is(tok::less)) {
      K = skipAngles(Toks, K + 1);
      if (K >= End)
        return std::nullopt;
    }
    unsigned Name = 0;
    for (unsigned J = K; J < End; ++J) {
      const Token &T = Toks[J];
      if (T.isIdent("__host__") || T.isIdent("__device__") ||
          T.isIdent("__global__"))
        F.Tagged = true;
      if (T.isIdent("__device__") || T.isIdent("__global__"))
        F.Device = true;
      if (T.isIdent("typedef") || T.isIdent("using") || T.isIdent("operator") ||
          T.isIdent("friend") || T.is(tok::equal))
        return std::nullopt;
      if (T.is(tok::l_paren)) {
        // The declarator's parameter list follows its name; an attribute's
        // parenthesis follows a reserved name.
        if (!Name && J > K && Toks[J - 1].isIdent() &&
            !isKeyword(Toks[J - 1].Text) && !Toks[J - 1].Text.starts_with("__"))
          Name = J - 1;
        J = skipGroup(Toks, J) - 1;
      } else if (T.isOpenBracket()) {
        J = skipGroup(Toks, J) - 1;
      }
    }
    // A return type comes first ('FOO(x);' is a macro's use); 'S::f' is
    // a member's definition.
    if (Name <= K || Toks[Name - 1].is(tok::coloncolon))
      return std::nullopt;
    F.Name = Toks[Name].Text.str();
    return F;
  }

  /// Asked of every token (RangeSet.h).
  const RangeSet &Inactive;
  const RangeSet Meta;
  llvm::StringMap<llvm::StringRef> Aliases;
};

//===----------------------------------------------------------------------===//
// Clang's answer: the callee of each call in device code.
//===----------------------------------------------------------------------===//

/// Makes Sema treat the input's own function declarations as __host__
/// __device__ (those of headers keep their execution space): calls in an
/// untagged helper then resolve as they will once it is tagged.
class ForceInInput : public PPCallbacks {
public:
  ForceInInput(CompilerInstance &CI) : CI(CI) {}
  void FileChanged(SourceLocation Loc, FileChangeReason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (!CI.hasSema())
      return;
    SourceManager &SM = CI.getSourceManager();
    bool InInput = SM.getFileID(Loc) == SM.getMainFileID();
    if (InInput && !Forcing)
      CI.getSema().CUDA().PushForceHostDevice();
    else if (!InInput && Forcing)
      CI.getSema().CUDA().PopForceHostDevice();
    Forcing = InInput;
  }

private:
  CompilerInstance &CI;
  bool Forcing = false;
};

/// The regions of the input this pass's preprocessor skipped: Sema read
/// nothing there, and no call there is device code whatever it names.
class SkippedInInput : public PPCallbacks {
public:
  SkippedInInput(const SourceManager &SM, RangeSet &Skipped)
      : SM(SM), Skipped(Skipped) {}
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
    if (SM.getFileID(Begin) == SM.getMainFileID())
      Skipped.add({SM.getFileOffset(Begin),
                   SM.getFileOffset(SM.getExpansionLoc(Range.getEnd()))});
  }

private:
  const SourceManager &SM;
  RangeSet &Skipped;
};

/// What a call from device code reaches.
enum class Callee {
  /// Callable from the device (a __device__ or __host__ __device__
  /// function, a constexpr one, a builtin): its body is device code too.
  Device,
  /// One of the input's untagged helpers.
  Helper,
  /// A host function to nvcc.
  Host,
  /// A kernel, a member of the input without attributes: nvcc's to judge.
  Other,
};

/// The functions a body refers to, and its kernel launches.
struct Refs {
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls;
  /// The candidates of each call Sema could not resolve: a host function
  /// called from a helper Sema reads as __host__ __device__, a meta name
  /// among the arguments (masked, so undeclared).
  std::vector<std::pair<std::vector<const FunctionDecl *>, SourceLocation>>
      Unresolved;
  /// Where the names Sema read are (of calls, references, dependent
  /// calls in a template).
  std::vector<SourceLocation> Names;
  bool Launches = false;
};

class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  explicit RefCollector(Refs &R) : R(R) {}
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *F = dyn_cast<FunctionDecl>(E->getDecl()); F && !Unevaluated)
      R.Calls.push_back({F, E->getLocation()});
    R.Names.push_back(E->getLocation());
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    R.Names.push_back(E->getNameLoc());
    return true;
  }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr *E) {
    R.Names.push_back(E->getLocation());
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    R.Names.push_back(E->getMemberLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (auto *F = dyn_cast<FunctionDecl>(E->getMemberDecl()); F && !Unevaluated)
      R.Calls.push_back({F, E->getMemberLoc()});
    R.Names.push_back(E->getMemberLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!Unevaluated)
      R.Calls.push_back({E->getConstructor(), E->getLocation()});
    return true;
  }
  bool VisitRecoveryExpr(RecoveryExpr *E) {
    if (Unevaluated)
      return true;
    for (Expr *Sub : E->subExpressions()) {
      auto *O =
          dyn_cast_or_null<OverloadExpr>(Sub ? Sub->IgnoreParens() : nullptr);
      if (!O)
        continue;
      std::vector<const FunctionDecl *> Candidates;
      for (const NamedDecl *D : O->decls())
        if (auto *F = dyn_cast<FunctionDecl>(D->getUnderlyingDecl()))
          Candidates.push_back(F);
        else if (auto *T =
                     dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
          Candidates.push_back(T->getTemplatedDecl());
      if (!Candidates.empty())
        R.Unresolved.push_back({std::move(Candidates), O->getNameLoc()});
    }
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) {
    R.Launches = true;
    return true;
  }
  // What sizeof, alignof, decltype and noexcept name is not called: their
  // names are read (the token fallback must not take them for calls Sema
  // missed), their calls reach nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    return unevaluated([&] {
      return RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(E);
    });
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc TL, bool TraverseQualifier) {
    return unevaluated([&] {
      return RecursiveASTVisitor::TraverseDecltypeTypeLoc(TL,
                                                          TraverseQualifier);
    });
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *E) {
    return unevaluated(
        [&] { return RecursiveASTVisitor::TraverseCXXNoexceptExpr(E); });
  }

private:
  template <class Traverse> bool unevaluated(Traverse T) {
    ++Unevaluated;
    bool Ok = T();
    --Unevaluated;
    return Ok;
  }

  Refs &R;
  /// How many unevaluated operands the traversal is inside.
  unsigned Unevaluated = 0;
};

/// A helper device code reaches, by its primary declaration.
struct Helper {
  /// Why it cannot run on the device ("it calls ..."); empty if it can.
  std::string Why;
  /// The helpers it calls.
  std::vector<const FunctionDecl *> Calls;
};

/// A call from device code (not from a helper) of a helper.
struct HelperCall {
  const FunctionDecl *Helper;
  unsigned Offset;
};

class CallGraph {
public:
  /// \p Meta: the input's meta code, if it has any (Untagged.h);
  /// \p Skipped: the regions of the input the preprocessor skipped.
  CallGraph(CompilerInstance &CI, const ScanResult &Scan, const RangeSet &Meta,
            const RangeSet &Skipped)
      : SM(CI.getSourceManager()), CUDA(CI.getSema().CUDA()), Scan(Scan),
        Meta(Meta), Skipped(Skipped) {}

  void read(ASTContext &Ctx) {
    std::vector<const FunctionDecl *> Roots;
    findRoots(Ctx, Roots);
    for (const FunctionDecl *F : Roots)
      visit(F, nullptr);
    drain();
    if (Meta.empty())
      return;
    // With the meta constructs masked, Sema cannot read a call that uses
    // a meta name in a way it cannot recover from ('f<p.nt>(x)' where
    // '@meta auto p' is gone): in a body device code reaches, a call Sema
    // left no trace of that names helpers of the input reaches them all.
    // Text the preprocessor skipped is no call, and what Sema read in a
    // template's pattern left a trace (seen()) though an instantiation
    // dropped it.
    for (size_t I = 0; I < Bodies.size(); ++I) {
      auto [B, E, From] = Bodies[I];
      for (unsigned T = Scan.tokenAt(B);
           T < Scan.Tokens.size() && Scan.Tokens[T].Offset < E; ++T) {
        const Token &Tok = Scan.Tokens[T];
        auto It = ByName.find(Tok.Text);
        if (It == ByName.end() || Tok.InDirective ||
            Seen.contains(Tok.Offset) || Meta.contains(Tok.Offset) ||
            Skipped.contains(Tok.Offset) || !namesCallee(Scan.Tokens, T))
          continue;
        for (const FunctionDecl *H : It->second)
          reach(H, From, Tok.Offset);
      }
      drain();
    }
  }

  std::map<const FunctionDecl *, Helper> Helpers;
  std::vector<HelperCall> DeviceCalls;
  SourceManager &SM;

  /// The declaration a helper is known by: its template pattern's first.
  static const FunctionDecl *primary(const FunctionDecl *F) {
    if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
      F = P;
    return F->getFirstDecl();
  }

  bool inInput(SourceLocation Loc) const {
    return Loc.isValid() && SM.isWrittenInMainFile(SM.getExpansionLoc(Loc));
  }

private:
  void drain() {
    while (!Work.empty()) {
      auto [F, From] = Work.back();
      Work.pop_back();
      walk(F, From);
    }
  }

  /// The definitions of __device__ and __global__ functions (template
  /// instantiations included) outside system headers; the helpers of the
  /// input by name.
  void findRoots(ASTContext &Ctx, std::vector<const FunctionDecl *> &Roots) {
    struct Finder : RecursiveASTVisitor<Finder> {
      CallGraph &G;
      std::vector<const FunctionDecl *> &Roots;
      Finder(CallGraph &G, std::vector<const FunctionDecl *> &Roots)
          : G(G), Roots(Roots) {}
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool TraverseDecl(Decl *D) {
        // The toolkit's and the library's own code is not the user's.
        if (D && !isa<TranslationUnitDecl>(D) &&
            G.SM.isInSystemHeader(G.SM.getExpansionLoc(D->getLocation())))
          return true;
        return RecursiveASTVisitor::TraverseDecl(D);
      }
      bool VisitFunctionDecl(FunctionDecl *F) {
        CUDAFunctionTarget T =
            G.CUDA.IdentifyTarget(F, /*IgnoreImplicitHDAttr=*/true);
        if (F->doesThisDeclarationHaveABody() &&
            (T == CUDAFunctionTarget::Device ||
             T == CUDAFunctionTarget::Global))
          Roots.push_back(F);
        if (F->getDeclName().isIdentifier() && G.classify(F) == Callee::Helper)
          G.ByName[F->getName()].insert(primary(F));
        return true;
      }
    } Finder(*this, Roots);
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  }

  Callee classify(const FunctionDecl *F) const {
    const FunctionDecl *P = primary(F);
    if (P->getBuiltinID() || P->isImplicit() || !P->isUserProvided() ||
        P->isConstexpr())
      return Callee::Device;
    // The input's declarations were read as __host__ __device__: only
    // the attributes written count there.
    bool Input = inInput(P->getLocation());
    CUDAFunctionTarget T = CUDA.IdentifyTarget(F, /*IgnoreImplicitHDAttr=*/
                                               Input);
    switch (T) {
    case CUDAFunctionTarget::Device:
    case CUDAFunctionTarget::HostDevice:
      return Callee::Device;
    case CUDAFunctionTarget::Global:
    case CUDAFunctionTarget::InvalidTarget:
      return Callee::Other;
    case CUDAFunctionTarget::Host:
      break;
    }
    if (!Input ||
        P->hasAttr<CUDAHostAttr>() && !P->getAttr<CUDAHostAttr>()->isImplicit())
      return Callee::Host;
    if (isa<CXXMethodDecl>(P) || P->isMain() ||
        !P->getDeclContext()->getRedeclContext()->isFileContext())
      return Callee::Other;
    // Every declaration must be the input's own, written out where the
    // attributes can go.
    for (const FunctionDecl *R : P->redecls())
      if (!inInput(R->getLocation()) || R->getLocation().isMacroID() ||
          R->getFriendObjectKind() != Decl::FOK_None)
        return Callee::Host;
    return Callee::Helper;
  }

  /// \p F, called from \p From (a helper, or null from other device code).
  void visit(const FunctionDecl *F, const FunctionDecl *From) {
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Walked.insert(Def).second)
      return;
    Work.push_back({Def, From});
  }

  /// Helper \p H, called at \p Offset in the input from \p From (a
  /// helper, or null from other device code).
  void reach(const FunctionDecl *H, const FunctionDecl *From,
             std::optional<unsigned> Offset) {
    Helpers.try_emplace(H);
    if (From)
      Helpers[From].Calls.push_back(H);
    else if (Offset)
      DeviceCalls.push_back({H, *Offset});
    visit(H, H);
  }

  /// Records where the names Sema read in \p Names are.
  void seen(llvm::ArrayRef<SourceLocation> Names) {
    for (SourceLocation L : Names)
      if (inInput(L))
        Seen.insert(SM.getFileOffset(SM.getExpansionLoc(L)));
  }

  void walk(const FunctionDecl *F, const FunctionDecl *Helper) {
    Refs R;
    RefCollector(R).TraverseStmt(F->getBody());
    seen(R.Names);
    // An instantiation leaves out the branches its 'if constexpr'
    // discards: device code calls nothing there, but the names Sema read
    // in them are in the template's pattern.
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    if (Pattern && Pattern->getBody() && PatternsSeen.insert(Pattern).second) {
      Refs P;
      RefCollector(P).TraverseStmt(Pattern->getBody());
      seen(P.Names);
    }
    SourceRange Body = F->getBody()->getSourceRange();
    if (inInput(Body.getBegin()) && inInput(Body.getEnd()))
      Bodies.push_back({SM.getFileOffset(SM.getExpansionLoc(Body.getBegin())),
                        SM.getFileOffset(SM.getExpansionLoc(Body.getEnd())),
                        Helper});
    if (Helper && R.Launches)
      because(Helper, "it launches a kernel");
    // An unresolved call may reach any of its candidates that is a helper;
    // it calls a host function if they all are.
    for (auto &[Candidates, Loc] : R.Unresolved) {
      bool Host = true;
      for (const FunctionDecl *C : Candidates) {
        Callee K = classify(C);
        Host &= K == Callee::Host;
        if (K == Callee::Helper)
          R.Calls.push_back({C, Loc});
      }
      if (Host && Helper)
        because(Helper, hostReason(primary(Candidates.front())));
    }
    for (auto [Callee, Loc] : R.Calls) {
      switch (classify(Callee)) {
      case Callee::Device:
        if (!SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
          visit(Callee, nullptr);
        break;
      case Callee::Helper: {
        std::optional<unsigned> Offset;
        if (inInput(Loc))
          Offset = SM.getFileOffset(SM.getExpansionLoc(Loc));
        reach(primary(Callee), Helper, Offset);
        // A template's instantiation has a body of its own.
        visit(Callee, primary(Callee));
        break;
      }
      case Callee::Host:
        if (Helper)
          because(Helper, hostReason(primary(Callee)));
        break;
      case Callee::Other:
        break;
      }
    }
  }

  std::string hostReason(const FunctionDecl *F) const {
    if (inInput(F->getLocation()) && F->hasAttr<CUDAHostAttr>())
      return "it calls '" + F->getNameAsString() +
             "', which is declared __host__";
    return "it calls '" + F->getQualifiedNameAsString() +
           "', a host function to nvcc";
  }

  void because(const FunctionDecl *Helper, std::string Why) {
    std::string &W = Helpers[Helper].Why;
    if (W.empty())
      W = std::move(Why);
  }

  SemaCUDA &CUDA;
  const ScanResult &Scan;
  const RangeSet &Meta;
  const RangeSet &Skipped;
  llvm::StringMap<std::set<const FunctionDecl *>> ByName;
  /// Offsets of the names Sema read in the bodies walked.
  llvm::DenseSet<unsigned> Seen;
  /// The input's bodies walked: their braces' offsets, the helper walked.
  std::vector<std::tuple<unsigned, unsigned, const FunctionDecl *>> Bodies;
  llvm::DenseSet<const FunctionDecl *> Walked;
  /// The templates whose patterns' names are in Seen.
  llvm::DenseSet<const FunctionDecl *> PatternsSeen;
  std::vector<std::pair<const FunctionDecl *, const FunctionDecl *>> Work;
};

/// What one device pass found, in input offsets.
struct PassResult {
  bool Parsed = false;
  std::vector<unsigned> Insert;
  /// Offset of a call from device code, the message of its error.
  std::map<unsigned, std::string> Errors;
};

/// Where '__host__ __device__ ' goes on \p D: before its declaration
/// specifiers (after its template header and any 'extern "C"'), or after
/// a macro they start with.
unsigned insertionPoint(const FunctionDecl *D, const SourceManager &SM,
                        const LangOptions &LO, const ScanResult &Scan) {
  SourceLocation Begin = D->getInnerLocStart();
  if (Begin.isMacroID())
    Begin = Lexer::getLocForEndOfToken(SM.getExpansionRange(Begin).getEnd(), 0,
                                       SM, LO);
  unsigned Offset = SM.getFileOffset(Begin);
  // Onto the token that follows, as the lowering inserts before a token.
  unsigned I = Scan.tokenAt(Offset);
  return I < Scan.Tokens.size() ? Scan.Tokens[I].Offset : Offset;
}

class GraphConsumer : public ASTConsumer {
public:
  GraphConsumer(CompilerInstance &CI, const ScanResult &Scan, PassResult &R)
      : CI(CI), Scan(Scan), Meta(metaCode(Scan)), R(R) {}

  /// Filled by the pass's preprocessor (SkippedInInput).
  RangeSet Skipped;

  void HandleTranslationUnit(ASTContext &Ctx) override {
    CallGraph G(CI, Scan, Meta, Skipped);
    G.read(Ctx);
    R.Parsed = true;
    // A helper that calls one that cannot run on the device cannot either:
    // to a fixed point.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[F, H] : G.Helpers) {
        if (!H.Why.empty())
          continue;
        for (const FunctionDecl *C : H.Calls) {
          const std::string &Why = G.Helpers[C].Why;
          if (C == F || Why.empty())
            continue;
          H.Why =
              "it calls '" + C->getNameAsString() + "', which " + Why.substr(3);
          Changed = true;
          break;
        }
      }
    }
    for (const HelperCall &C : G.DeviceCalls) {
      const std::string &Why = G.Helpers[C.Helper].Why;
      if (!Why.empty())
        R.Errors.try_emplace(C.Offset, "'" + C.Helper->getNameAsString() +
                                           "' has no execution-space "
                                           "attribute and device code calls "
                                           "it, but metacu cannot make it "
                                           "__host__ __device__: " +
                                           Why);
    }
    for (const auto &[F, H] : G.Helpers)
      if (H.Why.empty())
        for (const FunctionDecl *D : F->redecls())
          R.Insert.push_back(insertionPoint(D, G.SM, CI.getLangOpts(), Scan));
  }

private:
  CompilerInstance &CI;
  const ScanResult &Scan;
  const RangeSet Meta;
  PassResult &R;
};

class GraphAction : public ASTFrontendAction {
public:
  GraphAction(const ScanResult &Scan, PassResult &R) : Scan(Scan), R(R) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<ForceInInput>(CI));
    auto Consumer = std::make_unique<GraphConsumer>(CI, Scan, R);
    CI.getPreprocessor().addPPCallbacks(std::make_unique<SkippedInInput>(
        CI.getSourceManager(), Consumer->Skipped));
    return Consumer;
  }

private:
  const ScanResult &Scan;
  PassResult &R;
};

} // namespace

bool mayCallUntaggedHelper(const ScanResult &Scan,
                           const HostSliceResult &Slice) {
  Declarations D(Scan, Slice);
  std::vector<Declared> Fs = D.functions();
  // A name some declaration tags is not only an untagged function's, but
  // may still be one overload's: any untagged declaration counts.
  llvm::StringMap<std::vector<const Declared *>> Untagged;
  for (const Declared &F : Fs)
    if (!F.Tagged)
      Untagged[F.Name].push_back(&F);
  if (Untagged.empty())
    return false;
  for (const Declared &F : Fs)
    if (F.Device && D.names(F.BodyBegin, F.BodyEnd, Untagged))
      return true;
  // A macro device code uses may call one: the names in #define lines.
  bool Define = false;
  for (unsigned I = 0; I < D.Toks.size(); ++I) {
    const Token &T = D.Toks[I];
    if (T.InDirective && T.StartOfLine)
      Define = I + 1 < D.Toks.size() && D.Toks[I + 1].isIdent("define");
    if (Define && T.InDirective && T.isIdent() && Untagged.contains(T.Text))
      return true;
  }
  return false;
}

llvm::Expected<std::vector<unsigned>>
untaggedDeviceHelpers(const SourceFile &File, const ScanResult &Scan,
                      const HostSliceResult &Slice, const ArchList &Archs,
                      const HostSliceOptions &Opts) {
  if (!mayCallUntaggedHelper(Scan, Slice) || Archs.archs().empty())
    return std::vector<unsigned>();
  llvm::SmallString<256> Path(File.path());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  auto Files = maskedFiles(File, Scan, Path);

  // The input reads alike in every device pass unless a conditional of it
  // tests __CUDA_ARCH__.
  std::vector<std::string> Passes;
  for (const Arch &A : Archs.archs())
    if (Passes.empty() || !Slice.ArchConditional.empty())
      Passes.push_back(A.name());
  std::vector<unsigned> Insert;
  std::map<unsigned, std::string> Errors;
  for (const std::string &Pass : Passes) {
    InvocationOptions IO;
    IO.Mode = ClangMode::Verify;
    IO.RuntimeInclude = Opts.RuntimeInclude;
    IO.GpuArch = Pass;
    std::vector<std::string> Args =
        clangCommandLine(Opts.Toolkit, Opts.Flags, IO, Path);
    // The masked input has errors (meta names it no longer declares) past
    // any limit, and the graph needs all of it read.
    Args.insert(Args.end() - 1, "-ferror-limit=0");
    PassResult R;
    IgnoringDiagConsumer Quiet;
    ClangRun Run;
    Run.Args = std::move(Args);
    Run.Files = Files.get();
    // The masked input's errors (meta names it no longer declares) and
    // device code's are not this stage's to report.
    Run.Diagnostics = &Quiet;
    Run.Ignored = [](DiagnosticsEngine::Level L, const Diagnostic &) {
      return L != DiagnosticsEngine::Fatal;
    };
    runClang(Run, std::make_unique<GraphAction>(Scan, R), Opts.Precompiled,
             nullptr);
    if (!R.Parsed)
      return llvm::createStringError(
          "cannot parse '%s' in CUDA mode for %s, to find the untagged "
          "functions device code calls",
          File.path().str().c_str(), Pass.c_str());
    llvm::append_range(Insert, R.Insert);
    Errors.merge(R.Errors);
  }
  if (!Errors.empty()) {
    llvm::Error Err = llvm::Error::success();
    for (const auto &[Offset, Message] : Errors)
      Err = llvm::joinErrors(std::move(Err), errorAt(Offset, Message));
    return std::move(Err);
  }
  llvm::sort(Insert);
  Insert.erase(std::unique(Insert.begin(), Insert.end()), Insert.end());
  return Insert;
}

} // namespace metacu
