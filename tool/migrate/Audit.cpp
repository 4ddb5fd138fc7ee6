//===- Audit.cpp ----------------------------------------------------------===//
#include "migrate/Audit.h"
#include "expand/Scan.h"
#include "toolchain/Arch.h"
#include "toolchain/Invocation.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace metacu {

/// The host pass, then nvcc's architectures.
static const auto Passes = [] {
  std::array<unsigned, std::size(NvccArchitectures) + 1> P{0};
  llvm::copy(NvccArchitectures, P.begin() + 1);
  return P;
}();
static constexpr unsigned NumPasses = std::size(Passes);
static constexpr uint64_t AllPasses = (uint64_t(1) << NumPasses) - 1;
static constexpr uint64_t DevicePasses = AllPasses & ~uint64_t(1);

llvm::ArrayRef<unsigned> auditPasses() { return Passes; }

static std::string passName(unsigned I) {
  return Passes[I] == 0 ? "host" : "sm_" + std::to_string(Passes[I]);
}

std::string passNames(uint64_t Mask) {
  std::vector<std::string> Names;
  for (unsigned I = 0; I < NumPasses; ++I)
    if (Mask >> I & 1)
      Names.push_back(passName(I));
  return llvm::join(Names, ", ");
}

std::string codegenCondition(uint64_t Want, uint64_t DontCare) {
  auto Is = [](uint64_t M, unsigned I) { return (M >> I & 1) != 0; };
  // Maximal runs of wanted-or-free passes that hold a wanted one; free
  // passes at a run's edge are kept only where that drops a bound.
  std::vector<std::pair<unsigned, unsigned>> Runs;
  for (unsigned I = 0; I < NumPasses;) {
    if (!Is(Want | DontCare, I)) {
      ++I;
      continue;
    }
    unsigned J = I;
    while (J + 1 < NumPasses && Is(Want | DontCare, J + 1))
      ++J;
    unsigned Lo = I, Hi = J;
    while (Lo <= Hi && !Is(Want, Lo))
      ++Lo;
    while (Hi >= Lo && Lo <= J && !Is(Want, Hi))
      --Hi;
    if (Lo <= J) {
      if (I == 0)
        Lo = 0;
      if (J == NumPasses - 1)
        Hi = J;
      Runs.push_back({Lo, Hi});
    }
    I = J + 1;
  }
  if (Runs.empty())
    return "false";
  const std::string A = "(int)__nvvm_arch";
  std::vector<std::string> Terms;
  for (auto [Lo, Hi] : Runs) {
    bool ToEnd = Hi == NumPasses - 1;
    std::string Upper = ToEnd ? "" : std::to_string(Passes[Hi + 1]);
    if (Lo == 0 && ToEnd)
      return "true";
    if (Lo == 0)
      Terms.push_back(Hi == 0 ? A + " == 0" : A + " < " + Upper);
    else if (ToEnd)
      Terms.push_back(Lo == 1 ? A + " != 0"
                              : A + " >= " + std::to_string(Passes[Lo]));
    else if (Lo == Hi)
      Terms.push_back(A + " == " + std::to_string(Passes[Lo]));
    else
      Terms.push_back(A + " >= " + std::to_string(Passes[Lo]) + " && " + A +
                      " < " + Upper);
  }
  if (Terms.size() == 1)
    return Terms.front();
  for (std::string &T : Terms)
    if (llvm::StringRef(T).contains("&&"))
      T = "(" + T + ")";
  return llvm::join(Terms, " || ");
}

llvm::StringRef siteKindName(SiteKind K) {
  switch (K) {
  case SiteKind::Conditional:
    return "conditional";
  case SiteKind::MacroAlias:
    return "macro-alias";
  case SiteKind::Redefinition:
    return "redefinition";
  case SiteKind::ValueUse:
    return "value-use";
  }
  llvm_unreachable("bad site kind");
}

llvm::StringRef categoryName(SiteCategory C) {
  switch (C) {
  case SiteCategory::Statement:
    return "statement";
  case SiteCategory::HostDeviceSplit:
    return "host-device-split";
  case SiteCategory::NotConvertible:
    return "not-convertible";
  case SiteCategory::Constant:
    return "constant";
  case SiteCategory::Hazard:
    return "hazard";
  }
  llvm_unreachable("bad category");
}

