//===- Placement.cpp ------------------------------------------------------===//
#include "migrate/Placement.h"
#include "migrate/Classify.h"
#include "support/Tokens.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace metacu {

namespace {

/// A function or lambda body of a user file, with the text that declares it.
struct Body {
  const CompoundStmt *Stmt;
  FileID File;
  unsigned HeadBegin, Begin, End; // End is past the '}'
  std::string Name;
};

/// A declaration outside function bodies: its extent (a ';' right after it
/// included) and, for a namespace, a braced linkage specification or a class
/// definition, the extent of its braces' inside, where whole declarations
/// of its own sit.
struct DeclExtent {
  unsigned Begin, End;
  bool Container = false;
  unsigned InnerBegin = 0, InnerEnd = 0;
  bool IsClass = false;
  std::string Name;
  const Decl *D;
};

/// A braced list: a variable's initializer (or a list nested in one) or an
/// enumerator list. 'if codegen' can choose its entries where metacu reads
/// the braces as a list: outside function bodies, and inside them after
/// '=' ('int t[] = {...}').
struct ListExtent {
  unsigned Open, Close; // offsets of its braces
  struct Entry {
    unsigned Begin, End;
    std::optional<unsigned> Comma; // the ',' after it, if one
  };
  std::vector<Entry> Entries;
  std::string Name;
  bool Usable = true;
};

/// The bodies, declarations and lists of the files that hold conditionals.
struct FileShapes {
  std::vector<Body> Bodies;
  std::vector<DeclExtent> Decls;
  std::vector<ListExtent> Lists;
};

/// Collects the shapes of every wanted file in one walk of the AST: a walk
/// per file cost a whole translation unit each, minutes on a unit that
/// includes PyTorch's headers, hundreds of which test __CUDA_ARCH__.
class BodyCollector : public RecursiveASTVisitor<BodyCollector> {
public:
  BodyCollector(SourceManager &SM, const LangOptions &LO,
                llvm::DenseMap<FileID, FileShapes> &Files)
      : SM(SM), LO(LO), Files(Files) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      add(FD->getBody(), FD->getOuterLocStart(), FD->getNameAsString());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    add(LE->getBody(), LE->getBeginLoc(), "lambda");
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    const Expr *Init = VD->getInit();
    if (const auto *ILE =
            dyn_cast_or_null<InitListExpr>(Init ? Init->IgnoreImplicit()
                                                : nullptr))
      addList(ILE, VD->getNameAsString(),
              !VD->getParentFunctionOrMethod() ||
                  VD->getInitStyle() == VarDecl::CInit);
    return true;
  }
  bool VisitEnumDecl(EnumDecl *ED) {
    if (!ED->isThisDeclarationADefinition())
      return true;
    ListExtent L;
    if (!braces(ED->getBraceRange(), L))
      return true;
    for (const EnumConstantDecl *E : ED->enumerators())
      if (!addEntry(E->getSourceRange(), L))
        return true;
    L.Name = ED->getNameAsString();
    wanted(ED->getBraceRange().getBegin())->Lists.push_back(std::move(L));
    return true;
  }

  /// Declarations outside function bodies (those inside are statements).
  bool VisitDecl(Decl *D) {
    if (D->isImplicit() || isa<TranslationUnitDecl>(D) ||
        D->getParentFunctionOrMethod())
      return true;
    SourceRange R = D->getSourceRange();
    if (R.isInvalid())
      return true;
    SourceLocation B = SM.getExpansionRange(R.getBegin()).getBegin();
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    FileShapes *F = wanted(B);
    if (!F || SM.getFileID(E) != SM.getFileID(B))
      return true;
    DeclExtent X;
    X.D = D;
    X.Begin = SM.getFileOffset(B);
    X.End = endAfter(E);
    if (const auto *ND = dyn_cast<NamedDecl>(D))
      X.Name = ND->getNameAsString();
    SourceLocation Open, Close;
    if (const auto *RD = dyn_cast<RecordDecl>(D);
        RD && RD->isThisDeclarationADefinition()) {
      Open = RD->getBraceRange().getBegin();
      Close = RD->getBraceRange().getEnd();
      X.IsClass = true;
    } else if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      // An anonymous namespace's location is its '{' (Sema has no name to
      // place it at); the brace after it would be its first member's.
      Open = NS->isAnonymousNamespace() ? NS->getLocation()
                                        : openBraceAfter(NS->getLocation());
      Close = NS->getRBraceLoc();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D);
               LS && LS->hasBraces()) {
      Open = openBraceAfter(LS->getBeginLoc());
      Close = LS->getRBraceLoc();
    }
    if (Open.isValid() && Close.isValid()) {
      Open = SM.getExpansionLoc(Open);
      Close = SM.getExpansionLoc(Close);
      if (SM.getFileID(Open) == SM.getFileID(B) &&
          SM.getFileID(Close) == SM.getFileID(B)) {
        X.Container = true;
        X.InnerBegin = SM.getFileOffset(Open) + 1;
        X.InnerEnd = SM.getFileOffset(Close);
      }
    }
    F->Decls.push_back(std::move(X));
    return true;
  }

