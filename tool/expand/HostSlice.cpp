//===- HostSlice.cpp ------------------------------------------------------===//
#include "expand/HostSlice.h"
#include "expand/DialectHeaders.h"
#include "expand/HostPassErrors.h"
#include "support/Diagnostic.h"
#include "support/Identifiers.h"
#include "toolchain/Invocation.h"
#include "toolchain/Preambles.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <functional>
#include <optional>

using namespace clang;

namespace metacu {

std::string maskMetaConstructs(const SourceFile &File, const ScanResult &Scan) {
  std::string Out = File.text().str();
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Text || N.Kind == NodeKind::Malformed)
      return WalkNext::Siblings;
    for (unsigned I = N.Whole.Begin; I < N.Whole.End; ++I)
      if (Out[I] != '\n')
        Out[I] = ' ';
    // Its range covers the constructs nested in it.
    return WalkNext::Siblings;
  });
  return Out;
}

namespace {

/// Directives that read another file.
bool isIncludeDirective(const metacu::Token &T) {
  return T.isIdent("include") || T.isIdent("include_next") ||
         T.isIdent("import");
}

/// The macros the input defines in 'if codegen' branches: per
/// architecture, since each branch becomes an #if. The masked parse sees
/// no such #define (the construct is blanked), so the scan tells.
static std::vector<std::string> perArchMacros(const ScanResult &Scan) {
  std::vector<std::string> Names;
  const std::vector<metacu::Token> &T = Scan.Tokens;
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Codegen)
      for (const Branch &B : N.Branches)
        for (unsigned I = Scan.tokenAt(B.Body.Begin);
             I + 2 < T.size() && T[I].Offset < B.Body.End; ++I)
          if (T[I].is(tok::hash) && T[I].StartOfLine &&
              T[I + 1].isIdent("define") && T[I + 2].isIdent())
            Names.push_back(T[I + 2].Text.str());
    return WalkNext::Children;
  });
  return Names;
}

/// What the preprocessor callbacks carry from one file to the next: a run
/// that reads its first headers from a preamble starts from where the
/// callbacks that watched the preamble's build stopped.
struct ReadState {
  /// \p PerArch: macros defined in 'if codegen' branches, which differ
  /// per architecture as one defined under '#if __CUDA_ARCH__ >= 800'
  /// does.
  explicit ReadState(const std::vector<std::string> &PerArch) {
    for (const std::string &N : PerArch) {
      ArchDerived.insert(N);
      PassDerived.insert(N);
    }
  }
  llvm::StringSet<> ArchDerived;
  /// Macros defined under a condition that tests __CUDA_ARCH__, __CUDACC__
  /// or __NVCC__, in the input or a user header.
  llvm::StringSet<> PassDerived;
  /// The files read.
  llvm::StringSet<> Seen;
  /// Headers known not to lead to a dialect header.
  llvm::StringSet<> NoDialect;
};

/// What the preprocessor tells about the main file, and about the user
/// headers where it matters to dialect headers.
class SliceCallbacks : public PPCallbacks {
public:
  SliceCallbacks(SourceManager &SM, Preprocessor &PP, HostSliceResult &R,
                 ReadState &S, const DialectScope &Scope)
      : SM(SM), PP(PP), R(R), Scope(Scope), ArchDerived(S.ArchDerived),
        PassDerived(S.PassDerived), Seen(S.Seen), NoDialect(S.NoDialect) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    FileID FID = SM.getFileID(Loc);
    auto F = SM.getFileEntryRefForID(FID);
    if (!F)
      return;
    std::string Name = F->getName().str();
    bool Covered = Scope.covers(*F, PP.getHeaderSearchInfo());
    if (Covered)
      CoveredFiles.insert(FID);
    if (!Seen.insert(Name).second)
      return;
    R.Files.push_back(Name);
    if (Covered && FID != SM.getMainFileID())
      findMetaConstructs(FID, Name);
  }

  void InclusionDirective(SourceLocation HashLoc, const clang::Token &,
                          StringRef, bool, CharSourceRange FilenameRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    // A header name from a macro that nvcc's passes define apart may name
    // another header in each of them.
    SourceLocation Name = FilenameRange.getBegin();
    if (R.UnfollowedInclude || !Name.isMacroID() || !tracked(HashLoc))
      return;
    SourceLocation At = SM.getExpansionLoc(Name);
    llvm::StringRef Spelling(
        SM.getCharacterData(At),
        Lexer::MeasureTokenLength(At, SM, PP.getLangOpts()));
    R.UnfollowedInclude = passDependent(findIdentifier(PP, Spelling));
  }

  void SourceRangeSkipped(SourceRange Skipped, SourceLocation) override {
    FileID FID = SM.getFileID(SM.getExpansionLoc(Skipped.getBegin()));
    bool Main = FID == SM.getMainFileID();
    if (!Main && !CoveredFiles.contains(FID))
      return;
    Range Block{offset(Skipped.getBegin()), offset(Skipped.getEnd())};
    if (Main)
      R.Inactive.add(Block);
    if (!R.UnfollowedInclude)
      R.UnfollowedInclude = skippedIncludeMayReachDialect(FID, Block);
  }

  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind) override {
    if (tracked(Loc))
      push(Loc, conditionTests(Cond));
  }
  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind,
            SourceLocation) override {
    if (auto *C = innermost(Loc))
      C->add(Loc, conditionTests(Cond));
  }
  void Ifdef(SourceLocation Loc, const clang::Token &Name,
             const MacroDefinition &) override {
    if (tracked(Loc))
      push(Loc, nameTests(Name.getIdentifierInfo()));
  }
  void Ifndef(SourceLocation Loc, const clang::Token &Name,
              const MacroDefinition &) override {
    Ifdef(Loc, Name, MacroDefinition());
  }
  void Elifdef(SourceLocation Loc, const clang::Token &Name,
               const MacroDefinition &) override {
    if (auto *C = innermost(Loc))
      C->add(Loc, nameTests(Name.getIdentifierInfo()));
  }
  void Elifndef(SourceLocation Loc, const clang::Token &Name,
                const MacroDefinition &MD) override {
    Elifdef(Loc, Name, MD);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (!innermost(Loc))
      return;
    Cond C = Stack.back();
    Stack.pop_back();
    if (!C.Tests)
      return;
    FileID FID = SM.getFileID(C.Loc);
    bool Main = FID == SM.getMainFileID();
    Range Block{SM.getFileOffset(C.Loc), SM.getFileOffset(Loc)};
    // Macros defined inside such a block are feature tests derived from
    // __CUDA_ARCH__ ('#if __CUDA_ARCH__ >= 800 / #define HAS_ASYNC_COPY'),
    // or names that differ between nvcc's passes.
    // A copy: the lexer needs the text to end in a NUL.
    std::string Text =
        SM.getBufferData(FID).slice(Block.Begin, Block.End).str();
    std::vector<metacu::Token> Toks = lexRaw(Text);
    for (size_t I = 0; I + 2 < Toks.size(); ++I)
      if (Toks[I].is(tok::hash) && Toks[I].StartOfLine &&
          Toks[I + 1].isIdent("define") && Toks[I + 2].isIdent()) {
        PassDerived.insert(Toks[I + 2].Text);
        if (Main && (C.Tests & TestsArch))
          ArchDerived.insert(Toks[I + 2].Text);
      }
    if (!Main)
      return;
    if (!(C.Tests & TestsArch)) {
      R.CompilerConditional.push_back(Block);
      return;
    }
    // The branches before the first directive that tests __CUDA_ARCH__
    // are chosen alike in every pass: a meta construct may stand there
    // (migrate's `#if !defined(GGML_USE_HIP)` 'if codegen' chain `#elif`
    // a condition of the architecture's).
    R.ArchConditional.push_back({SM.getFileOffset(C.ArchFrom), Block.End});
  }