namespace {

constexpr int Unreached = -2;
constexpr int NoBranch = -1;

enum ExecSpace : unsigned { HostSpace = 1, DeviceSpace = 2, GlobalSpace = 4 };

/// Where a conditional sits, as a parse of one pass sees it. Ordered from
/// best to worst: merging passes keeps the worst.
enum class Placement {
  Unknown,
  Statement,
  DeclaresNames,
  SplitsStatement,
  ClassScope,
  NamespaceScope,
};

using FileKey = std::pair<std::string, unsigned>;

struct Group {
  std::string File;
  std::vector<unsigned> Dirs; // offsets of directive names, #endif last
  std::vector<bool> DirIsElse;
  std::vector<int> Taken = std::vector<int>(NumPasses, Unreached);
  std::optional<FileKey> Parent;
  bool Mentions = false;
  bool ValueCompared = false;
  bool ArchFeature = false;
  std::set<std::string> Via;
  std::string BadValue;
  Placement Place = Placement::Unknown;
  unsigned PlaceOffset = 0;
  std::string PlaceDetail;
  unsigned Space = 0;
  std::string Function;
};

struct OtherSite {
  SiteKind Kind;
  std::string Via;
};

/// The per-architecture facts of one file, accumulated over passes.
struct Facts {
  std::map<FileKey, Group> Groups;
  std::map<FileKey, OtherSite> Others;
  std::set<FileKey> Includes, Defines;
  llvm::StringSet<> Derived;
  llvm::StringSet<> Aliases;
  llvm::StringMap<unsigned> Spaces{{"__host__", HostSpace},
                                   {"__device__", DeviceSpace},
                                   {"__global__", GlobalSpace}};
  std::vector<std::string> FileOrder;
  llvm::StringMap<std::string> Buffers;
};

bool isArchSpecific(llvm::StringRef N) {
  return N.starts_with("__CUDA_ARCH_FEAT_") || N == "__CUDA_ARCH_SPECIFIC__" ||
         N == "__CUDA_ARCH_FAMILY_SPECIFIC__" ||
         N == "__CUDA_ARCH_HAS_FEATURE__";
}

bool parseInteger(llvm::StringRef T, uint64_t &V) {
  T = T.rtrim("uUlL");
  return !T.getAsInteger(0, V);
}

class PassCallbacks : public PPCallbacks {
public:
  PassCallbacks(SourceManager &SM, Preprocessor &PP, Facts &F, unsigned Pass)
      : SM(SM), PP(PP), F(F), Pass(Pass) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    if (std::optional<std::string> Name = interesting(Loc))
      if (!F.Buffers.count(*Name)) {
        F.FileOrder.push_back(*Name);
        F.Buffers[*Name] = SM.getBufferData(SM.getFileID(Loc)).str();
      }
  }

  void InclusionDirective(SourceLocation Hash, const clang::Token &,
                          StringRef, bool, CharSourceRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (auto K = key(Hash))
      F.Includes.insert(*K);
  }

  void MacroDefined(const clang::Token &Name,
                    const MacroDirective *MD) override {
    llvm::StringRef N = Name.getIdentifierInfo()->getName();
    const MacroInfo *MI = MD->getMacroInfo();
    unsigned Space = 0;
    bool BodyMentions = false, BodyAliases = false;
    std::string Via;
    for (const clang::Token &T : MI->tokens()) {
      const IdentifierInfo *II = T.getIdentifierInfo();
      if (!II)
        continue;
      llvm::StringRef TN = II->getName();
      Space |= F.Spaces.lookup(TN);
      if (TN == "__CUDA_ARCH__" || F.Aliases.contains(TN))
        BodyAliases = true;
      if (TN == "__CUDA_ARCH__" || F.Derived.contains(TN)) {
        BodyMentions = true;
        if (TN != "__CUDA_ARCH__" && Via.empty())
          Via = TN.str();
      }
    }
    if (Space)
      F.Spaces[N] |= Space;
    bool UnderArch = llvm::any_of(Stack, [](const Frame &Fr) {
      return Fr.Mentions;
    });
    if (BodyMentions || UnderArch)
      F.Derived.insert(N);
    if (BodyAliases)
      F.Aliases.insert(N);
    auto K = key(Name.getLocation());
    if (!K)
      return;
    F.Defines.insert(*K);
    if (N == "__CUDA_ARCH__")
      F.Others.insert({*K, {SiteKind::Redefinition, ""}});
    else if (BodyMentions)
      F.Others.insert({*K, {SiteKind::MacroAlias, Via}});
  }

  void MacroUndefined(const clang::Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    auto K = key(Name.getLocation());
    if (!K)
      return;
    F.Defines.insert(*K);
    if (Name.getIdentifierInfo()->getName() == "__CUDA_ARCH__")
      F.Others.insert({*K, {SiteKind::Redefinition, ""}});
  }

  void MacroExpands(const clang::Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *) override {
    noteUse(Name.getIdentifierInfo()->getName(), /*IsValue=*/true, Range);
  }

  void Defined(const clang::Token &Name, const MacroDefinition &,
               SourceRange Range) override {
    noteUse(Name.getIdentifierInfo()->getName(), /*IsValue=*/false, Range);
  }

  void If(SourceLocation Loc, SourceRange Cond,
          ConditionValueKind Value) override {
    open(Loc, Value == CVK_True);
    scanCondition(Cond);
  }

  void Ifdef(SourceLocation Loc, const clang::Token &Name,
             const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo()->getName(), false, {});
    open(Loc, static_cast<bool>(MD));
  }

  void Ifndef(SourceLocation Loc, const clang::Token &Name,
              const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo()->getName(), false, {});
    open(Loc, !MD);
  }

  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value,
            SourceLocation IfLoc) override {
    if (next(Loc, IfLoc, Value == CVK_True, false))
      scanCondition(Cond);
  }

  void Elifdef(SourceLocation Loc, const clang::Token &Name,
               const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo()->getName(), false, {});
    if (!Stack.empty())
      next(Loc, Stack.back().IfLoc, static_cast<bool>(MD), false);
  }
  void Elifdef(SourceLocation Loc, SourceRange, SourceLocation IfLoc) override {
    next(Loc, IfLoc, false, false);
  }
  void Elifndef(SourceLocation Loc, const clang::Token &Name,
                const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo()->getName(), false, {});
    if (!Stack.empty())
      next(Loc, Stack.back().IfLoc, !MD, false);
  }
  void Elifndef(SourceLocation Loc, SourceRange,
                SourceLocation IfLoc) override {
    next(Loc, IfLoc, false, false);
  }

  void Else(SourceLocation Loc, SourceLocation IfLoc) override {
    if (!Stack.empty() && Stack.back().IfLoc == IfLoc)
      next(Loc, IfLoc, !Stack.back().AnyTaken, true);
  }

  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    if (Stack.empty() || Stack.back().IfLoc != IfLoc)
      return;
    Frame Fr = Stack.back();
    Stack.pop_back();
    if (!Fr.G)
      return;
    if (Fr.G->Dirs.size() == Fr.Branch + 1) {
      Fr.G->Dirs.push_back(offset(Loc));
      Fr.G->DirIsElse.push_back(false);
    }
    if (!Fr.AnyTaken)
      Fr.G->Taken[Pass] = NoBranch;
  }