private:
  /// Records the syntactic list \p ILE (and the lists nested in it) of
  /// variable \p Name.
  void addList(const InitListExpr *ILE, const std::string &Name, bool Usable) {
    if (ILE->isSemanticForm() && ILE->getSyntacticForm())
      ILE = ILE->getSyntacticForm();
    ListExtent L;
    if (!braces(SourceRange(ILE->getLBraceLoc(), ILE->getRBraceLoc()), L))
      return;
    for (const Expr *E : ILE->inits()) {
      if (!E || !addEntry(E->getSourceRange(), L))
        return;
      if (const auto *Sub = dyn_cast<InitListExpr>(E->IgnoreImplicit()))
        addList(Sub, Name, Usable);
    }
    L.Name = Name;
    L.Usable = Usable;
    wanted(ILE->getLBraceLoc())->Lists.push_back(std::move(L));
  }

  /// The braces of a list of a wanted file, both in it.
  bool braces(SourceRange R, ListExtent &L) const {
    if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return false;
    FileID FID = SM.getFileID(R.getBegin());
    if (!Files.count(FID) || SM.getFileID(R.getEnd()) != FID)
      return false;
    L.Open = SM.getFileOffset(R.getBegin());
    L.Close = SM.getFileOffset(R.getEnd());
    return true;
  }

  /// Adds the entry spanning \p R to \p L, with the ',' after it.
  bool addEntry(SourceRange R, ListExtent &L) const {
    if (R.isInvalid())
      return false;
    SourceLocation B = SM.getExpansionRange(R.getBegin()).getBegin();
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (SM.getFileOffset(B) <= L.Open || SM.getFileOffset(E) >= L.Close)
      return false;
    ListExtent::Entry X;
    X.Begin = SM.getFileOffset(B);
    SourceLocation After = Lexer::getLocForEndOfToken(E, 0, SM, LO);
    X.End = After.isValid() ? SM.getFileOffset(After) : X.Begin + 1;
    std::optional<clang::Token> Next = nextCode(E);
    if (Next && Next->is(tok::comma))
      X.Comma = SM.getFileOffset(Next->getLocation());
    L.Entries.push_back(X);
    return true;
  }

  /// The offset past the token at \p E, and past a ';' right after it
  /// (directive lines between them skipped): a conditional between a
  /// declaration and its ';' splits it.
  unsigned endAfter(SourceLocation E) const {
    SourceLocation After = Lexer::getLocForEndOfToken(E, 0, SM, LO);
    unsigned End =
        After.isValid() ? SM.getFileOffset(After) : SM.getFileOffset(E) + 1;
    std::optional<clang::Token> Next = nextCode(E);
    if (Next && Next->is(tok::semi) &&
        SM.getFileID(Next->getLocation()) == SM.getFileID(E))
      End = SM.getFileOffset(Next->getLocation()) + 1;
    return End;
  }

  /// The token after the one at \p L that is not on a directive line.
  std::optional<clang::Token> nextCode(SourceLocation L) const {
    SourceLocation After = Lexer::getLocForEndOfToken(L, 0, SM, LO);
    if (After.isInvalid())
      return std::nullopt;
    auto [FID, Offset] = SM.getDecomposedLoc(After);
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    if (Invalid)
      return std::nullopt;
    // One lexer for the whole walk: a fresh one takes its first token for
    // the start of a line.
    Lexer Lx(SM.getLocForStartOfFile(FID), LO, Buf.begin(),
             Buf.begin() + Offset, Buf.end());
    clang::Token T;
    bool InDirective = false;
    for (unsigned I = 0; I < 4096; ++I) {
      Lx.LexFromRawLexer(T);
      if (T.is(tok::eof))
        break;
      if (T.isAtStartOfLine())
        InDirective = T.is(tok::hash);
      if (!InDirective)
        return T;
    }
    return std::nullopt;
  }

  /// The first '{' from \p L on (a namespace's or linkage
  /// specification's, which the AST does not record).
  SourceLocation openBraceAfter(SourceLocation L) const {
    L = SM.getExpansionLoc(L);
    for (unsigned I = 0; I < 64 && L.isValid(); ++I) {
      std::optional<clang::Token> T = Lexer::findNextToken(L, SM, LO);
      if (!T)
        break;
      if (T->is(tok::l_brace))
        return T->getLocation();
      L = T->getLocation();
    }
    return SourceLocation();
  }

  FileShapes *wanted(SourceLocation L) {
    auto It = Files.find(SM.getFileID(L));
    return It == Files.end() ? nullptr : &It->second;
  }

  void add(clang::Stmt *S, SourceLocation Head, std::string Name) {
    auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    if (!CS || Head.isInvalid())
      return;
    SourceLocation H = SM.getExpansionLoc(Head);
    SourceLocation L = SM.getExpansionLoc(CS->getLBracLoc());
    SourceLocation R = SM.getExpansionLoc(CS->getRBracLoc());
    FileID Only = SM.getFileID(L);
    FileShapes *F = wanted(L);
    if (!F || SM.getFileID(R) != Only || SM.getFileID(H) != Only)
      return;
    F->Bodies.push_back({CS, Only, SM.getFileOffset(H), SM.getFileOffset(L),
                         SM.getFileOffset(R) + 1, std::move(Name)});
  }

  SourceManager &SM;
  const LangOptions &LO;
  llvm::DenseMap<FileID, FileShapes> &Files;
};