private:
  /// A user header with meta constructs (a dialect header) must be spliced
  /// into the input (DialectHeaders.h), or it would reach nvcc unexpanded;
  /// one read through -include cannot be.
  void findMetaConstructs(FileID FID, llvm::StringRef Name) {
    std::optional<unsigned> Off = firstMetaConstruct(SM.getBufferData(FID));
    if (!Off)
      return;
    MetaHeader H;
    H.Path = Name.str();
    H.Line = SM.getLineNumber(FID, *Off);
    H.Col = SM.getColumnNumber(FID, *Off);
    SourceLocation Inc = SM.getIncludeLoc(FID);
    FileID Outermost = FID;
    while (Inc.isValid() && !SM.isWrittenInMainFile(SM.getExpansionLoc(Inc))) {
      FileID Includer = SM.getFileID(SM.getExpansionLoc(Inc));
      if (SM.getFileEntryRefForID(Includer))
        Outermost = Includer;
      Inc = SM.getIncludeLoc(Includer);
    }
    if (Inc.isInvalid()) {
      // The chain ends in the predefines, which hold the -include lines.
      H.PreIncluded = SM.getFileEntryRefForID(Outermost)->getName().str();
      R.PreIncludedMetaHeaders.push_back(std::move(H));
      return;
    }
    H.IncludeOffset = offset(Inc);
    R.MetaHeaders.push_back(std::move(H));
  }

  /// A header the preprocessor would enter for an #include of \p Name
  /// written in the file being read (or in \p From, where given), and
  /// whether it was found in a system directory.
  std::optional<std::pair<FileEntryRef, bool>>
  lookup(llvm::StringRef Name, bool Angled,
         OptionalFileEntryRef From = std::nullopt) {
    if (From && !Angled) {
      llvm::SmallString<256> Beside(
          llvm::sys::path::parent_path(From->getName()));
      llvm::sys::path::append(Beside, Name);
      if (auto F = SM.getFileManager().getOptionalFileRef(Beside))
        return std::make_pair(*F, false);
    }
    ConstSearchDirIterator CurDir = nullptr;
    OptionalFileEntryRef F = PP.LookupFile(
        SM.getLocForStartOfFile(SM.getMainFileID()), Name, Angled, nullptr,
        nullptr, &CurDir, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (!F)
      return std::nullopt;
    return std::make_pair(*F, CurDir && CurDir->isSystemHeaderDirectory());
  }

  /// The header name an #include operand that is a macro stands for with
  /// this pass's definitions ("x.h" or <x.h>, and whether angled); none if
  /// it cannot be told without expanding it (a function-like macro, one not
  /// defined here) or if it may differ in nvcc's passes.
  std::optional<std::pair<std::string, bool>>
  macroHeaderName(llvm::StringRef Operand) const {
    std::string Copy = Operand.str(); // NUL-terminated, for the lexer
    std::vector<metacu::Token> Toks = lexRaw(Copy);
    if (Toks.empty() || !Toks[0].isIdent())
      return std::nullopt;
    const IdentifierInfo *II = findIdentifier(PP, Toks[0].Text);
    if (!II || passDependent(II))
      return std::nullopt;
    for (unsigned Depth = 0; Depth < 16; ++Depth) {
      const MacroInfo *MI = PP.getMacroInfo(II);
      if (!MI || MI->isFunctionLike() || MI->getNumTokens() == 0)
        return std::nullopt;
      const clang::Token &First = MI->getReplacementToken(0);
      if (MI->getNumTokens() == 1 && First.is(tok::string_literal)) {
        std::string S = PP.getSpelling(First);
        return std::make_pair(S.substr(1, S.size() - 2), false);
      }
      if (First.is(tok::less)) {
        std::string S;
        for (const clang::Token &T : MI->tokens().drop_front()) {
          if (T.is(tok::greater))
            return std::make_pair(S, true);
          S += PP.getSpelling(T);
        }
        return std::nullopt;
      }
      if (MI->getNumTokens() != 1 || !First.getIdentifierInfo())
        return std::nullopt;
      II = First.getIdentifierInfo();
    }
    return std::nullopt;
  }

  /// Calls \p Each(name, angled) for the #include directives of \p Text
  /// (NUL-terminated), the name empty where a macro names the header and
  /// cannot be resolved here; stops when it returns true, and returns
  /// whether one did.
  template <typename Fn> bool anyInclude(llvm::StringRef Text, Fn Each) const {
    if (!Text.contains("include") && !Text.contains("import"))
      return false;
    std::vector<metacu::Token> Toks = lexRaw(Text);
    for (size_t I = 0; I + 1 < Toks.size(); ++I) {
      if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine ||
          !isIncludeDirective(Toks[I + 1]))
        continue;
      llvm::StringRef Rest =
          Text.substr(Toks[I + 1].end())
              .take_until([](char C) { return C == '\n' || C == '\r'; })
              .trim();
      bool Angled = Rest.starts_with("<");
      if (Angled || Rest.starts_with("\"")) {
        if (Each(Rest.drop_front().split(Angled ? '>' : '"').first, Angled))
          return true;
        continue;
      }
      auto Name = macroHeaderName(Rest);
      if (Name ? Each(Name->first, Name->second) : Each("", false))
        return true;
    }
    return false;
  }

  /// The splice follows the host pass, so an #include in a region it skips
  /// is not spliced, and nvcc's own passes may take that region (#ifdef
  /// __CUDA_ARCH__). Whether such an #include may lead to a dialect header,
  /// as the preprocessor would find it there, and through the user headers
  /// it includes in turn (taken or not: this pass never read them).
  bool skippedIncludeMayReachDialect(FileID FID, Range Block) {
    // A copy: the lexer needs the text to end in a NUL.
    std::string Text =
        SM.getBufferData(FID).slice(Block.Begin, Block.End).str();
    return anyInclude(Text, [&](llvm::StringRef Name, bool Angled) {
      if (Name.empty())
        return true;
      auto Found = lookup(Name, Angled);
      return Found && mayReachDialect(Found->first, Found->second);
    });
  }

  bool mayReachDialect(FileEntryRef F, bool System) {
    if (!Scope.covers(F.getName(), System))
      return false;
    llvm::StringSet<> Visited;
    if (reachesDialect(F, Visited))
      return true;
    // Everything those reach was read: none of it is a dialect header.
    for (const auto &V : Visited)
      NoDialect.insert(V.getKey());
    return false;
  }

  bool reachesDialect(FileEntryRef F, llvm::StringSet<> &Visited) {
    if (NoDialect.contains(F.getName()) || !Visited.insert(F.getName()).second)
      return false;
    auto Buffer = SM.getFileManager().getBufferForFile(F);
    if (!Buffer)
      return false;
    llvm::StringRef Text = (*Buffer)->getBuffer();
    if (firstMetaConstruct(Text))
      return true;
    return anyInclude(Text, [&](llvm::StringRef Name, bool Angled) {
      if (Name.empty())
        return true;
      auto Found = lookup(Name, Angled, F);
      return Found && Scope.covers(Found->first.getName(), Found->second) &&
             reachesDialect(Found->first, Visited);
    });
  }

  /// Whether the main file or a user header holds \p Loc.
  bool tracked(SourceLocation Loc) const {
    FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
    return FID == SM.getMainFileID() || CoveredFiles.contains(FID);
  }

  /// Whether \p II's value may differ between nvcc's passes.
  bool passDependent(const IdentifierInfo *II, unsigned Depth = 0) const {
    if (!II)
      return false;
    llvm::StringRef N = II->getName();
    if (N.starts_with("__CUDA_ARCH") || N.starts_with("__CUDACC") ||
        N == "__NVCC__" || PassDerived.contains(N))
      return true;
    if (Depth > 8)
      return false;
    if (const MacroInfo *MI = PP.getMacroInfo(II))
      for (const clang::Token &T : MI->tokens())
        if (passDependent(T.getIdentifierInfo(), Depth + 1))
          return true;
    return false;
  }

  struct Cond {
    SourceLocation Loc;
    unsigned Tests = 0;
    /// The first of its directives whose condition tests __CUDA_ARCH__.
    SourceLocation ArchFrom;
    void add(SourceLocation At, unsigned T) {
      if ((T & TestsArch) && ArchFrom.isInvalid())
        ArchFrom = At;
      Tests |= T;
    }
  };

  void push(SourceLocation Loc, unsigned Tests) {
    Stack.push_back({Loc});
    Stack.back().add(Loc, Tests);
  }

  /// The innermost open conditional of the file holding \p Loc, if it is
  /// tracked. A header's conditional it left open (an error) is dropped.
  Cond *innermost(SourceLocation Loc) {
    if (!tracked(Loc))
      return nullptr;
    FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
    while (!Stack.empty() && SM.getFileID(Stack.back().Loc) != FID)
      Stack.pop_back();
    return Stack.empty() ? nullptr : &Stack.back();
  }

  /// What a preprocessor condition depends on that metacu's single host
  /// pass cannot reproduce.
  enum : unsigned {
    TestsArch = 1,     // __CUDA_ARCH__: differs per device pass
    TestsCompiler = 2, // __CUDACC__, __NVCC__: nvcc's, not C++ mode's
  };

  unsigned offset(SourceLocation L) const {
    return SM.getFileOffset(SM.getExpansionLoc(L));
  }

  unsigned nameTests(const IdentifierInfo *II, unsigned Depth = 0) const {
    if (!II)
      return 0;
    llvm::StringRef N = II->getName();
    if (N.starts_with("__CUDA_ARCH") || ArchDerived.contains(N))
      return TestsArch;
    if (N.starts_with("__CUDACC") || N == "__NVCC__")
      return TestsCompiler;
    // A macro that expands to one (#define MY_ARCH __CUDA_ARCH__).
    unsigned Tests = 0;
    if (Depth > 8)
      return Tests;
    if (const MacroInfo *MI = PP.getMacroInfo(II))
      for (const clang::Token &T : MI->tokens())
        if (T.getIdentifierInfo())
          Tests |= nameTests(T.getIdentifierInfo(), Depth + 1);
    return Tests;
  }

  unsigned conditionTests(SourceRange Cond) const {
    if (Cond.isInvalid())
      return 0;
    CharSourceRange CR = CharSourceRange::getTokenRange(
        SM.getExpansionLoc(Cond.getBegin()), SM.getExpansionLoc(Cond.getEnd()));
    std::string Text = Lexer::getSourceText(CR, SM, PP.getLangOpts()).str();
    unsigned Tests = 0;
    for (const metacu::Token &T : lexRaw(Text))
      if (T.isIdent())
        Tests |= nameTests(findIdentifier(PP, T.Text));
    return Tests;
  }

  SourceManager &SM;
  Preprocessor &PP;
  HostSliceResult &R;
  const DialectScope &Scope;
  std::vector<Cond> Stack;
  llvm::StringSet<> &ArchDerived, &PassDerived, &Seen, &NoDialect;
  llvm::DenseSet<FileID> CoveredFiles;
};