private:
  struct Frame {
    Group *G;
    SourceLocation IfLoc;
    unsigned Branch;
    bool AnyTaken;
    bool Mentions;
  };

  std::optional<std::string> interesting(SourceLocation Loc) const {
    if (Loc.isInvalid())
      return std::nullopt;
    Loc = SM.getExpansionLoc(Loc);
    if (SM.getFileCharacteristic(Loc) != SrcMgr::C_User)
      return std::nullopt;
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc));
    if (!FE)
      return std::nullopt;
    return FE->getName().str();
  }

  std::optional<FileKey> key(SourceLocation Loc) const {
    std::optional<std::string> Name = interesting(Loc);
    if (!Name)
      return std::nullopt;
    return FileKey{*Name, offset(Loc)};
  }

  unsigned offset(SourceLocation Loc) const {
    return SM.getFileOffset(SM.getExpansionLoc(Loc));
  }

  /// A use of a macro name while evaluating a condition marks that
  /// condition; a use of __CUDA_ARCH__'s value in code is a site of its own.
  void noteUse(llvm::StringRef N, bool IsValue, SourceRange Range) {
    bool Arch = N == "__CUDA_ARCH__";
    bool Derived = !Arch && F.Derived.contains(N);
    if (isArchSpecific(N))
      Pending.ArchFeature = true;
    if (!Arch && !Derived)
      return;
    if (Range.isInvalid() || PP.isParsingIfOrElifDirective()) {
      Pending.Mentions = true;
      Pending.ValueCompared |= Arch && IsValue;
      if (Derived)
        Pending.Via.insert(N.str());
      return;
    }
    if (Arch && IsValue)
      if (auto K = key(Range.getBegin()))
        F.Others.insert({*K, {SiteKind::ValueUse, ""}});
  }

  /// The host pass never expands __CUDA_ARCH__, so the condition's own
  /// tokens tell whether it names it; they also show literal comparisons.
  void scanCondition(SourceRange Cond) {
    if (Stack.empty())
      return;
    Frame &Fr = Stack.back();
    if (Cond.isValid()) {
      // The range ends at the start of the condition's last token.
      CharSourceRange CR = CharSourceRange::getTokenRange(
          SM.getExpansionLoc(Cond.getBegin()),
          SM.getExpansionLoc(Cond.getEnd()));
      std::string Text =
          Lexer::getSourceText(CR, SM, PP.getLangOpts()).str();
      std::vector<metacu::Token> Toks = lexRaw(Text);
      for (size_t I = 0; I < Toks.size(); ++I) {
        if (!Toks[I].isIdent())
          continue;
        llvm::StringRef N = Toks[I].Text;
        if (isArchSpecific(N))
          Pending.ArchFeature = true;
        bool IsArch = N == "__CUDA_ARCH__" || F.Aliases.contains(N);
        if (!IsArch && !F.Derived.contains(N))
          continue;
        Pending.Mentions = true;
        if (N != "__CUDA_ARCH__")
          Pending.Via.insert(N.str());
        bool AfterDefined =
            (I >= 1 && Toks[I - 1].isIdent("defined")) ||
            (I >= 2 && Toks[I - 1].is(tok::l_paren) &&
             Toks[I - 2].isIdent("defined"));
        if (!IsArch || AfterDefined)
          continue;
        Pending.ValueCompared = true;
        const metacu::Token *Num = nullptr;
        if (I + 2 < Toks.size() && isComparison(Toks[I + 1]))
          Num = &Toks[I + 2];
        else if (I >= 2 && isComparison(Toks[I - 1]))
          Num = &Toks[I - 2];
        uint64_t V;
        if (Num && Num->is(tok::numeric_constant) &&
            parseInteger(Num->Text, V) && V != 0 && (V < 100 || V % 10))
          Pending.BadValue = Num->Text.str();
      }
    }
    Fr.Mentions |= Pending.Mentions;
    if (Fr.G) {
      Group &G = *Fr.G;
      G.Mentions |= Pending.Mentions;
      G.ValueCompared |= Pending.ValueCompared;
      G.ArchFeature |= Pending.ArchFeature;
      G.Via.insert(Pending.Via.begin(), Pending.Via.end());
      if (G.BadValue.empty())
        G.BadValue = Pending.BadValue;
    }
    Pending = {};
  }

  static bool isComparison(const metacu::Token &T) {
    return T.is(tok::less) || T.is(tok::lessequal) || T.is(tok::greater) ||
           T.is(tok::greaterequal) || T.is(tok::equalequal) ||
           T.is(tok::exclaimequal);
  }

  void open(SourceLocation Loc, bool Taken) {
    Group *G = nullptr;
    if (auto K = key(Loc)) {
      G = &F.Groups[*K];
      if (G->Dirs.empty()) {
        G->File = K->first;
        G->Dirs.push_back(K->second);
        G->DirIsElse.push_back(false);
        for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
          if (It->G) {
            G->Parent = FileKey{It->G->File, It->G->Dirs.front()};
            break;
          }
      }
      if (Taken)
        G->Taken[Pass] = 0;
    }
    Stack.push_back({G, Loc, 0, Taken, false});
    // #ifdef/#ifndef have no condition range; their name was noted already.
    scanCondition(SourceRange());
  }

  bool next(SourceLocation Loc, SourceLocation IfLoc, bool Taken,
            bool IsElse) {
    if (Stack.empty() || Stack.back().IfLoc != IfLoc)
      return false;
    Frame &Fr = Stack.back();
    ++Fr.Branch;
    if (Fr.G && Fr.G->Dirs.size() == Fr.Branch) {
      Fr.G->Dirs.push_back(offset(Loc));
      Fr.G->DirIsElse.push_back(IsElse);
    }
    if (Taken && !Fr.AnyTaken) {
      Fr.AnyTaken = true;
      if (Fr.G)
        Fr.G->Taken[Pass] = Fr.Branch;
    }
    return true;
  }

  struct PendingUse {
    bool Mentions = false;
    bool ValueCompared = false;
    bool ArchFeature = false;
    std::set<std::string> Via;
    std::string BadValue;
  };

  SourceManager &SM;
  Preprocessor &PP;
  Facts &F;
  unsigned Pass;
  std::vector<Frame> Stack;
  PendingUse Pending;
};