class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  RefFinder(SourceManager &SM, const std::set<const ValueDecl *> &Decls,
            unsigned After)
      : SM(SM), Decls(Decls), After(After) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Decls.count(E->getDecl()) &&
        SM.getFileOffset(SM.getExpansionLoc(E->getLocation())) > After)
      Found = E->getDecl();
    return true;
  }
  const ValueDecl *Found = nullptr;

private:
  SourceManager &SM;
  const std::set<const ValueDecl *> &Decls;
  unsigned After;
};

/// Places each conditional that this pass compiles in the parsed code.
class PlacementConsumer : public ASTConsumer {
public:
  PlacementConsumer(CompilerInstance &CI, Facts &F, unsigned Pass)
      : SM(CI.getSourceManager()), LO(CI.getLangOpts()), F(F), Pass(Pass),
        KnowsFiles(F.Preprocessed >> Pass & 1) {
    for (auto &[K, G] : F.Groups)
      if (toPlace(G))
        ByFile[G.File].push_back(&G);
  }

  /// Only the files with conditionals to place need their function
  /// bodies: those of a system header (the toolkit's, CCCL's: most of a
  /// parse) and of a user file with none (a header another unit's parse
  /// placed, one without sites) are skipped. Clang parses those it may
  /// need for the user's code anyway: constexpr functions and those with
  /// a deduced return type. A body is kept where an #include follows it
  /// in its file (a file included inside the body may hold some), and
  /// wherever this pass was not preprocessed before: its conditionals are
  /// then known only as the parse reaches them.
  bool shouldSkipFunctionBody(Decl *D) override {
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (SM.isInSystemHeader(Loc))
      return true;
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc));
    if (!KnowsFiles || !FE || ByFile.count(FE->getName()))
      return false;
    auto Next =
        F.Includes.upper_bound({FE->getName().str(), SM.getFileOffset(Loc)});
    return Next == F.Includes.end() || Next->first != FE->getName();
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The parse itself may have found more.
    ByFile.clear();
    for (auto &[K, G] : F.Groups)
      if (toPlace(G))
        ByFile[G.File].push_back(&G);
    llvm::DenseMap<FileID, FileShapes> Shapes;
    std::vector<std::pair<FileID, std::vector<Group *> *>> Work;
    for (auto &[Name, Groups] : ByFile) {
      FileID FID = fileNamed(Name);
      if (FID.isInvalid())
        continue;
      Shapes[FID];
      Work.push_back({FID, &Groups});
    }
    if (Work.empty())
      return;
    // A parse that read the prelude precompiled (PreludePch.h) walks only
    // what it parsed itself: walking the header's declarations would read
    // them all from it, and none is in a user file.
    std::vector<Decl *> Scope = Ctx.getTraversalScope();
    if (Ctx.getExternalSource()) {
      std::vector<Decl *> Parsed;
      for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
        if (!D->isFromASTFile())
          Parsed.push_back(D);
      Ctx.setTraversalScope(Parsed);
    }
    BodyCollector(SM, LO, Shapes).TraverseDecl(Ctx.getTranslationUnitDecl());
    Ctx.setTraversalScope(Scope);
    for (auto &[FID, Groups] : Work)
      for (Group *G : *Groups)
        place(*G, FID, Shapes[FID]);
  }