/// What the callbacks learned while a preamble was built (of its headers and
/// the input's #include lines it holds), for the runs that use it.
struct SliceNotes : PreambleNotes {
  explicit SliceNotes(const std::vector<std::string> &PerArch)
      : State(PerArch) {}
  HostSliceResult R;
  ReadState State;
};

/// The declaration directly inside a namespace (or the TU) that owns \p D.
const Decl *topLevel(const Decl *D) {
  while (D) {
    const DeclContext *DC = D->getDeclContext();
    if (!DC || DC->isFileContext() || isa<LinkageSpecDecl>(DC) ||
        isa<ExportDecl>(DC))
      break;
    D = dyn_cast<Decl>(DC);
  }
  if (auto *RD = dyn_cast_or_null<CXXRecordDecl>(D))
    if (auto *T = RD->getDescribedClassTemplate())
      return T;
  if (auto *FD = dyn_cast_or_null<FunctionDecl>(D))
    if (auto *T = FD->getDescribedFunctionTemplate())
      return T;
  if (auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(D))
    if (!S->isExplicitSpecialization())
      return S->getSpecializedTemplate();
  return D;
}

/// Collects the declarations a declaration refers to.
class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  explicit RefCollector(std::function<void(const Decl *)> Use)
      : Use(std::move(Use)) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Use(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    Use(E->getMemberDecl());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    Use(TL.getDecl());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    Use(TL.getDecl());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    if (auto *T = TL.getTypePtr()->getTemplateName().getAsTemplateDecl())
      Use(T);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Use(E->getConstructor());
    return true;
  }
  bool VisitTemplateTypeParmDecl(TemplateTypeParmDecl *D) {
    if (const TypeConstraint *TC = D->getTypeConstraint())
      Use(TC->getNamedConcept());
    return true;
  }
  bool VisitConceptSpecializationExpr(ConceptSpecializationExpr *E) {
    Use(E->getNamedConcept());
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (auto *D = E->getCalleeDecl())
      Use(D);
    return true;
  }