/// A function or lambda body of a user file, with the text that declares it.
struct Body {
  const CompoundStmt *Stmt;
  FileID File;
  unsigned HeadBegin, Begin, End; // End is past the '}'
  std::string Name;
};

class BodyCollector : public RecursiveASTVisitor<BodyCollector> {
public:
  BodyCollector(SourceManager &SM, std::vector<Body> &Bodies,
                std::vector<std::pair<unsigned, unsigned>> &Records,
                FileID Only)
      : SM(SM), Bodies(Bodies), Records(Records), Only(Only) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      add(FD->getBody(), FD->getOuterLocStart(), FD->getNameAsString());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    add(LE->getBody(), LE->getBeginLoc(), "lambda");
    return true;
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition()) {
      SourceRange R = RD->getSourceRange();
      SourceLocation B = SM.getExpansionLoc(R.getBegin());
      SourceLocation E = SM.getExpansionLoc(R.getEnd());
      if (SM.getFileID(B) == Only && SM.getFileID(E) == Only)
        Records.push_back({SM.getFileOffset(B), SM.getFileOffset(E)});
    }
    return true;
  }

private:
  void add(clang::Stmt *S, SourceLocation Head, std::string Name) {
    auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    if (!CS || Head.isInvalid())
      return;
    SourceLocation H = SM.getExpansionLoc(Head);
    SourceLocation L = SM.getExpansionLoc(CS->getLBracLoc());
    SourceLocation R = SM.getExpansionLoc(CS->getRBracLoc());
    if (SM.getFileID(L) != Only || SM.getFileID(R) != Only ||
        SM.getFileID(H) != Only)
      return;
    Bodies.push_back({CS, Only, SM.getFileOffset(H), SM.getFileOffset(L),
                      SM.getFileOffset(R) + 1, std::move(Name)});
  }

  SourceManager &SM;
  std::vector<Body> &Bodies;
  std::vector<std::pair<unsigned, unsigned>> &Records;
  FileID Only;
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
      : SM(CI.getSourceManager()), LO(CI.getLangOpts()), F(F), Pass(Pass) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::map<std::string, std::vector<Group *>> ByFile;
    for (auto &[K, G] : F.Groups)
      if (G.Taken[Pass] != Unreached)
        ByFile[G.File].push_back(&G);
    for (auto &[Name, Groups] : ByFile) {
      FileID FID = fileNamed(Name);
      if (FID.isInvalid())
        continue;
      std::vector<Body> Bodies;
      std::vector<std::pair<unsigned, unsigned>> Records;
      BodyCollector(SM, Bodies, Records, FID)
          .TraverseDecl(Ctx.getTranslationUnitDecl());
      for (Group *G : Groups)
        place(*G, FID, Bodies, Records);
    }
  }