private:
  /// Whether this parse places \p G: a site this pass compiles that no
  /// other unit's parse placed (placing the other conditionals, include
  /// guards among them, would change nothing the audit reports).
  bool toPlace(const Group &G) const {
    return G.Taken[Pass] != Unreached && !G.Cached && isSite(G);
  }

  FileID fileNamed(llvm::StringRef Name) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (It->first.getName() == Name)
        return SM.translateFile(It->first);
    return FileID();
  }

  /// [begin, end) of \p S in \p FID, end past its last token.
  std::optional<std::pair<unsigned, unsigned>> extent(const Stmt *S,
                                                      FileID FID) const {
    SourceLocation B = SM.getExpansionRange(S->getBeginLoc()).getBegin();
    SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
    if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != FID ||
        SM.getFileID(E) != FID)
      return std::nullopt;
    SourceLocation After = Lexer::getLocForEndOfToken(E, 0, SM, LO);
    unsigned End =
        After.isValid() ? SM.getFileOffset(After) : SM.getFileOffset(E) + 1;
    return std::make_pair(SM.getFileOffset(B), End);
  }

  const Stmt *innermost(const Stmt *S, FileID FID, unsigned Off) const {
    for (const Stmt *C : S->children()) {
      if (!C)
        continue;
      auto X = extent(C, FID);
      if (X && X->first <= Off && Off < X->second)
        return innermost(C, FID, Off);
    }
    return S;
  }

  /// innermost(), but where \p Off is among the pragmas of a statement
  /// (`#pragma unroll` before a loop: an AttributedStmt of loop hints),
  /// the statement holding that one, \p Pragmas set to it.
  const Stmt *innermostOutsidePragmas(const Stmt *S, FileID FID, unsigned Off,
                                      const AttributedStmt *&Pragmas) const {
    for (const Stmt *C : S->children()) {
      if (!C)
        continue;
      auto X = extent(C, FID);
      if (!X || Off < X->first || X->second <= Off)
        continue;
      if (const auto *A = dyn_cast<AttributedStmt>(C)) {
        auto Sub = extent(A->getSubStmt(), FID);
        bool Hints = llvm::all_of(A->getAttrs(), [](const Attr *At) {
          return isa<LoopHintAttr>(At);
        });
        if (Hints && Sub && Off < Sub->first) {
          if (Pragmas && Pragmas != A)
            return nullptr;
          Pragmas = A;
          return S;
        }
      }
      return innermostOutsidePragmas(C, FID, Off, Pragmas);
    }
    return S;
  }

  unsigned spaceOf(const Body &B) const {
    llvm::StringRef Buf = SM.getBufferData(B.File);
    std::string Head = Buf.slice(B.HeadBegin, B.Begin).str();
    unsigned Space = 0;
    for (const metacu::Token &T : lexRaw(Head))
      if (T.isIdent())
        Space |= F.Spaces.lookup(T.Text);
    return Space;
  }

  void place(Group &G, FileID FID, const FileShapes &Shapes) {
    const std::vector<Body> &Bodies = Shapes.Bodies;
    unsigned First = G.Dirs.front();
    const Body *Fn = innermostBody(Bodies, First);
    if (Fn) {
      G.Space |= spaceAround(*Fn, Bodies);
      G.Function = Fn->Name;
    }
    if (std::optional<std::string> Error = parseErrorUpTo(G, FID, Shapes, Fn != nullptr)) {
      merge(G, Placement::DoesNotParse, G.Dirs.front(), *Error);
      return;
    }
    if (placeBetweenEntries(G, Shapes.Lists))
      return;
    if (!Fn) {
      placeBetweenDeclarations(G, FID, Shapes.Decls);
      return;
    }
    const CompoundStmt *Block = nullptr;
    const AttributedStmt *Pragmas = nullptr;
    for (unsigned D : G.Dirs) {
      const Stmt *S = D < Fn->End
                          ? innermostOutsidePragmas(Fn->Stmt, FID, D, Pragmas)
                          : nullptr;
      if (!S || !isa<CompoundStmt>(S) || (Block && S != Block)) {
        merge(G, Placement::SplitsStatement, D, "");
        return;
      }
      Block = cast<CompoundStmt>(S);
    }
    if (Pragmas) {
      // Only the statement's pragmas may lie in the conditional.
      auto Whole = extent(Pragmas, FID);
      if (!Whole || Whole->first <= First)
        merge(G, Placement::SplitsStatement, First, "");
      else
        merge(G, Placement::PragmasBeforeStatement, Whole->second, "");
      return;
    }
    if (std::optional<std::string> Macro =
            macroEndingStatementBefore(*Block, FID, First))
      merge(G, Placement::AfterMacroStatement, First,
            "follows a statement that ends in the expansion of macro '" +
                *Macro +
                "' without a ';' of its own: metacu reads the text before "
                "macros expand, where 'if codegen' would not begin a "
                "statement");
    else if (!declaresNamesOutliving(G, FID, *Fn, *Block))
      merge(G, Placement::Statement, First, "");
  }

  /// Why the parse of this pass cannot place \p G, if the parser made an
  /// error in the branch this pass compiles, or, outside the function
  /// bodies it parsed, before it where Clang had not recovered yet:
  /// recovery skips text, and until a declaration begins again what the
  /// AST says there (no function body, a declaration) need not be what the
  /// text holds. Inside a body Clang recovers statement by statement (and
  /// reads a dialect file's meta constructs as such errors).
  std::optional<std::string> parseErrorUpTo(const Group &G, FileID FID,
                                            const FileShapes &Shapes,
                                            bool InBody) const {
    int T = G.Taken[Pass];
    unsigned End = T < 0 ? G.Dirs.back() : G.Dirs[T + 1];
    auto Recovered = [&](unsigned Error) {
      return InBody || llvm::any_of(Shapes.Decls, [&](const DeclExtent &X) {
        return Error < X.Begin && X.Begin <= G.Dirs.front();
      });
    };
    auto It = F.ParseErrors.lower_bound({Pass, FileKey{G.File, 0}});
    for (; It != F.ParseErrors.end() && It->first.first == Pass &&
           It->first.second.first == G.File &&
           It->first.second.second < End;
         ++It)
      if (It->first.second.second > G.Dirs.front() ||
          !Recovered(It->first.second.second))
        break;
    if (It == F.ParseErrors.end() || It->first.first != Pass ||
        It->first.second.first != G.File || It->first.second.second >= End)
      return std::nullopt;
    if (T >= 0 && It->first.second.second > G.Dirs[T])
      return "the branch at line " +
             std::to_string(SM.getLineNumber(FID, G.Dirs[T])) +
             " does not parse when compiled for " + passName(Pass) +
             " (metacu parses the body of an 'if codegen'); line " +
             It->second;
    return "the code before it does not parse when compiled for " +
           passName(Pass) +
           " (where the conditional sits is unknown past an error); line " +
           It->second;
  }

  /// The macro whose expansion ends the statement of \p Block before
  /// offset \p Off, if no ';' follows it in the text ('WRAP(x += 2;)'):
  /// metacu reads the text before macros expand and would not see that
  /// statement end.
  std::optional<std::string>
  macroEndingStatementBefore(const CompoundStmt &Block, FileID FID,
                             unsigned Off) const {
    const Stmt *Prev = nullptr;
    for (const Stmt *C : Block.body()) {
      auto X = extent(C, FID);
      if (!X)
        continue;
      if (X->second > Off)
        break;
      Prev = C;
    }
    if (!Prev || !Prev->getEndLoc().isMacroID())
      return std::nullopt;
    SourceLocation End = SM.getExpansionRange(Prev->getEndLoc()).getEnd();
    std::optional<clang::Token> Next = Lexer::findNextToken(End, SM, LO);
    if (Next && Next->is(tok::semi))
      return std::nullopt;
    SourceLocation Name = SM.getExpansionLoc(Prev->getEndLoc());
    return Lexer::getSourceText(CharSourceRange::getTokenRange(Name), SM, LO)
        .str();
  }

  /// Whether every directive of \p G lies between the entries of one list
  /// (none inside an entry or a nested list) and the '#if' where an entry
  /// begins (after the '{' or a ','); places \p G there if so.
  bool placeBetweenEntries(Group &G, const std::vector<ListExtent> &Lists) {
    auto InnermostList = [&](unsigned Offset) {
      const ListExtent *In = nullptr;
      for (const ListExtent &L : Lists)
        if (L.Open < Offset && Offset < L.Close &&
            (!In || L.Close - L.Open < In->Close - In->Open))
          In = &L;
      return In;
    };
    const ListExtent *L = InnermostList(G.Dirs.front());
    if (!L || !L->Usable)
      return false;
    for (unsigned D : G.Dirs) {
      if (InnermostList(D) != L)
        return false;
      for (const ListExtent::Entry &E : L->Entries)
        if (E.Begin < D && D < E.End)
          return false;
    }
    const ListExtent::Entry *Before = nullptr;
    for (const ListExtent::Entry &E : L->Entries)
      if (E.End <= G.Dirs.front())
        Before = &E;
    if (Before && !(Before->Comma && *Before->Comma < G.Dirs.front()))
      return false;
    G.Function = L->Name;
    merge(G, Placement::ListEntries, G.Dirs.front(), "");
    return true;
  }

  /// Outside function bodies, 'if codegen' chooses whole declarations of
  /// one scope (a namespace, the file, a class): every directive of \p G
  /// must lie between the declarations of the same scope, none inside one.
  void placeBetweenDeclarations(Group &G, FileID FID,
                                const std::vector<DeclExtent> &Decls) {
    const DeclExtent *Scope = nullptr;
    for (size_t I = 0; I < G.Dirs.size(); ++I) {
      unsigned D = G.Dirs[I];
      const DeclExtent *In = innermostDecl(Decls, D);
      std::string Line = std::to_string(SM.getLineNumber(FID, D));
      if (In && !(In->Container && In->InnerBegin <= D && D < In->InnerEnd)) {
        merge(G, Placement::SplitsDeclaration, D,
              "its directive at line " + Line + " is inside " +
                  declaredThing(*In) +
                  "; 'if codegen' chooses whole declarations, members "
                  "or list entries");
        return;
      }
      if (I > 0 && In != Scope) {
        merge(G, Placement::SplitsDeclaration, D,
              "its directive at line " + Line +
                  " is in another scope than its '#if': 'if codegen' "
                  "chooses whole declarations of one scope");
        return;
      }
      Scope = In;
    }
    if (Scope && Scope->IsClass) {
      G.Function = Scope->Name;
      merge(G, Placement::Members, G.Dirs.front(), "");
    } else {
      merge(G, Placement::Declarations, G.Dirs.front(), "");
    }
  }

  /// "the declaration of 'x'", "the enumerator list of 'E'", in words.
  static std::string declaredThing(const DeclExtent &X) {
    std::string Name = X.Name.empty() ? "" : " of '" + X.Name + "'";
    if (isa<EnumDecl>(X.D))
      return "the enumerator list" + Name;
    if (const auto *VD = dyn_cast<VarDecl>(X.D);
        VD && VD->getInit() && isa<InitListExpr>(VD->getInit()))
      return "the braced initializer" + Name;
    return "the declaration" + Name;
  }

  /// The smallest declaration holding \p Offset; of two alike (a class
  /// template and its class), the one with braces.
  static const DeclExtent *innermostDecl(const std::vector<DeclExtent> &Decls,
                                         unsigned Offset) {
    const DeclExtent *In = nullptr;
    for (const DeclExtent &X : Decls) {
      if (!(X.Begin < Offset && Offset < X.End))
        continue;
      unsigned Size = X.End - X.Begin, Best = In ? In->End - In->Begin : 0;
      if (!In || Size < Best || (Size == Best && X.Container))
        In = &X;
    }
    return In;
  }

  /// The innermost body holding \p Offset.
  static const Body *innermostBody(const std::vector<Body> &Bodies,
                                   unsigned Offset) {
    const Body *Fn = nullptr;
    for (const Body &B : Bodies)
      if (B.Begin < Offset && Offset < B.End &&
          (!Fn || (B.End - B.Begin) < (Fn->End - Fn->Begin)))
        Fn = &B;
    return Fn;
  }

  /// The execution space \p Fn runs in: a lambda without one of its own
  /// runs where its enclosing function runs.
  unsigned spaceAround(const Body &Fn, const std::vector<Body> &Bodies) const {
    unsigned Space = spaceOf(Fn);
    if (!Space)
      for (const Body &B : Bodies)
        if (&B != &Fn && B.Begin < Fn.Begin && Fn.End <= B.End &&
            (Space = spaceOf(B)))
          break;
    return Space;
  }

  /// 'if codegen' keeps its braces in a function body: a branch whose
  /// declaration (of the branch this pass takes) is used after the #endif,
  /// or that declares a type (whose uses the walk below does not see),
  /// needs 'using if codegen', whose braces open no scope. So does one
  /// that declares a variable used in the branch alone: the original
  /// declared it in the enclosing scope, and nvcc's code follows scopes
  /// (a block around llama.cpp's fattn-tile copy loops changed two of its
  /// kernels' registers). Places \p G and returns true if so.
  bool declaresNamesOutliving(Group &G, FileID FID, const Body &Fn,
                              const CompoundStmt &Block) {
    int T = G.Taken[Pass];
    if (T < 0)
      return false;
    unsigned BranchBegin = G.Dirs[T], BranchEnd = G.Dirs[T + 1];
    std::set<const ValueDecl *> Vars;
    const ValueDecl *First = nullptr;
    for (const Stmt *S : Block.body()) {
      auto X = extent(S, FID);
      auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS || !X || X->first < BranchBegin || X->first > BranchEnd)
        continue;
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<ValueDecl>(D);
        if (!VD) {
          const auto *ND = dyn_cast<NamedDecl>(D);
          merge(G, Placement::DeclaresNames, X->first,
                "declares " +
                    (ND ? "'" + ND->getNameAsString() + "'"
                        : std::string("a type")) +
                    " in '" + Fn.Name +
                    "', which 'using if codegen' keeps visible after it");
          return true;
        }
        Vars.insert(VD);
        if (!First)
          First = VD;
      }
    }
    if (Vars.empty())
      return false;
    RefFinder Refs(SM, Vars, G.Dirs.back());
    Refs.TraverseStmt(const_cast<CompoundStmt *>(Fn.Stmt));
    if (!Refs.Found) {
      merge(G, Placement::DeclaresNames, G.Dirs.front(),
            "declares '" + First->getNameAsString() + "' in '" + Fn.Name +
                "': 'using if codegen' keeps it in the scope the original "
                "declares it in");
      return true;
    }
    merge(G, Placement::DeclaresNames, G.Dirs.front(),
          "declares '" + Refs.Found->getNameAsString() + "' in '" + Fn.Name +
              "', used after the #endif: 'using if codegen' keeps it "
              "visible there");
    return true;
  }

  static void merge(Group &G, Placement P, unsigned Offset,
                    std::string Detail) {
    if (P <= G.Place)
      return;
    G.Place = P;
    G.PlaceOffset = Offset;
    G.PlaceDetail = std::move(Detail);
  }

  SourceManager &SM;
  const LangOptions &LO;
  Facts &F;
  unsigned Pass;
  /// Whether the facts held this pass's conditionals before the parse.
  bool KnowsFiles;
  /// The conditionals to place, by file.
  std::map<std::string, std::vector<Group *>, std::less<>> ByFile;
};

} // namespace

std::unique_ptr<ASTConsumer> createPlacementConsumer(CompilerInstance &CI,
                                                     Facts &F, unsigned Pass) {
  return std::make_unique<PlacementConsumer>(CI, F, Pass);
}

} // namespace metacu