private:
  std::function<void(const Decl *)> Use;
};

class SliceConsumer : public ASTConsumer {
public:
  SliceConsumer(CompilerInstance &CI, const SourceFile &File,
                const ScanResult &Scan, const llvm::StringSet<> &Names,
                llvm::StringRef RuntimeInclude, HostSliceResult &R)
      : CI(CI), SM(CI.getSourceManager()), File(File), Scan(Scan), Names(Names),
        RuntimeInclude(RuntimeInclude), R(R) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    findByName(Ctx.getTranslationUnitDecl());
    // Selected main-file declarations pull in what they refer to.
    while (!Work.empty()) {
      const Decl *D = Work.back();
      Work.pop_back();
      RefCollector C([&](const Decl *Ref) { use(Ref); });
      C.TraverseDecl(const_cast<Decl *>(D));
    }
    findMacros();
    llvm::sort(Selected, [&](const Decl *A, const Decl *B) {
      return offset(A->getBeginLoc()) < offset(B->getBeginLoc());
    });
    for (const Decl *D : Selected)
      addDeclaration(D);
    describeTypes(Ctx.getTranslationUnitDecl());
    llvm::sort(NeededIncludeOffsets);
    NeededIncludeOffsets.erase(llvm::unique(NeededIncludeOffsets),
                               NeededIncludeOffsets.end());
    for (unsigned O : NeededIncludeOffsets) {
      unsigned B = File.lineStart(O);
      size_t E = File.text().find('\n', O);
      R.NeededIncludes.push_back(
          {B, unsigned(E == llvm::StringRef::npos ? File.size() : E)});
    }
  }