private:
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
    unsigned End = After.isValid() ? SM.getFileOffset(After)
                                   : SM.getFileOffset(E) + 1;
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

  unsigned spaceOf(const Body &B) const {
    llvm::StringRef Buf = SM.getBufferData(B.File);
    std::string Head = Buf.slice(B.HeadBegin, B.Begin).str();
    unsigned Space = 0;
    for (const metacu::Token &T : lexRaw(Head))
      if (T.isIdent())
        Space |= F.Spaces.lookup(T.Text);
    return Space;
  }

  void place(Group &G, FileID FID, const std::vector<Body> &Bodies,
             const std::vector<std::pair<unsigned, unsigned>> &Records) {
    unsigned First = G.Dirs.front(), Last = G.Dirs.back();
    // The innermost body holding the #if; a lambda without an execution
    // space of its own runs where its enclosing function runs.
    const Body *Fn = nullptr;
    unsigned Space = 0;
    for (const Body &B : Bodies)
      if (B.Begin < First && First < B.End &&
          (!Fn || (B.End - B.Begin) < (Fn->End - Fn->Begin)))
        Fn = &B;
    if (!Fn) {
      bool InClass = llvm::any_of(Records, [&](auto R) {
        return R.first < First && First < R.second;
      });
      merge(G, InClass ? Placement::ClassScope : Placement::NamespaceScope,
            First, "");
      return;
    }
    Space = spaceOf(*Fn);
    if (!Space)
      for (const Body &B : Bodies)
        if (&B != Fn && B.Begin < Fn->Begin && Fn->End <= B.End &&
            (Space = spaceOf(B)))
          break;
    G.Space |= Space;
    G.Function = Fn->Name;
    const Stmt *Block = nullptr;
    for (unsigned D : G.Dirs) {
      const Stmt *S = D < Fn->End ? innermost(Fn->Stmt, FID, D) : nullptr;
      if (!S || !isa<CompoundStmt>(S) || (Block && S != Block)) {
        merge(G, Placement::SplitsStatement, D, "");
        return;
      }
      Block = S;
    }
    // 'if codegen' keeps its braces: a declaration in the branch this pass
    // takes must not be used after the #endif.
    int T = G.Taken[Pass];
    if (T >= 0) {
      unsigned BranchBegin = G.Dirs[T], BranchEnd = G.Dirs[T + 1];
      std::set<const ValueDecl *> Vars;
      for (const Stmt *S : cast<CompoundStmt>(Block)->body()) {
        auto X = extent(S, FID);
        auto *DS = dyn_cast<DeclStmt>(S);
        if (!DS || !X || X->first < BranchBegin || X->first > BranchEnd)
          continue;
        for (const Decl *D : DS->decls()) {
          const auto *VD = dyn_cast<ValueDecl>(D);
          if (!VD) {
            const auto *ND = dyn_cast<NamedDecl>(D);
            merge(G, Placement::DeclaresNames, X->first,
                  "declares " + (ND ? "'" + ND->getNameAsString() + "'"
                                    : std::string("a type")) +
                      ", which 'if codegen' would scope to its branch");
            return;
          }
          Vars.insert(VD);
        }
      }
      if (!Vars.empty()) {
        RefFinder Refs(SM, Vars, Last);
        Refs.TraverseStmt(const_cast<Stmt *>(cast<Stmt>(Fn->Stmt)));
        if (Refs.Found) {
          merge(G, Placement::DeclaresNames, First,
                "declares '" + Refs.Found->getNameAsString() +
                    "', used after the #endif; 'if codegen' would scope it "
                    "to its branch (a type or constant chosen per "
                    "architecture)");
          return;
        }
      }
    }
    merge(G, Placement::Statement, First, "");
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
};

class PassAction : public ASTFrontendAction {
public:
  PassAction(Facts &F, unsigned Pass, bool Parse)
      : F(F), Pass(Pass), Parse(Parse) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<PassCallbacks>(CI.getSourceManager(),
                                                      PP, F, Pass));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    if (!Parse)
      return std::make_unique<ASTConsumer>();
    return std::make_unique<PlacementConsumer>(CI, F, Pass);
  }

  void ExecuteAction() override {
    // Only the branch each pass takes is needed from most passes:
    // preprocessing alone is several times cheaper than a parse.
    if (Parse)
      return ASTFrontendAction::ExecuteAction();
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    PP.EnterMainSourceFile();
    clang::Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eof));
  }

private:
  Facts &F;
  unsigned Pass;
  bool Parse;
};

/// Remembers the first fatal error (a missing header): the analysis of a
/// file that does not preprocess would be wrong, not just incomplete.
class FatalRecorder : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    if (L != DiagnosticsEngine::Fatal || !Message.empty())
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Message = llvm::formatv("{0}:{1}:{2}: error: {3}", P.getFilename(),
                                P.getLine(), P.getColumn(), Msg);
    }
    if (Message.empty())
      Message = ("metacu: error: " + Msg).str();
  }
  std::string Message;
};

struct DirectiveLine {
  unsigned Begin, End;
  std::string Text, Comment;
};

/// The whole logical line of the directive whose name is at \p NameOffset:
/// continuation lines and block comments that start on it included.
DirectiveLine directiveLine(llvm::StringRef Buf, unsigned NameOffset) {
  DirectiveLine D;
  size_t NL = Buf.rfind('\n', NameOffset);
  D.Begin = NL == llvm::StringRef::npos ? 0 : NL + 1;
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  Lexer L(SourceLocation::getFromRawEncoding(1), LO, Buf.data(),
          Buf.data() + D.Begin, Buf.data() + Buf.size());
  L.SetCommentRetentionState(true);
  unsigned End = NameOffset, CodeBegin = NameOffset, CodeEnd = NameOffset;
  std::vector<std::string> Comments;
  for (bool First = true;; First = false) {
    clang::Token T;
    L.LexFromRawLexer(T);
    if (T.is(tok::eof) || (!First && T.isAtStartOfLine()))
      break;
    unsigned Off = T.getLocation().getRawEncoding() - 1;
    End = Off + T.getLength();
    if (T.is(tok::comment)) {
      Comments.push_back(Buf.substr(Off, T.getLength()).str());
      continue;
    }
    if (First)
      CodeBegin = Off;
    CodeEnd = End;
  }
  size_t EOL = Buf.find('\n', End);
  D.End = EOL == llvm::StringRef::npos ? Buf.size() : EOL + 1;
  for (llvm::StringRef Rest = Buf.slice(CodeBegin, CodeEnd); !Rest.empty();) {
    auto [Part, Tail] = Rest.split("\\\n");
    D.Text += Part;
    Rest = Tail;
  }
  D.Comment = llvm::join(Comments, " ");
  return D;
}

std::string describeVia(const std::set<std::string> &Via) {
  std::vector<std::string> Q;
  for (const std::string &V : Via)
    Q.push_back("'" + V + "'");
  return llvm::join(Q, ", ");
}

/// The category and reason of one conditional; Codegen conditions for the
/// convertible ones.
void classify(Site &S, const Group &G, bool Pure, bool ParentStays,
              unsigned ParentLine) {
  uint64_t Reached = 0;
  std::set<int> DeviceBranches, AllBranches;
  for (unsigned P = 0; P < NumPasses; ++P) {
    if (G.Taken[P] == Unreached)
      continue;
    Reached |= uint64_t(1) << P;
    AllBranches.insert(G.Taken[P]);
    if (P != 0)
      DeviceBranches.insert(G.Taken[P]);
  }
  auto Line = [&](int Branch) {
    return Branch < 0 ? S.Directives.back().Line : S.Directives[Branch].Line;
  };
  auto Set = [&](SiteCategory C, std::string Reason) {
    S.Category = C;
    S.Reason = std::move(Reason);
  };
  bool InHostOnly = G.Place != Placement::Unknown &&
                    G.Place <= Placement::SplitsStatement &&
                    !(G.Space & (DeviceSpace | GlobalSpace));
  if (!G.BadValue.empty())
    return Set(SiteCategory::Hazard,
               "compares __CUDA_ARCH__ with " + G.BadValue +
                   ", which is not an architecture value (sm_75 is 750)");
  if (InHostOnly)
    return Set(SiteCategory::Hazard,
               "tests __CUDA_ARCH__ in host-only function '" + G.Function +
                   "': only the host pass compiles its body");
  if (AllBranches.size() <= 1)
    return Set(SiteCategory::Constant,
               AllBranches.empty() || *AllBranches.begin() < 0
                   ? "no pass compiles any branch"
                   : "every pass compiles the branch at line " +
                         std::to_string(Line(*AllBranches.begin())));
  if (DeviceBranches.size() == 1 && G.ValueCompared && (Reached & 1) &&
      G.Taken[0] != *DeviceBranches.begin()) {
    int D = *DeviceBranches.begin();
    return Set(SiteCategory::Constant,
               "every architecture nvcc 13 supports (sm_75 and newer) "
               "compiles " +
                   (D < 0 ? std::string("no branch")
                          : "the branch at line " + std::to_string(Line(D))) +
                   ": the comparison is a host/device test; write it as "
                   "one by hand");
  }
  if (!Pure)
    return Set(SiteCategory::NotConvertible,
               "in an included header: migrate rewrites the files it is "
               "given, and metacu expands only the file it is given");
  if (G.ArchFeature)
    return Set(SiteCategory::NotConvertible,
               "tests arch-specific feature macros (sm_90a, sm_100f), which "
               "__nvvm_arch does not distinguish");
  switch (G.Place) {
  case Placement::Unknown:
    return Set(SiteCategory::NotConvertible,
               "not found in the parsed code of the passes that compile it");
  case Placement::NamespaceScope:
    return Set(SiteCategory::NotConvertible,
               "chooses declarations at namespace scope; 'if codegen' "
               "selects statements inside a function body");
  case Placement::ClassScope:
    return Set(SiteCategory::NotConvertible,
               "chooses members at class scope; 'if codegen' selects "
               "statements inside a function body");
  case Placement::SplitsStatement:
    return Set(SiteCategory::NotConvertible,
               "its directives split a statement or expression; 'if "
               "codegen' selects whole statements");
  case Placement::DeclaresNames:
    return Set(SiteCategory::NotConvertible, G.PlaceDetail);
  case Placement::Statement:
    break;
  }
  if (ParentStays)
    return Set(SiteCategory::NotConvertible,
               "inside the conditional at line " + std::to_string(ParentLine) +
                   ", which stays: metacu sees the file once, not once per "
                   "architecture");
  bool HD = (G.Space & HostSpace) && (G.Space & DeviceSpace) &&
            DeviceBranches.size() == 1 && (Reached & 1) &&
            G.Taken[0] != *DeviceBranches.begin();
  Set(HD ? SiteCategory::HostDeviceSplit : SiteCategory::Statement,
      HD ? "host/device split in __host__ __device__ function '" +
               G.Function + "'"
         : "branch between statements of '" + G.Function + "'");
  uint64_t Earlier = 0, Free = AllPasses & ~Reached;
  std::vector<unsigned> Dead;
  for (size_t B = 0; B + 1 < S.Directives.size(); ++B) {
    SiteDirective &D = S.Directives[B];
    if (!D.TakenBy) {
      Dead.push_back(D.Line);
      continue;
    }
    if (!D.IsElse)
      D.Codegen = codegenCondition(D.TakenBy, Earlier | Free);
    Earlier |= D.TakenBy;
  }
  for (unsigned L : Dead)
    S.Reason += "; the branch at line " + std::to_string(L) +
                " is compiled for no architecture nvcc 13 supports and is "
                "dropped";
}

unsigned lineOf(llvm::StringRef Buf, unsigned Offset) {
  return Buf.take_front(Offset).count('\n') + 1;
}

} // namespace