private:
  unsigned offset(SourceLocation L) const {
    return SM.getFileOffset(SM.getExpansionLoc(L));
  }
  /// The input, or the lines of it a preamble holds (their offsets are the
  /// input's).
  bool isInput(FileID FID) const {
    return FID == SM.getMainFileID() || FID == SM.getPreambleFileID();
  }
  bool inMainFile(const Decl *D) const {
    return SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation()));
  }

  void findByName(const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
        if (const auto *NS = dyn_cast<NamespaceDecl>(D))
          if (NS->getIdentifier())
            isReferenced(NS, NS->getName());
        findByName(cast<DeclContext>(D));
        continue;
      }
      const auto *ND = dyn_cast<NamedDecl>(D);
      if (!ND)
        continue;
      bool Match = ND->getIdentifier() && isReferenced(ND, ND->getName());
      if (const auto *ED = dyn_cast<EnumDecl>(D); ED && !ED->isScoped())
        for (const EnumConstantDecl *E : ED->enumerators())
          Match |= isReferenced(ND, E->getName());
      if (Match)
        use(D);
    }
  }

  /// Whether meta code names \p Name declared by \p D: qualified by D's
  /// namespace, or unqualified where an unqualified name can mean it (the
  /// global namespace, or the input file itself). A name found is recorded
  /// as one meta code can see.
  bool isReferenced(const NamedDecl *D, llvm::StringRef Name) {
    const DeclContext *DC = D->getDeclContext();
    while (DC && (DC->isInlineNamespace() || isa<LinkageSpecDecl>(DC)))
      DC = DC->getParent();
    if (const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC))
      if (NS->getIdentifier()) {
        std::string Qualified = (NS->getName() + "::" + Name).str();
        if (Names.contains(Qualified)) {
          R.Visible.insert(Qualified);
          return true;
        }
      }
    if (!Names.contains(Name) ||
        !(!DC || DC->isTranslationUnit() || inMainFile(D)))
      return false;
    R.Visible.insert(Name);
    return true;
  }

  void use(const Decl *D) {
    D = topLevel(D);
    if (!D || D->isImplicit() || isa<NamespaceDecl>(D) ||
        isa<TranslationUnitDecl>(D))
      return;
    SourceLocation L = SM.getExpansionLoc(D->getLocation());
    if (L.isInvalid())
      return;
    if (inMainFile(D)) {
      // Redeclarations (a forward declaration, then the definition) all go.
      for (const Decl *RD : D->redecls())
        select(RD);
      return;
    }
    needFile(SM.getFileID(L));
  }

  void select(const Decl *D) {
    if (!inMainFile(D) || !SelectedSet.insert(D).second)
      return;
    Selected.push_back(D);
    Work.push_back(D);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      selectOutOfLineMembers(RD);
    else if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
      selectOutOfLineMembers(CT->getTemplatedDecl());
  }

  /// The definitions of \p RD's members written outside it ('int
  /// Cfg::get() const { ... }'): meta code names members the host slice
  /// does not see, and a destructor or a virtual function is used without
  /// being named. One that holds a meta construct is generated code, which
  /// meta code cannot call: the declaration in the class serves.
  void selectOutOfLineMembers(const CXXRecordDecl *RD) {
    for (const Decl *M : RD->decls()) {
      if (const auto *Nested = dyn_cast<CXXRecordDecl>(M)) {
        selectOutOfLineMembers(Nested);
        continue;
      }
      for (const Decl *R : M->redecls())
        if (R->isOutOfLine() && R->getLexicalDeclContext()->isFileContext() &&
            !holdsMetaConstruct(declarationTokens(R)))
          select(R);
    }
  }

  bool holdsMetaConstruct(std::pair<unsigned, unsigned> Tokens) const {
    return llvm::any_of(Scan.Nodes, [&](const Node &N) {
      return N.TokBegin >= Tokens.first && N.TokBegin < Tokens.second;
    });
  }

  /// Files of metacu's runtime, which the generator always has.
  bool inRuntimeInclude(FileID FID) const {
    auto F = SM.getFileEntryRefForID(FID);
    return F && !RuntimeInclude.empty() &&
           F->getName().starts_with(RuntimeInclude);
  }

  /// Files of metacu's runtime that the generator has without an #include
  /// of the input: detail/generator.h includes meta.h, detail/ and select.h,
  /// and runtime.h is CUDA host code the generator must not see. The runtime's
  /// other headers (metacu/dma/plan.h, which <metacu/dma.cuh> includes for
  /// its meta code) come through the input's #include as a user header's do.
  bool generatorHas(FileID FID) const {
    if (!inRuntimeInclude(FID))
      return false;
    llvm::StringRef Name = SM.getFileEntryRefForID(FID)->getName();
    llvm::StringRef Rel = Name.drop_front(RuntimeInclude.size());
    Rel = Rel.ltrim(llvm::sys::path::get_separator());
    return Rel.starts_with("metacu/detail/") || Rel == "metacu/meta.h" ||
           Rel == "metacu/select.h" || Rel == "metacu/runtime.h";
  }

  /// Marks the main-file #include that (transitively) brings in \p FID.
  void needFile(FileID FID) {
    if (!NeededFiles.insert(FID).second)
      return;
    if (generatorHas(FID))
      return;
    while (FID.isValid()) {
      SourceLocation Inc = SM.getIncludeLoc(FID);
      if (Inc.isInvalid()) {
        // Reached a file included from the command line (-include
        // cuda_runtime.h, as nvcc does implicitly).
        R.NeedsCudaRuntime = true;
        return;
      }
      FileID Parent = SM.getFileID(SM.getExpansionLoc(Inc));
      if (isInput(Parent)) {
        NeededIncludeOffsets.push_back(offset(Inc));
        return;
      }
      if (!SM.getFileEntryRefForID(Parent)) {
        R.NeedsCudaRuntime = true;
        return;
      }
      FID = Parent;
    }
  }

  void findMacros() {
    Preprocessor &PP = CI.getPreprocessor();
    for (const auto &N : Names) {
      const IdentifierInfo *II = findIdentifier(PP, N.getKey());
      const MacroInfo *MI = II ? PP.getMacroInfo(II) : nullptr;
      if (!MI || MI->isBuiltinMacro())
        continue;
      R.Visible.insert(N.getKey());
      SourceLocation L = SM.getExpansionLoc(MI->getDefinitionLoc());
      if (L.isInvalid() || SM.isWrittenInMainFile(L))
        continue;
      if (SM.getFileEntryRefForID(SM.getFileID(L)))
        needFile(SM.getFileID(L));
    }
  }

  /// The tokens [B, E) of \p D as the generator gets it: template header,
  /// attributes and specifiers, body and trailing ';'.
  std::pair<unsigned, unsigned> declarationTokens(const Decl *D) const {
    const std::vector<metacu::Token> &T = Scan.Tokens;
    unsigned B = Scan.tokenAt(offset(D->getBeginLoc()));
    unsigned EndOff =
        offset(D->getEndLoc()) +
        Lexer::MeasureTokenLength(SM.getExpansionLoc(D->getEndLoc()), SM,
                                  CI.getLangOpts());
    unsigned E = Scan.tokenAt(EndOff);
    // A function or a function template's function.
    const FunctionDecl *FD = D->getAsFunction();
    // The parse skipped function bodies, so a definition ends at its
    // declarator here; its body is the next brace group.
    if (FD && FD->hasSkippedBody()) {
      for (unsigned I = E; I < T.size(); ++I) {
        if (T[I].InDirective)
          continue;
        if (T[I].is(tok::l_brace)) {
          if (std::optional<unsigned> Close = partnerOf(T, I))
            E = *Close + 1;
          break;
        }
        if (T[I].is(tok::semi))
          break;
      }
    }
    // `int a = 1, b = 2;` is one declaration with two declarators, and Clang
    // ends the first at its initializer: take the statement to its `;` so
    // that every declarator comes along (the later ones nest in it below).
    if (isa<VarDecl>(D) || isa<TypedefNameDecl>(D)) {
      unsigned I = E;
      while (I < T.size() && !T[I].is(tok::semi) && !T[I].InDirective)
        I = T[I].is(tok::l_paren) || T[I].is(tok::l_square) ||
                    T[I].is(tok::l_brace)
                ? skipGroup(T, I)
                : I + 1;
      if (I < T.size() && T[I].is(tok::semi))
        E = I;
    }
    // Attributes and specifiers before the begin location (__host__
    // __device__ expand to attributes that C++ mode drops) belong to it.
    while (B > 0 && !T[B - 1].InDirective && !T[B - 1].is(tok::semi) &&
           !T[B - 1].is(tok::r_brace) && !T[B - 1].is(tok::l_brace))
      --B;
    if (E < T.size() && T[E].is(tok::semi))
      ++E;
    return {B, E};
  }

  void addDeclaration(const Decl *D) {
    const std::vector<metacu::Token> &T = Scan.Tokens;
    auto [B, E] = declarationTokens(D);
    const FunctionDecl *FD = D->getAsFunction();
    if (B >= E)
      return;
    SliceDecl S;
    S.Text = {T[B].Offset, T[E - 1].end()};
    // Only nvcc can compile the bodies of kernels and device functions.
    bool Device = false, Host = false;
    for (unsigned I = B; I < E && !T[I].is(tok::l_brace); ++I) {
      Device |= T[I].isIdent("__global__") || T[I].isIdent("__device__");
      Host |= T[I].isIdent("__host__");
    }
    // A member defined outside its class can only be defined there; the
    // declaration in the class serves the generator.
    if (FD && Device && !Host && FD->isOutOfLine())
      return;
    if (FD && Device && !Host) {
      // The body is the first brace outside the parameter list and
      // attributes.
      for (unsigned I = B; I < E;) {
        if (T[I].is(tok::l_brace)) {
          S.BodyBegin = T[I].Offset;
          break;
        }
        I = T[I].is(tok::l_paren) || T[I].is(tok::l_square) ? skipGroup(T, I)
                                                            : I + 1;
      }
    }
    if (!R.Declarations.empty() &&
        R.Declarations.back().Text.End > S.Text.Begin)
      return; // Nested in (or equal to) the previous one.
    R.Declarations.push_back(S);
  }

  /// Enumerations and aggregates the generator can see: the selected
  /// main-file ones and those of local headers it includes.
  void describeTypes(const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
        describeTypes(cast<DeclContext>(D));
        continue;
      }
      SourceLocation L = SM.getExpansionLoc(D->getLocation());
      if (L.isInvalid())
        continue;
      bool Main = inMainFile(D);
      unsigned After = 0;
      if (Main) {
        if (!SelectedSet.contains(D))
          continue;
        After = declarationEnd(D);
      } else {
        if (SM.isInSystemHeader(L) || inRuntimeInclude(SM.getFileID(L)))
          continue;
        auto Inc = generatorInclude(SM.getFileID(L));
        if (!Inc)
          continue;
        After = *Inc;
      }
      PrintingPolicy P = D->getASTContext().getPrintingPolicy();
      P.SuppressUnwrittenScope = true;
      if (const auto *ED = dyn_cast<EnumDecl>(D)) {
        if (!ED->isComplete() || !ED->getIdentifier())
          continue;
        EnumInfo I;
        llvm::raw_string_ostream OS(I.QualifiedName);
        ED->printQualifiedName(OS, P);
        I.Scoped = ED->isScoped();
        I.After = After;
        I.FromHeader = !Main;
        for (const EnumConstantDecl *E : ED->enumerators())
          I.Enumerators.push_back(E->getName().str());
        R.Enums.push_back(std::move(I));
      } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
        if (isa<ClassTemplateSpecializationDecl>(RD) ||
            !RD->isCompleteDefinition() || !RD->getIdentifier() ||
            RD->isDependentContext() || !RD->isAggregate() ||
            RD->getNumBases() != 0 || RD->isUnion())
          continue;
        RecordInfo I;
        llvm::raw_string_ostream OS(I.QualifiedName);
        RD->printQualifiedName(OS, P);
        I.After = After;
        I.FromHeader = !Main;
        bool Ok = true;
        for (const FieldDecl *F : RD->fields()) {
          Ok &= F->getIdentifier() != nullptr && F->getAccess() != AS_private &&
                F->getAccess() != AS_protected;
          if (F->getIdentifier())
            I.Fields.push_back(F->getName().str());
        }
        if (Ok)
          R.Records.push_back(std::move(I));
      }
    }
  }

  /// If the generator includes the file, the start of the main-file
  /// #include line that brings it in.
  std::optional<unsigned> generatorInclude(FileID FID) const {
    while (FID.isValid()) {
      SourceLocation Inc = SM.getIncludeLoc(FID);
      if (Inc.isInvalid())
        return std::nullopt;
      FileID Parent = SM.getFileID(SM.getExpansionLoc(Inc));
      if (isInput(Parent)) {
        unsigned O = offset(Inc);
        if (!llvm::is_contained(NeededIncludeOffsets, O))
          return std::nullopt;
        return File.lineStart(O);
      }
      FID = Parent;
    }
    return std::nullopt;
  }

  /// End of the recorded SliceDecl that contains \p D.
  unsigned declarationEnd(const Decl *D) const {
    unsigned O = offset(D->getLocation());
    for (const SliceDecl &S : R.Declarations)
      if (S.Text.contains(O))
        return S.Text.End;
    return O;
  }

  CompilerInstance &CI;
  SourceManager &SM;
  const SourceFile &File;
  const ScanResult &Scan;
  const llvm::StringSet<> &Names;
  llvm::StringRef RuntimeInclude;
  HostSliceResult &R;
  std::vector<const Decl *> Selected, Work;
  llvm::DenseSet<const Decl *> SelectedSet;
  llvm::DenseSet<FileID> NeededFiles;
  std::vector<unsigned> NeededIncludeOffsets;
};