llvm::Expected<std::vector<FileAudit>> auditFile(llvm::StringRef Path,
                                                 const AuditOptions &Opts) {
  Facts F;
  auto Files =
      llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
  auto Run = [&](unsigned Pass, bool Parse) -> llvm::Error {
    std::vector<std::string> Args =
        clangCommandLine(Opts.Toolkit, Opts.Flags,
                         {ClangMode::AuditPass, "", Passes[Pass]}, Path);
    FatalRecorder Fatal;
    tooling::ToolInvocation Invocation(
        Args, std::make_unique<PassAction>(F, Pass, Parse), Files.get());
    Invocation.setDiagnosticConsumer(&Fatal);
    Invocation.run();
    if (!Fatal.Message.empty())
      return llvm::createStringError(Fatal.Message);
    if (F.FileOrder.empty())
      return llvm::createStringError("metacu: error: cannot read '" + Path +
                                     "'");
    return llvm::Error::success();
  };

  // The host pass is parsed: most conditionals live in code it compiles.
  if (auto Err = Run(0, /*Parse=*/true))
    return std::move(Err);
  for (unsigned P = 1; P < NumPasses; ++P)
    if (auto Err = Run(P, /*Parse=*/false))
      return std::move(Err);
  auto IsSite = [](const Group &G) {
    std::set<int> Branches;
    for (int T : G.Taken)
      if (T != Unreached)
        Branches.insert(T);
    return G.Dirs.size() >= 2 && (G.Mentions || Branches.size() > 1);
  };
  // Parse again only for branches no parsed pass has taken yet, choosing
  // the pass that covers most of them.
  std::set<unsigned> Parsed{0};
  while (true) {
    std::vector<unsigned> Gain(NumPasses, 0);
    for (auto &[K, G] : F.Groups) {
      if (!IsSite(G))
        continue;
      std::set<int> Covered;
      for (unsigned P : Parsed)
        Covered.insert(G.Taken[P]);
      for (unsigned P = 0; P < NumPasses; ++P)
        if (G.Taken[P] >= 0 && !Covered.count(G.Taken[P]))
          ++Gain[P];
    }
    auto Best = std::max_element(Gain.begin(), Gain.end());
    if (*Best == 0)
      break;
    unsigned P = Best - Gain.begin();
    Parsed.insert(P);
    if (auto Err = Run(P, /*Parse=*/true))
      return std::move(Err);
  }

  const std::string &Main = F.FileOrder.front();
  std::map<FileKey, Site> Sites;
  // A conditional inside one that stays cannot move: classify parents
  // first (a header's conditionals may sit inside the main file's).
  std::function<const Site *(const FileKey &)> Classify =
      [&](const FileKey &K) -> const Site * {
    auto Done = Sites.find(K);
    if (Done != Sites.end())
      return &Done->second;
    auto GI = F.Groups.find(K);
    if (GI == F.Groups.end() || !IsSite(GI->second))
      return nullptr;
    const Group &G = GI->second;
    const Site *Parent = nullptr;
    for (std::optional<FileKey> P = G.Parent; P && !Parent;
         P = F.Groups[*P].Parent)
      Parent = Classify(*P);
    llvm::StringRef Buf = F.Buffers[G.File];
    Site S;
    S.Kind = SiteKind::Conditional;
    S.Via.assign(G.Via.begin(), G.Via.end());
    for (size_t I = 0; I < G.Dirs.size(); ++I) {
      DirectiveLine DL = directiveLine(Buf, G.Dirs[I]);
      SiteDirective D;
      D.Begin = DL.Begin;
      D.End = DL.End;
      D.Line = lineOf(Buf, G.Dirs[I]);
      D.Text = DL.Text;
      D.Comment = DL.Comment;
      D.IsElse = G.DirIsElse[I];
      D.IsEndif = I + 1 == G.Dirs.size();
      for (unsigned P = 0; P < NumPasses; ++P)
        if (!D.IsEndif && G.Taken[P] == static_cast<int>(I))
          D.TakenBy |= uint64_t(1) << P;
      S.Directives.push_back(D);
    }
    S.Offset = S.Directives.front().Begin;
    S.Line = S.Directives.front().Line;
    S.Column = Buf.find('#', S.Offset) - S.Offset + 1;
    S.EndLine = S.Directives.back().Line;
    S.Text = S.Directives.front().Text;
    classify(S, G, G.File == Main, Parent && !isConvertible(Parent->Category),
             Parent ? Parent->Line : 0);
    // #include and #define lines in a branch must keep their preprocessor
    // meaning, which an 'if codegen' branch does not have.
    auto Inside = [&](const std::set<FileKey> &Set) -> std::optional<unsigned> {
      auto It = Set.lower_bound({G.File, G.Dirs.front()});
      if (It != Set.end() && It->first == G.File && It->second < G.Dirs.back())
        return It->second;
      return std::nullopt;
    };
    std::optional<unsigned> Inc, Def;
    if (isConvertible(S.Category) &&
        ((Inc = Inside(F.Includes)) || (Def = Inside(F.Defines)))) {
      S.Category = SiteCategory::NotConvertible;
      S.Reason = Inc ? "gates the #include at line " +
                           std::to_string(lineOf(Buf, *Inc))
                     : "defines macros per architecture (line " +
                           std::to_string(lineOf(Buf, *Def)) + ")";
      for (SiteDirective &D : S.Directives)
        D.Codegen.clear();
    }
    return &Sites.emplace(K, std::move(S)).first->second;
  };
  for (auto &[K, G] : F.Groups)
    Classify(K);

  for (auto &[K, O] : F.Others) {
    llvm::StringRef Buf = F.Buffers[K.first];
    Site S;
    S.Kind = O.Kind;
    S.Offset = K.second;
    S.Line = S.EndLine = lineOf(Buf, K.second);
    size_t NL = Buf.rfind('\n', K.second);
    S.Column = K.second - (NL == llvm::StringRef::npos ? 0 : NL + 1) + 1;
    size_t EOL = Buf.find('\n', K.second);
    S.Text = Buf.slice(NL == llvm::StringRef::npos ? 0 : NL + 1, EOL)
                 .trim()
                 .str();
    if (!O.Via.empty())
      S.Via.push_back(O.Via);
    switch (O.Kind) {
    case SiteKind::Redefinition:
      S.Category = SiteCategory::Hazard;
      S.Reason = "the program defines or undefines __CUDA_ARCH__, which "
                 "only nvcc may set";
      break;
    case SiteKind::MacroAlias:
      S.Category = SiteCategory::NotConvertible;
      S.Reason = "macro derived from __CUDA_ARCH__; the conditionals that "
                 "test it are listed on their own";
      break;
    default:
      S.Category = SiteCategory::NotConvertible;
      S.Reason = "uses __CUDA_ARCH__'s value in code; inside 'if codegen' "
                 "use (int)__nvvm_arch * 10";
      break;
    }
    Sites.emplace(K, std::move(S));
  }

  std::vector<FileAudit> Result;
  for (const std::string &Name : F.FileOrder) {
    FileAudit FA;
    FA.Path = Name;
    for (auto It = Sites.lower_bound({Name, 0});
         It != Sites.end() && It->first.first == Name; ++It)
      FA.Sites.push_back(std::move(It->second));
    if (Name == Main || !FA.Sites.empty())
      Result.push_back(std::move(FA));
  }
  return Result;
}