/// Errors are expected in a C++-mode parse of CUDA code and ignored, but a
/// fatal one (a missing header) ends the parse early: that is the user's
/// to fix.
class FatalErrorRecorder : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    PreprocessorError |= isUserPreprocessorError(L, Info);
    if (L != DiagnosticsEngine::Fatal || Offset || !Info.hasSourceManager())
      return;
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = Info.getLocation();
    // Report at the main-file line that leads to the failing #include.
    while (Loc.isValid() && !SM.isWrittenInMainFile(SM.getExpansionLoc(Loc)))
      Loc = SM.getIncludeLoc(SM.getFileID(SM.getExpansionLoc(Loc)));
    if (Loc.isInvalid())
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Message = std::string(Msg);
    if (Info.getID() == diag::err_pp_file_not_found)
      Message += " (pass its directory with -I, or -p BUILD_DIR)";
    Offset = SM.getFileOffset(SM.getExpansionLoc(Loc));
  }
  std::optional<unsigned> Offset;
  std::string Message;
  /// An error of the preprocessor in the user's files, which nvcc may meet
  /// too (HostPassErrors.h).
  bool PreprocessorError = false;
};

class SliceAction : public ASTFrontendAction {
public:
  /// \p Used: what the run takes from a preamble, known when it begins.
  SliceAction(const SourceFile &File, const ScanResult &Scan,
              const llvm::StringSet<> &Names, const HostSliceOptions &Opts,
              const DialectScope &Scope, const PreambleUse &Used,
              HostSliceResult &R)
      : File(File), Scan(Scan), Names(Names),
        RuntimeInclude(Opts.RuntimeInclude), Scope(Scope), Used(Used), R(R),
        State(perArchMacros(Scan)) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Only declarations matter here, and C++ mode cannot compile device
    // function bodies anyway.
    CI.getFrontendOpts().SkipFunctionBodies = true;
    // The callbacks go on from where those that watched the preamble's
    // build stopped.
    if (const auto *N = static_cast<const SliceNotes *>(Used.Notes.get())) {
      R = N->R;
      State = N->State;
    }
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<SliceCallbacks>(CI.getSourceManager(),
                                                       PP, R, State, Scope));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<SliceConsumer>(CI, File, Scan, Names,
                                           RuntimeInclude, R);
  }

private:
  const SourceFile &File;
  const ScanResult &Scan;
  const llvm::StringSet<> &Names;
  llvm::StringRef RuntimeInclude;
  const DialectScope &Scope;
  const PreambleUse &Used;
  HostSliceResult &R;
  ReadState State;
};

} // namespace

llvm::IntrusiveRefCntPtr<FileManager> maskedFiles(const SourceFile &File,
                                                  const ScanResult &Scan,
                                                  llvm::StringRef Path) {
  return filesWith(maskMetaConstructs(File, Scan), Path);
}

/// The branches of the input's conditional blocks (#if/#ifdef/#ifndef,
/// #elif..., #else up to #endif), as the lines between their directives,
/// by the tokens alone.
static std::vector<Range>
conditionalBranches(const std::vector<metacu::Token> &Toks) {
  std::vector<Range> Out;
  std::vector<unsigned> Open; // where the current branch of each starts
  for (unsigned I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine ||
        !Toks[I + 1].isIdent())
      continue;
    llvm::StringRef D = Toks[I + 1].Text;
    unsigned Line = I + 1;
    while (Line < Toks.size() && !Toks[Line].StartOfLine)
      ++Line;
    unsigned Next = Line < Toks.size() ? Toks[Line].Offset : Toks.back().end();
    bool Ends = D.starts_with("el") || D == "endif";
    if (Ends && !Open.empty()) {
      Out.push_back({Open.back(), Toks[I].Offset});
      Open.pop_back();
    }
    if (D.starts_with("if") || (Ends && D != "endif"))
      Open.push_back(Next);
  }
  return Out;
}

/// Whether some meta construct sits in \p Ranges.
static bool anyConstructIn(const std::vector<Node> &Nodes,
                           const RangeSet &Ranges) {
  return !walkNodes(Nodes, [&](const Node &N) {
    return N.Kind != NodeKind::Text && Ranges.contains(N.Whole.Begin)
               ? WalkNext::Stop
               : WalkNext::Children;
  });
}

/// Preprocesses the file as nvcc's host pass does: in CUDA mode, with
/// __CUDACC__ defined. Dearer than the C++-mode parse (Clang's CUDA wrapper
/// headers), so only run when meta constructs sit in regions whose fate
/// depends on it, or brackets pair differently in the text it keeps.
/// \p Whole: read the meta constructs' insides too (the preprocessor
/// passes '@' by), not only the masked input. Returns false if the
/// CUDA-mode run failed.
static bool preprocessAsNvcc(const SourceFile &File, const ScanResult &Scan,
                             llvm::StringRef Path, const HostSliceOptions &Opts,
                             bool Whole, HostSliceResult &R) {
  std::vector<std::string> Args =
      clangCommandLine(Opts.Toolkit, Opts.Flags,
                       {ClangMode::HostSliceCuda, Opts.RuntimeInclude}, Path);

  HostSliceResult Nvcc;
  struct Action : public PreprocessOnlyAction {
    Action(HostSliceResult &R, const HostSliceOptions &Opts,
           const std::vector<std::string> &PerArch)
        : R(R), Scope(Opts), State(PerArch) {}
    bool BeginSourceFileAction(CompilerInstance &CI) override {
      Preprocessor &PP = CI.getPreprocessor();
      PP.addPPCallbacks(std::make_unique<SliceCallbacks>(CI.getSourceManager(),
                                                         PP, R, State, Scope));
      return true;
    }
    HostSliceResult &R;
    DialectScope Scope;
    ReadState State;
  };
  FatalErrorRecorder Fatal;
  auto Files =
      Whole ? filesWith(File.text(), Path) : maskedFiles(File, Scan, Path);
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<Action>(Nvcc, Opts, perArchMacros(Scan)),
      Files.get());
  Invocation.setDiagnosticConsumer(&Fatal);
  if (!Invocation.run() || Fatal.Offset || Nvcc.Files.empty())
    return false;
  R.Inactive = std::move(Nvcc.Inactive);
  R.ArchConditional = std::move(Nvcc.ArchConditional);
  R.CompilerConditional.clear();
  return true;
}

void preprocessAsNvccHostPass(const SourceFile &File,
                              const HostSliceOptions &Opts,
                              std::unique_ptr<FrontendAction> Action) {
  llvm::SmallString<256> Path(File.path());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  auto FM = filesWith(File.text(), Path);
  std::vector<std::string> Args =
      clangCommandLine(Opts.Toolkit, Opts.Flags,
                       {ClangMode::NvccPass, Opts.RuntimeInclude, 0}, Path);
  IgnoringDiagConsumer Quiet;
  tooling::ToolInvocation Invocation(Args, std::move(Action), FM.get());
  Invocation.setDiagnosticConsumer(&Quiet);
  Invocation.run();
}