static const SiteCategory Categories[] = {
    SiteCategory::Statement, SiteCategory::HostDeviceSplit,
    SiteCategory::NotConvertible, SiteCategory::Constant,
    SiteCategory::Hazard};

static std::string countLine(llvm::ArrayRef<const Site *> Sites) {
  std::string S = std::to_string(Sites.size()) + " site" +
                  (Sites.size() == 1 ? "" : "s");
  std::vector<std::string> Parts;
  for (SiteCategory C : Categories) {
    size_t N = llvm::count_if(Sites, [&](const Site *X) {
      return X->Category == C;
    });
    if (N)
      Parts.push_back(std::to_string(N) + " " + categoryName(C).str());
  }
  return Parts.empty() ? S : S + ": " + llvm::join(Parts, ", ");
}

void printAuditText(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files) {
  std::vector<const Site *> All;
  for (const FileAudit &FA : Files) {
    OS << FA.Path << '\n';
    std::vector<const Site *> Mine;
    for (const Site &S : FA.Sites)
      Mine.push_back(&S);
    if (!Mine.empty())
      OS << llvm::formatv("  {0,-11} {1,-17} {2,-12} {3}\n", "LINES",
                          "CATEGORY", "KIND", "SITE / REASON");
    for (const Site *S : Mine) {
      std::string Lines = std::to_string(S->Line);
      if (S->EndLine != S->Line)
        Lines += "-" + std::to_string(S->EndLine);
      OS << llvm::formatv("  {0,-11} {1,-17} {2,-12} {3}\n", Lines,
                          categoryName(S->Category), siteKindName(S->Kind),
                          S->Text);
      std::string Why = S->Reason;
      if (!S->Via.empty())
        Why += " (via " + llvm::join(S->Via, ", ") + ")";
      OS << llvm::formatv("  {0,-43}{1}\n", "", Why);
      for (const SiteDirective &D : S->Directives)
        if (!D.Codegen.empty())
          OS << llvm::formatv("  {0,-43}line {1}: if codegen ({2})\n", "",
                              D.Line, D.Codegen);
    }
    OS << "  " << countLine(Mine) << "\n\n";
    llvm::append_range(All, Mine);
  }
  OS << "summary: " << countLine(All) << " in " << Files.size() << " file"
     << (Files.size() == 1 ? "" : "s") << '\n';
}

void printAuditJson(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files) {
  llvm::json::OStream J(OS, 2);
  auto Names = [&](uint64_t Mask) {
    J.array([&] {
      for (unsigned P = 0; P < NumPasses; ++P)
        if (Mask >> P & 1)
          J.value(passName(P));
    });
  };
  std::map<SiteCategory, unsigned> Totals;
  unsigned Count = 0;
  J.object([&] {
    J.attribute("version", 1);
    J.attributeBegin("passes");
    Names(AllPasses);
    J.attributeEnd();
    J.attributeArray("files", [&] {
      for (const FileAudit &FA : Files)
        J.object([&] {
          J.attribute("path", FA.Path);
          J.attributeArray("sites", [&] {
            for (const Site &S : FA.Sites) {
              ++Totals[S.Category];
              ++Count;
              J.object([&] {
                J.attribute("line", S.Line);
                J.attribute("column", S.Column);
                J.attribute("end_line", S.EndLine);
                J.attribute("kind", siteKindName(S.Kind));
                J.attribute("category", categoryName(S.Category));
                J.attribute("convertible", isConvertible(S.Category));
                J.attribute("text", S.Text);
                J.attributeArray("via", [&] {
                  for (const std::string &V : S.Via)
                    J.value(V);
                });
                J.attribute("reason", S.Reason);
                J.attributeArray("directives", [&] {
                  for (const SiteDirective &D : S.Directives)
                    J.object([&] {
                      J.attribute("line", D.Line);
                      J.attribute("text", D.Text);
                      if (D.IsEndif)
                        return;
                      J.attributeBegin("taken_by");
                      Names(D.TakenBy);
                      J.attributeEnd();
                      if (D.Codegen.empty())
                        J.attribute("codegen", nullptr);
                      else
                        J.attribute("codegen", D.Codegen);
                    });
                });
              });
            }
          });
        });
    });
    J.attributeObject("summary", [&] {
      J.attribute("files", static_cast<int64_t>(Files.size()));
      J.attribute("sites", Count);
      for (SiteCategory C : Categories)
        J.attribute(categoryName(C), Totals[C]);
    });
  });
  OS << '\n';
}

} // namespace metacu