DialectScope::DialectScope(const HostSliceOptions &Opts) {
  for (llvm::StringRef A : Opts.Flags.Args) {
    if (!A.consume_front("-isystem"))
      continue;
    A = A.rtrim('/');
    // The toolkit's own directories, given again (CMake's CUDA::cudart
    // does), are the toolkit's.
    bool Toolkit = llvm::any_of(Opts.Toolkit.IncludeDirs, [&](const auto &D) {
      return llvm::sys::fs::equivalent(A, D);
    });
    if (!A.empty() && !Toolkit)
      SystemDirs.push_back(A.str());
  }
}

/// Whether the path \p Name lies under the directory \p Dir.
static bool under(llvm::StringRef Name, llvm::StringRef Dir) {
  Dir = Dir.rtrim('/');
  return Name.size() > Dir.size() && Name.starts_with(Dir) &&
         llvm::sys::path::is_separator(Name[Dir.size()]);
}

bool DialectScope::covers(FileEntryRef F, HeaderSearch &HS) const {
  // The deepest search directory holding the file decides (a user's -I
  // directory may lie inside a system one); a file under none was found
  // beside the input or a user header.
  llvm::StringRef Name = F.getName();
  size_t Deepest = 0;
  bool System = false;
  for (const DirectoryLookup &D : HS.search_dir_range()) {
    OptionalDirectoryEntryRef Dir = D.getDirRef();
    if (Dir && Dir->getName().size() > Deepest && under(Name, Dir->getName())) {
      Deepest = Dir->getName().size();
      System = D.isSystemHeaderDirectory();
    }
  }
  return covers(Name, System);
}

bool DialectScope::covers(llvm::StringRef Name, bool System) const {
  if (!System)
    return true;
  // The preprocessor names a file it found as the directory it searched
  // joined with the name.
  return llvm::any_of(SystemDirs,
                      [&](const std::string &D) { return under(Name, D); });
}

llvm::Expected<HostSliceResult> sliceHost(const SourceFile &File,
                                          const ScanResult &Scan,
                                          const llvm::StringSet<> &MetaNames,
                                          const HostSliceOptions &Opts) {
  HostSliceResult R;
  llvm::SmallString<256> Path(File.path());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  auto Files = maskedFiles(File, Scan, Path);

  InvocationOptions Reading = {ClangMode::HostSlice, Opts.RuntimeInclude};
  if (Opts.AsNvccHostPass)
    Reading = {ClangMode::NvccPass, Opts.RuntimeInclude, /*Arch=*/0};
  std::vector<std::string> Args =
      clangCommandLine(Opts.Toolkit, Opts.Flags, Reading, Path);

  FatalErrorRecorder Fatal;
  DialectScope Scope(Opts);
  ClangRun Run;
  Run.Args = std::move(Args);
  Run.Files = Files.get();
  Run.Diagnostics = &Fatal;
  Run.SkipFunctionBodies = true;
  // The callbacks watch a preamble's build as they would read its headers.
  std::vector<std::string> PerArch = perArchMacros(Scan);
  Run.Watch = [&](Preprocessor &PP) {
    auto N = std::make_shared<SliceNotes>(PerArch);
    auto C = std::make_unique<SliceCallbacks>(PP.getSourceManager(), PP, N->R,
                                              N->State, Scope);
    return PreambleWatch{std::move(C), std::move(N)};
  };
  for (const std::string &M : PerArch)
    Run.WatchKey += M + ' ';
  // What the recorder ignores, a preamble may hold.
  Run.Ignored = [](DiagnosticsEngine::Level L, const Diagnostic &Info) {
    return L != DiagnosticsEngine::Fatal && !isUserPreprocessorError(L, Info);
  };
  PreambleUse Used;
  // Errors in the masked input (device code C++ mode cannot see) are
  // expected; only a parse that could not run at all is a failure.
  runClang(Run,
           std::make_unique<SliceAction>(File, Scan, MetaNames, Opts, Scope,
                                         Used, R),
           Opts.Precompiled, &Used);
  if (Fatal.Offset)
    return errorAt(*Fatal.Offset, Fatal.Message);
  R.PreprocessorError = Fatal.PreprocessorError;
  if (R.Files.empty())
    return llvm::createStringError("cannot parse '%s' for its host "
                                   "declarations",
                                   File.path().str().c_str());
  // Brackets that pair across a branch of a conditional inside a meta
  // construct, which the masked input does not show the preprocessor:
  // the whole file's reading decides how they pair (Scan.h).
  std::vector<Range> Branches = conditionalBranches(Scan.Tokens);
  bool Whole =
      bracketsCross(Scan.Tokens, Branches) &&
      llvm::any_of(Branches, [&](const Range &B) {
        return !walkNodes(Scan.Nodes, [&](const Node &N) {
          if (N.Kind == NodeKind::Text)
            return WalkNext::Siblings;
          return N.Whole.contains(B.Begin) ? WalkNext::Stop
                                           : WalkNext::Siblings;
        });
      });
  // Read as nvcc's host pass, the regions are those nvcc compiles: it
  // defines __CUDACC__ and __NVCC__ in every pass.
  if (Opts.AsNvccHostPass) {
    R.CompilerConditional.clear();
    if (Whole)
      preprocessAsNvcc(File, Scan, Path, Opts, Whole, R);
    return R;
  }
  // Which regions nvcc compiles can differ from what C++ mode saw where a
  // condition tests __CUDACC__ or a macro CUDA headers define only for a
  // CUDA compiler; ask a CUDA-mode preprocessor about constructs there,
  // and about brackets there that pair outside their block (which text is
  // kept decides how they pair).
  if (anyConstructIn(Scan.Nodes, R.Inactive) ||
      anyConstructIn(Scan.Nodes, RangeSet(R.CompilerConditional)) ||
      bracketsCross(Scan.Tokens, R.CompilerConditional) || Whole)
    preprocessAsNvcc(File, Scan, Path, Opts, Whole, R);
  return R;
}

} // namespace metacu
