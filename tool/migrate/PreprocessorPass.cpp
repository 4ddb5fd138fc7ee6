//===- PreprocessorPass.cpp -----------------------------------------------===//
#include "migrate/PreprocessorPass.h"
#include "migrate/Placement.h"
#include "migrate/PragmaMacros.h"
#include "migrate/PreludePch.h"
#include "migrate/QuietPragmas.h"
#include "migrate/SystemHeaderDirectives.h"
#include "support/Diagnostic.h"
#include "support/Identifiers.h"
#include "support/Tokens.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <utility>

using namespace clang;

namespace metacu {

namespace {

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
  /// \p Compare: whether this pass compares the macros' definitions with
  /// the other passes' (the preprocessing passes; a parse defines what its
  /// pass's preprocessing did).
  /// \p Prelude: where a build of the prelude's precompiled header writes
  /// what its text does to the facts (PreludePch.h). \p Record: where a
  /// device pass notes what __CUDA_ARCH__'s value did (ArchFlow.h).
  PassCallbacks(SourceManager &SM, Preprocessor &PP, Facts &F, unsigned Pass,
                bool Compare, std::string *Prelude = nullptr,
                ArchRecord *Record = nullptr)
      : SM(SM), PP(PP), F(F), Pass(Pass), Compare(Compare), Prelude(Prelude),
        Record(Record) {}

  /// Whether the pass records what __CUDA_ARCH__'s value did: none once
  /// the record is unsafe, which no pass is copied from.
  bool recording() const { return Record && !Record->Unsafe; }

  /// Writes what the pass read of the facts into the record, by name.
  void finishRecord() {
    if (!Record)
      return;
    for (const IdentifierInfo *II : NotDerivedIds)
      Record->NotDerived.insert(II->getName());
    for (const IdentifierInfo *II : NotAliasIds)
      Record->NotAliases.insert(II->getName());
    for (auto [II, Space] : SpacesReadIds)
      Record->SpacesRead.try_emplace(II->getName(), Space);
  }

  /// Whether nothing read so far is left for what comes next: no
  /// conditional open, no condition's findings pending.
  bool settled() const { return Stack.empty() && Pending.empty(); }

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

  void InclusionDirective(SourceLocation Hash, const clang::Token &, StringRef,
                          bool, CharSourceRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (auto K = key(Hash))
      F.Includes.insert(*K);
  }

  void MacroDefined(const clang::Token &Name,
                    const MacroDirective *MD) override {
    llvm::StringRef N = Name.getIdentifierInfo()->getName();
    const MacroInfo *MI = MD->getMacroInfo();
    bool Operators = false;
    llvm::SmallVector<const IdentifierInfo *, 16> BodyIds;
    llvm::SmallVector<llvm::StringRef, 16> Body;
    std::vector<unsigned> ValueTokens;
    std::optional<FileKey> At = key(Name.getLocation());
    if (Prelude)
      *Prelude += "D " + N.str();
    for (const clang::Token &T : MI->tokens()) {
      Operators |= T.isOneOf(tok::hash, tok::hashhash, tok::hashat);
      const IdentifierInfo *II = T.getIdentifierInfo();
      if (!II)
        continue;
      llvm::StringRef TN = II->getName();
      noteNamed(II);
      if (Prelude)
        *Prelude += " " + TN.str();
      if (TN == "__CUDA_ARCH__")
        if (auto K = key(T.getLocation()))
          ValueTokens.push_back(K->second);
      BodyIds.push_back(II);
      Body.push_back(TN);
    }
    if (Prelude)
      *Prelude += "\n";
    if (recording())
      notePassDefinition(Name.getIdentifierInfo(), MI);
    if (recording())
      for (const IdentifierInfo *II : BodyIds)
        if (SpacesReadIds.try_emplace(II, F.Spaces.lookup(II->getName()))
                .second &&
            !F.Aliases.contains(II->getName()))
          NotAliasIds.insert(II);
    std::optional<std::string> Via = noteMacroDefined(
        F, N, Body, [&](size_t I) { return derivedAt(BodyIds[I], At); });
    VisitAt.reset();
    if (At)
      noteDefinedUnder(Name.getIdentifierInfo(), MI);
    // A parse reads a macro that spells '#pragma' as nvcc does; the facts
    // above are of the definition as written.
    if (!Compare)
      if (MacroInfo *AsNvcc = asPragmaOperator(PP, *MI)) {
        if (auto Under = DefinedUnder.find(MI); Under != DefinedUnder.end())
          DefinedUnder[AsNvcc] = Under->second;
        PP.appendDefMacroDirective(Name.getIdentifierInfo(), AsNvcc,
                                   MI->getDefinitionLoc());
      }
    const std::optional<FileKey> &K = At;
    if (!K)
      return;
    F.Defines.insert(*K);
    if (N == "__CUDA_ARCH__")
      F.Others.insert({*K, {SiteKind::Redefinition, ""}});
    else if (Via) {
      OtherSite Alias{SiteKind::MacroAlias, *Via};
      Alias.Name = N.str();
      if (Via->empty() && !Operators)
        Alias.ValueTokens = std::move(ValueTokens);
      // The body's names that reach the architecture.
      std::set<std::string> Through;
      for (size_t I = 0; I < Body.size(); ++I)
        if (Body[I] == "__CUDA_ARCH__" || derivedAt(BodyIds[I], At))
          Through.insert(Body[I].str());
      Alias.Through = Through;
      // Each pass may find other names of the body derived.
      auto [It, New] = F.Others.insert({*K, std::move(Alias)});
      if (!New)
        It->second.Through.insert(Through.begin(), Through.end());
    }
  }

  void MacroUndefined(const clang::Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    if (recording())
      notePassDefinition(Name.getIdentifierInfo(), nullptr);
    auto K = key(Name.getLocation());
    if (!K)
      return;
    F.Defines.insert(*K);
    if (Name.getIdentifierInfo()->getName() == "__CUDA_ARCH__")
      F.Others.insert({*K, {SiteKind::Redefinition, ""}});
  }

  void MacroExpands(const clang::Token &Name, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override {
    if (recording())
      followArchValue(Name, MD.getMacroInfo(), Range, Args);
    noteUse(Name.getIdentifierInfo(), /*IsValue=*/true, Range,
            Range.getBegin());
    for (unsigned A = 0; Args && A < Args->getNumMacroArguments(); ++A)
      for (const clang::Token *T = Args->getUnexpArgument(A);
           T->isNot(tok::eof); ++T)
        if (const IdentifierInfo *II = T->getIdentifierInfo()) {
          noteNamed(II);
          if (Prelude)
            *Prelude += "N " + II->getName().str() + "\n";
        }
    // Clang reads a function-like macro's arguments before it calls this:
    // a conditional directive among them is the last one it handled.
    if (!Args || !LastConditional)
      return;
    std::optional<FileKey> Begin = key(Range.getBegin());
    if (Begin && Begin->first == LastConditional->first &&
        Begin->second < LastConditional->second &&
        LastConditional->second < offset(Range.getEnd()))
      F.ArgumentLists.insert({*Begin,
                              {offset(Range.getEnd()),
                               Name.getIdentifierInfo()->getName().str()}});
  }

  void Defined(const clang::Token &Name, const MacroDefinition &,
               SourceRange Range) override {
    if (recording() && Tainted.count(Name.getIdentifierInfo()->getName()))
      ArchInCondition = true;
    noteUse(Name.getIdentifierInfo(), /*IsValue=*/false, Range,
            Name.getLocation());
  }

  void If(SourceLocation Loc, SourceRange Cond,
          ConditionValueKind Value) override {
    open(Loc, Value == CVK_True);
    scanCondition(Cond);
    noteArchCondition(Cond, Value, Loc);
  }

  void Ifdef(SourceLocation Loc, const clang::Token &Name,
             const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo(), false, {}, Name.getLocation());
    noteDefinedTest(Name.getIdentifierInfo());
    open(Loc, static_cast<bool>(MD));
  }

  void Ifndef(SourceLocation Loc, const clang::Token &Name,
              const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo(), false, {}, Name.getLocation());
    noteDefinedTest(Name.getIdentifierInfo());
    open(Loc, !MD);
  }

  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value,
            SourceLocation IfLoc) override {
    if (next(Loc, IfLoc, Value == CVK_True, false))
      scanCondition(Cond);
    noteArchCondition(Cond, Value);
  }

  void Elifdef(SourceLocation Loc, const clang::Token &Name,
               const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo(), false, {}, Name.getLocation());
    noteDefinedTest(Name.getIdentifierInfo());
    if (!Stack.empty() &&
        next(Loc, Stack.back().IfLoc, static_cast<bool>(MD), false))
      scanCondition({});
  }
  void Elifdef(SourceLocation Loc, SourceRange Cond,
               SourceLocation IfLoc) override {
    if (next(Loc, IfLoc, false, false))
      scanCondition(Cond, /*Definedness=*/true);
  }
  void Elifndef(SourceLocation Loc, const clang::Token &Name,
                const MacroDefinition &MD) override {
    noteUse(Name.getIdentifierInfo(), false, {}, Name.getLocation());
    noteDefinedTest(Name.getIdentifierInfo());
    if (!Stack.empty() && next(Loc, Stack.back().IfLoc, !MD, false))
      scanCondition({});
  }
  void Elifndef(SourceLocation Loc, SourceRange Cond,
                SourceLocation IfLoc) override {
    if (next(Loc, IfLoc, false, false))
      scanCondition(Cond, /*Definedness=*/true);
  }

  void Else(SourceLocation Loc, SourceLocation IfLoc) override {
    if (!Stack.empty() && Stack.back().IfLoc == IfLoc)
      next(Loc, IfLoc, !Stack.back().AnyTaken, true);
  }

  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    if (IfLoc == PassIf)
      PassIf = SourceLocation();
    LastConditional = key(Loc);
    if (Stack.empty() || Stack.back().IfLoc != IfLoc)
      return;
    Frame Fr = Stack.back();
    Stack.pop_back();
    if (!Fr.G)
      return;
    // Clang reports no '#else' it skips after a taken branch (an '#elif'
    // it does): the pass that skips it names it here, so that no pass
    // records the '#endif' in its place.
    unsigned Last = Fr.Branch;
    if (Fr.AnyTaken && Fr.G->Taken[Pass] != int(Fr.Branch))
      if (std::optional<unsigned> Else =
              skippedElse(IfLoc, Fr.G->Dirs[Fr.Branch], offset(Loc)))
        noteDirective(*Fr.G, ++Last, *Else, /*IsElse=*/true);
    noteDirective(*Fr.G, Last + 1, offset(Loc), /*IsElse=*/false);
    if (!Fr.AnyTaken)
      Fr.G->Taken[Pass] = NoBranch;
  }

private:
  struct Frame {
    Group *G;
    SourceLocation IfLoc;
    unsigned Branch;
    bool AnyTaken;
    /// The offset of the directive that opened the current branch.
    unsigned Dir = 0;
    /// The names the conditions of the directives up to the current one
    /// test: the branch is compiled by what they say.
    std::set<std::string> Tests;
    /// The names defined in the conditional so far: the '#ifndef X' of an
    /// include guard that defines X tests nothing the macros below depend
    /// on.
    std::set<std::string> Defines;
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

  /// Adds \p II to the names macros mention. Most names come again and
  /// again (a pass defines thousands of macros, a user file expands
  /// function-like macros on every line): the identifier tells a name
  /// added before without hashing its spelling.
  void noteNamed(const IdentifierInfo *II) {
    if (Named.insert(II).second)
      F.NamedInMacros.insert(II->getName());
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

  /// What identifies the definition of a macro across passes: where it is,
  /// by file identity and offset, or for a built-in or command-line one
  /// (whose place in the predefines buffer varies by pass) what it
  /// defines; 0 for no definition.
  uint64_t definitionId(const MacroInfo *MI) const {
    if (!MI)
      return 0;
    SourceLocation Loc = MI->getDefinitionLoc();
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc))) {
      llvm::sys::fs::UniqueID U = FE->getUniqueID();
      return llvm::hash_combine(U.getDevice(), U.getFile(),
                                SM.getFileOffset(Loc));
    }
    llvm::hash_code H =
        llvm::hash_combine(MI->getNumParams(), MI->isFunctionLike());
    for (const clang::Token &T : MI->tokens())
      H = llvm::hash_combine(H, T.getKind(), PP.getSpelling(T));
    return H;
  }

  /// Whether the macro \p II, as the preprocessor defines it now, at \p At
  /// in a user file, depends on __CUDA_ARCH__: it is a macro derived
  /// before (its body names __CUDA_ARCH__), or its definition here, or
  /// that of a macro its body names, differs from the one another pass
  /// had at the same place (defined under a conditional whose branch
  /// differs between passes, or in some passes only). A macro defined
  /// under a conditional that names __CUDA_ARCH__ but takes the same
  /// branch in every pass (the toolkit's '#if !defined(__CUDA_ARCH__) ||
  /// __CUDA_ARCH__ >= 350' around its headers, and so glibc's 'assert')
  /// expands the same everywhere: it is not derived.
  bool derivedAt(const IdentifierInfo *II, const std::optional<FileKey> &At) {
    Visited.clear();
    Asked.clear();
    // A header included twice gets there twice (a guard defined the
    // second time): each visit is compared with the same visit of the
    // other passes.
    if (At && At != VisitAt) {
      VisitAt = At;
      Visit = ++Visits[*At];
    }
    bool Derived = derivedFrom(II, At);
    // A later pass finding one of these derived would answer otherwise.
    if (recording() && !Derived)
      NotDerivedIds.insert(Asked.begin(), Asked.end());
    return Derived;
  }
  bool derivedFrom(const IdentifierInfo *II, const std::optional<FileKey> &At) {
    llvm::StringRef N = II->getName();
    if (N == "__CUDA_ARCH__" || F.Derived.contains(N))
      return true;
    Asked.push_back(II);
    if (!Compare || !At || !Visited.insert(II).second)
      return false;
    observe(II);
    const MacroInfo *MI = PP.getMacroInfo(II);
    auto [It, First] = F.DefinitionsAt.try_emplace(
        std::make_tuple(*At, N.str(), Visit), definitionId(MI));
    if (!First && It->second != definitionId(MI)) {
      F.Derived.insert(N);
      return true;
    }
    if (MI)
      for (const clang::Token &T : MI->tokens())
        if (const IdentifierInfo *Inner = T.getIdentifierInfo())
          if (derivedFrom(Inner, At))
            return true;
    return false;
  }

  /// A use of a macro name while evaluating a condition marks that
  /// condition; a use of __CUDA_ARCH__'s value in code is a site of its own.
  void noteUse(const IdentifierInfo *II, bool IsValue, SourceRange Range,
               SourceLocation Where) {
    llvm::StringRef N = II->getName();
    bool Arch = N == "__CUDA_ARCH__";
    bool InCondition = Range.isInvalid() || PP.isParsingIfOrElifDirective();
    // Only a condition's use of a derived macro counts.
    bool Derived = !Arch && InCondition && derivedAt(II, key(Where));
    if (isArchSpecific(N))
      Pending.ArchFeature = true;
    if (!Arch && !Derived)
      return;
    if (InCondition) {
      Pending.Mentions = true;
      Pending.ValueCompared |= Arch && IsValue;
      if (Derived)
        Pending.Via.insert(N.str());
      return;
    }
    if (!Arch || !IsValue)
      return;
    auto K = key(Range.getBegin());
    if (!K || inCondition(*K))
      return;
    OtherSite Use{SiteKind::ValueUse, ""};
    // Spelled in the code, the token itself can be rewritten; through a
    // macro, the site is where the outermost macro is used.
    Use.Direct = Range.getBegin().isFileID();
    if (!Use.Direct)
      Use.Via = Lexer::getSourceText(CharSourceRange::getTokenRange(
                                         SM.getExpansionLoc(Range.getBegin())),
                                     SM, PP.getLangOpts())
                    .str();
    for (auto It = Stack.rbegin(); It != Stack.rend() && !Use.Parent; ++It)
      if (It->G)
        Use.Parent = FileKey{It->G->File, It->G->Dirs.front()};
    F.Others.insert({*K, std::move(Use)});
  }

  /// Whether \p K is in the condition of an #if or #elif. Clang reports
  /// the expansions in a condition inside a macro's arguments only after
  /// the macro's own, when the directive is over: they are no value uses.
  bool inCondition(const FileKey &K) const {
    auto It = Conditions.upper_bound(K);
    if (It == Conditions.begin())
      return false;
    --It;
    return It->first.first == K.first && K.second <= It->second;
  }

  /// The host pass never expands __CUDA_ARCH__, so the condition's own
  /// tokens tell whether it names it; they also show literal comparisons,
  /// and the names it tests (noteTested()). \p Definedness: the condition
  /// is the name of a skipped '#elifdef' or '#elifndef'.
  void scanCondition(SourceRange Cond, bool Definedness = false) {
    if (Cond.isValid())
      if (std::optional<FileKey> K = key(Cond.getBegin()))
        Conditions[*K] = offset(Cond.getEnd());
    if (Stack.empty())
      return;
    Frame &Fr = Stack.back();
    // What the condition's tokens tell is recorded for a conditional of a
    // user file only: lexing a system header's conditions (most of a
    // pass's) again would find nothing to record.
    if (!Fr.G) {
      Pending = {};
      return;
    }
    if (Cond.isValid()) {
      // The range ends at the start of the condition's last token.
      CharSourceRange CR =
          CharSourceRange::getTokenRange(SM.getExpansionLoc(Cond.getBegin()),
                                         SM.getExpansionLoc(Cond.getEnd()));
      std::string Text = Lexer::getSourceText(CR, SM, PP.getLangOpts()).str();
      std::vector<metacu::Token> Toks = lexRaw(Text);
      std::vector<const IdentifierInfo *> Names;
      std::vector<FileKey> Places;
      std::optional<FileKey> Begin = key(Cond.getBegin());
      if (Definedness)
        Names.push_back(PP.getIdentifierInfo("defined"));
      for (const metacu::Token &T : Toks)
        if (T.isIdent()) {
          Names.push_back(PP.getIdentifierInfo(T.Text));
          if (Begin && !Definedness)
            Places.push_back({Begin->first, Begin->second + T.Offset});
        }
      Walked.clear();
      noteTested(Names, nullptr, Places);
      for (size_t I = 0; I < Toks.size(); ++I) {
        if (!Toks[I].isIdent())
          continue;
        llvm::StringRef N = Toks[I].Text;
        if (isArchSpecific(N))
          Pending.ArchFeature = true;
        bool IsArch = N == "__CUDA_ARCH__" || F.Aliases.contains(N);
        bool Derived = !IsArch && F.Derived.contains(N);
        if (recording() && !IsArch) {
          NotAliasIds.insert(PP.getIdentifierInfo(N));
          if (!Derived)
            NotDerivedIds.insert(PP.getIdentifierInfo(N));
        }
        if (!IsArch && !Derived)
          continue;
        Pending.Mentions = true;
        if (N != "__CUDA_ARCH__")
          Pending.Via.insert(N.str());
        bool AfterDefined = (I >= 1 && Toks[I - 1].isIdent("defined")) ||
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
    if (Fr.G) {
      Group &G = *Fr.G;
      G.Mentions |= Pending.Mentions;
      G.ValueCompared |= Pending.ValueCompared;
      G.ArchFeature |= Pending.ArchFeature;
      G.Via.insert(Pending.Via.begin(), Pending.Via.end());
      if (G.BadValue.empty())
        G.BadValue = Pending.BadValue;
      G.Tests[Fr.Dir].insert(Pending.Tests.begin(), Pending.Tests.end());
      G.Under.insert(Pending.Under.begin(), Pending.Under.end());
      Fr.Tests.insert(Pending.Tests.begin(), Pending.Tests.end());
    }
    Pending = {};
  }

  /// Adds the names that the condition whose identifiers are \p Names
  /// (in order) tests to Pending.Tests, as the preprocessor defines them
  /// now: the operand of 'defined'; a name no macro has (0 here, another
  /// value where a build defines it); a macro of the compiler, the command
  /// line or a system header, by its name; a macro of the user's files
  /// through what its body tests and what the conditionals around its
  /// definition do, so that a named constant (`#define
  /// GGML_CUDA_CC_VOLTA 700`) tests nothing and a value chosen per
  /// configuration (under `#ifdef GGML_USE_HIP`) tests that choice.
  /// \p Within: the macro whose body \p Names are (its parameters are its
  /// arguments, read where it is used). The preprocessor's callbacks
  /// report only what a pass evaluates, and no pass here evaluates the
  /// conditions of the other configurations' branches after the one it
  /// compiles: the condition's own identifiers are read instead.
  ///
  /// \p Places: where each of the condition's own names is. A name that
  /// is no macro here is noted as such there (derivedAt()): where another
  /// pass has a macro of that name there (`#if CLUSTER_ENABLED`, defined
  /// under `#if __CUDA_ARCH__ >= 900`), it is derived from __CUDA_ARCH__.
  /// A macro's use there is noted when the pass expands it.
  void noteTested(llvm::ArrayRef<const IdentifierInfo *> Names,
                  const MacroInfo *Within,
                  llvm::ArrayRef<FileKey> Places = {}) {
    for (size_t I = 0; I < Names.size(); ++I) {
      const IdentifierInfo *II = Names[I];
      if (Within && llvm::is_contained(Within->params(), II))
        continue;
      llvm::StringRef N = II->getName();
      if (N == "defined") {
        if (I + 1 < Names.size())
          noteDefinedTest(Names[++I]);
        continue;
      }
      if (N == "true" || N == "false")
        continue;
      observe(II);
      const MacroInfo *MI = PP.getMacroInfo(II);
      if (!MI && I < Places.size())
        derivedAt(II, Places[I]);
      if (!MI || MI->isBuiltinMacro() || !key(MI->getDefinitionLoc())) {
        Pending.Tests.insert(N.str());
        noteValue(N, MI);
        if (MI)
          F.DefinedTests.insert(N.str());
        continue;
      }
      if (!Walked.insert(II).second)
        continue;
      auto Under = DefinedUnder.find(MI);
      if (Under != DefinedUnder.end())
        Pending.Tests.insert(Under->second.begin(), Under->second.end());
      std::vector<const IdentifierInfo *> Body;
      for (const clang::Token &T : MI->tokens())
        if (const IdentifierInfo *Inner = T.getIdentifierInfo())
          Body.push_back(Inner);
      noteTested(Body, MI);
    }
  }

  /// Facts::TestedValues: \p Name, tested where this pass's macro of it
  /// is \p MI (none: null).
  void noteValue(llvm::StringRef Name, const MacroInfo *MI) {
    // The pass's own value: unless one pass without it cleared it, a pass
    // not run would not clear it (ArchFlow.h).
    if (recording() && Name == "__CUDA_ARCH__") {
      auto It = F.TestedValues.find(Name.str());
      if (It == F.TestedValues.end() || !It->second.empty())
        Record->Unsafe = true;
    }
    noteTestedValue(F, Name, decimalValue(MI));
  }

  /// The value of the object-like macro \p MI in decimal, where its body is
  /// one integer literal with no suffix; empty otherwise.
  std::string decimalValue(const MacroInfo *MI) const {
    std::string Decimal;
    uint64_t Value = 0;
    // A literal with a suffix says nothing a test could spell.
    if (MI && MI->isObjectLike() && MI->getNumTokens() == 1 &&
        MI->getReplacementToken(0).is(tok::numeric_constant) &&
        !llvm::StringRef(PP.getSpelling(MI->getReplacementToken(0)))
             .getAsInteger(0, Value))
      Decimal = std::to_string(Value);
    return Decimal;
  }

  /// A test of whether \p II is a macro ('defined', '#ifdef'): of \p II,
  /// and where it is a macro of a user file, of what the conditionals
  /// around its definition test (Group::Under).
  void noteDefinedTest(const IdentifierInfo *II) {
    observe(II);
    Pending.Tests.insert(II->getName().str());
    const MacroInfo *MI = PP.getMacroInfo(II);
    noteValue(II->getName(), MI);
    if (Prelude)
      *Prelude += "T " + II->getName().str() + " " + (MI ? "1" : "0") + " " +
                  decimalValue(MI) + "\n";
    if (!MI)
      return;
    F.DefinedTests.insert(II->getName().str());
    auto Under = DefinedUnder.find(MI);
    if (Under != DefinedUnder.end())
      Pending.Under.insert(Under->second.begin(), Under->second.end());
  }

  /// Remembers what the conditionals around the definition of \p II, a
  /// macro of a user file, test (those of its file and of the files that
  /// include it): they choose its value. But for the name of an include
  /// guard (`#ifndef X` / `#define X`), which the guarded macros do not
  /// depend on.
  void noteDefinedUnder(const IdentifierInfo *II, const MacroInfo *MI) {
    std::set<std::string> Under;
    for (Frame &Fr : Stack) {
      for (const std::string &N : Fr.Tests)
        if (N == II->getName() || !Fr.Defines.count(N))
          Under.insert(N);
      Fr.Defines.insert(II->getName().str());
    }
    if (!Under.empty())
      DefinedUnder[MI] = std::move(Under);
  }

  static bool isComparison(const metacu::Token &T) {
    return T.is(tok::less) || T.is(tok::lessequal) || T.is(tok::greater) ||
           T.is(tok::greaterequal) || T.is(tok::equalequal) ||
           T.is(tok::exclaimequal);
  }

  void open(SourceLocation Loc, bool Taken) {
    VisitAt.reset();
    std::optional<FileKey> K = key(Loc);
    LastConditional = K;
    Group *G = nullptr;
    if (K) {
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
    Stack.push_back({G, Loc, 0, Taken, offset(Loc)});
    // #ifdef/#ifndef have no condition range; their name was noted already.
    scanCondition(SourceRange());
  }

  bool next(SourceLocation Loc, SourceLocation IfLoc, bool Taken, bool IsElse) {
    VisitAt.reset();
    LastConditional = key(Loc);
    if (Stack.empty() || Stack.back().IfLoc != IfLoc)
      return false;
    Frame &Fr = Stack.back();
    ++Fr.Branch;
    Fr.Dir = offset(Loc);
    if (Fr.G)
      noteDirective(*Fr.G, Fr.Branch, offset(Loc), IsElse);
    if (Taken && !Fr.AnyTaken) {
      Fr.AnyTaken = true;
      if (Fr.G)
        Fr.G->Taken[Pass] = Fr.Branch;
    }
    return true;
  }

  /// Records the directive at \p Off as the \p Index th of \p G, unless a
  /// pass recorded it before. A pass that saw no '#else' there recorded the
  /// '#endif' in its place (it comes last): the '#else' goes before it.
  static void noteDirective(Group &G, unsigned Index, unsigned Off,
                            bool IsElse) {
    if (G.Dirs.size() == Index) {
      G.Dirs.push_back(Off);
      G.DirIsElse.push_back(IsElse);
    } else if (Index < G.Dirs.size() && G.Dirs[Index] > Off) {
      G.Dirs.insert(G.Dirs.begin() + Index, Off);
      G.DirIsElse.insert(G.DirIsElse.begin() + Index, IsElse);
    }
  }

  /// The offset of the name of the '#else' of the conditional opened at
  /// \p IfLoc between its directive at \p From and its '#endif' at \p To,
  /// if it has one there: Clang's lexer in raw mode over that text, counting
  /// the conditionals nested in it.
  std::optional<unsigned> skippedElse(SourceLocation IfLoc, unsigned From,
                                      unsigned To) const {
    FileID FID = SM.getFileID(SM.getExpansionLoc(IfLoc));
    llvm::StringRef Buf = SM.getBufferData(FID);
    if (To > Buf.size() || From >= To)
      return std::nullopt;
    // From the line after the directive at From.
    size_t Begin = Buf.find('\n', From);
    if (Begin == llvm::StringRef::npos || Begin >= To)
      return std::nullopt;
    // The lexer reads up to the buffer's terminating NUL: it gets the
    // whole rest of the file and stops at To.
    Lexer L(SM.getLocForStartOfFile(FID), PP.getLangOpts(), Buf.begin(),
            Buf.begin() + Begin, Buf.end());
    unsigned Depth = 0;
    clang::Token T;
    for (L.LexFromRawLexer(T);
         T.isNot(tok::eof) && SM.getFileOffset(T.getLocation()) < To;
         L.LexFromRawLexer(T)) {
      if (T.isNot(tok::hash) || !T.isAtStartOfLine())
        continue;
      L.LexFromRawLexer(T);
      if (T.isNot(tok::raw_identifier))
        continue;
      llvm::StringRef Name = T.getRawIdentifier();
      if (Name.starts_with("if"))
        ++Depth;
      else if (Name == "endif" && Depth)
        --Depth;
      else if (Name == "else" && !Depth)
        return SM.getFileOffset(T.getLocation());
    }
    return std::nullopt;
  }

  /// Follows __CUDA_ARCH__'s value (ArchFlow.h): into a condition, noted
  /// there (noteArchCondition()); into the code, where a preprocessing pass
  /// drops it; anywhere else the record cannot follow (another directive,
  /// a macro's arguments that it may paste or stringize), the record is
  /// unsafe.
  void followArchValue(const clang::Token &Name, const MacroInfo *MI,
                       SourceRange Range, const MacroArgs *Args) {
    bool InCondition = PP.isParsingIfOrElifDirective();
    if (InCondition && MI && !notePastedNames(MI, Args))
      Record->Unsafe = true;
    // The command line's definition of __CUDA_ARCH__, or one a conditional
    // on it chose (notePassDefinition()).
    if (isArch(Name.getIdentifierInfo()) && MI && !ArchMI &&
        !SM.getFileEntryRefForID(SM.getFileID(MI->getDefinitionLoc()))) {
      ArchMI = MI;
      notePassMacro(MI);
    }
    if (MI && PassMacros.count(MI)) {
      if (InCondition)
        ArchInCondition = true;
      else if (onDirectiveLine(Range.getBegin()))
        Record->Unsafe = true;
      return;
    }
    if (!Args || InCondition || PassValues.empty() || !MI || !pastes(MI))
      return;
    for (unsigned A = 0; A < Args->getNumMacroArguments(); ++A)
      for (const clang::Token *T = Args->getUnexpArgument(A);
           T->isNot(tok::eof); ++T)
        if (T->getLocation().isMacroID() &&
            PassValues.count(
                SM.getSpellingLoc(T->getLocation()).getRawEncoding()))
          Record->Unsafe = true;
  }

  /// A macro whose definition is the pass's own: its tokens are values
  /// that tell the pass apart. One holding a name would expand on.
  void notePassMacro(const MacroInfo *MI) {
    PassMacros.insert(MI);
    for (const clang::Token &T : MI->tokens()) {
      if (T.getIdentifierInfo())
        Record->Unsafe = true;
      PassValues.insert(T.getLocation().getRawEncoding());
    }
  }

  /// A definition (\p MI; null for an #undef) of \p II: inside a
  /// conditional whose branch is the pass's (noteArchCondition()), the
  /// pass's own; elsewhere the same in every pass.
  void notePassDefinition(const IdentifierInfo *II, const MacroInfo *MI) {
    if (PassIf.isValid()) {
      if (MI)
        notePassMacro(MI);
      return;
    }
    Tainted.erase(II->getName());
  }

  /// A read of what the pass defines \p II as, which the record cannot
  /// follow where that is the pass's own.
  void observe(const IdentifierInfo *II) {
    if (recording() && II && Tainted.count(II->getName()))
      Record->Unsafe = true;
  }

  /// Where the conditional whose #if is at \p IfLoc has an #else and both
  /// its branches do nothing but define the same names as literals
  /// (nv/target's `#if (_NV_TARGET___NV_IS_EXACTLY_SM_80)` `#define
  /// _NV_TARGET_BOOL___NV_IS_EXACTLY_SM_80 1` `#else` ... `0` `#endif`):
  /// its text on one line per directive, and the names. Defined in every
  /// pass, a name's every later use is an expansion or a 'defined'.
  std::optional<std::pair<std::string, std::vector<std::string>>>
  definesOnly(SourceLocation IfLoc) const {
    auto [FID, Off] = SM.getDecomposedLoc(SM.getExpansionLoc(IfLoc));
    llvm::StringRef Buf = SM.getBufferData(FID);
    size_t Begin = Buf.take_front(Off).rfind('\n');
    Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
    Lexer L(SM.getLocForStartOfFile(FID), PP.getLangOpts(), Buf.begin(),
            Buf.begin() + Begin, Buf.end());
    std::vector<std::string> Names;
    std::set<std::string> Branches[2];
    unsigned Branch = 0;
    clang::Token T;
    L.LexFromRawLexer(T);
    bool First = true;
    while (T.isNot(tok::eof)) {
      if (!T.is(tok::hash) || !T.isAtStartOfLine())
        return std::nullopt;
      L.LexFromRawLexer(T);
      if (T.isNot(tok::raw_identifier))
        return std::nullopt;
      llvm::StringRef D = T.getRawIdentifier();
      if (First ? D != "if" : D != "define" && D != "else" && D != "endif")
        return std::nullopt;
      if (D == "else" && Branch++)
        return std::nullopt;
      if (D == "endif") {
        if (!Branch || Branches[0] != Branches[1])
          return std::nullopt;
        size_t End = Buf.find('\n', SM.getFileOffset(T.getLocation()));
        std::string Text;
        for (char C :
             Buf.slice(Begin, End == llvm::StringRef::npos ? Buf.size() : End))
          Text += C;
        // One line per directive: the continuations go.
        std::string Joined;
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] == '\n')
            ++I, Joined += ' ';
          else if (Text[I] != '\r')
            Joined += Text[I];
        return std::make_pair(Joined, Names);
      }
      L.LexFromRawLexer(T);
      if (D == "define") {
        if (T.isNot(tok::raw_identifier) || T.isAtStartOfLine())
          return std::nullopt;
        if (Branches[Branch].insert(T.getRawIdentifier().str()).second &&
            !Branch)
          Names.push_back(T.getRawIdentifier().str());
        L.LexFromRawLexer(T);
        // Object-like, its body no names.
        if (T.is(tok::l_paren) && !T.hasLeadingSpace() && !T.isAtStartOfLine())
          return std::nullopt;
      }
      for (; T.isNot(tok::eof) && !T.isAtStartOfLine(); L.LexFromRawLexer(T))
        if (!First && T.is(tok::raw_identifier))
          return std::nullopt;
      First = false;
    }
    return std::nullopt;
  }

  /// Whether the function-like macro \p MI stringizes or pastes.
  bool pastes(const MacroInfo *MI) {
    auto [It, New] = Pasting.try_emplace(MI, false);
    if (New)
      It->second = MI->isFunctionLike() &&
                   llvm::any_of(MI->tokens(), [](const clang::Token &T) {
                     return T.isOneOf(tok::hash, tok::hashhash, tok::hashat);
                   });
    return It->second;
  }

  /// Whether \p Loc, expanded, is on the logical line of a directive, or
  /// of one that may be (a comment first).
  bool onDirectiveLine(SourceLocation Loc) const {
    auto [FID, Off] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
    llvm::StringRef Buf = SM.getBufferData(FID);
    size_t Start = std::min<size_t>(Off, Buf.size());
    for (;;) {
      size_t NL = Buf.take_front(Start).rfind('\n');
      if (NL == llvm::StringRef::npos) {
        Start = 0;
        break;
      }
      size_t End = NL;
      if (End && Buf[End - 1] == '\r')
        --End;
      if (!End || Buf[End - 1] != '\\') {
        Start = NL + 1;
        break;
      }
      Start = End - 1;
    }
    llvm::StringRef Line = Buf.drop_front(Start).ltrim(" \t\f\v");
    return Line.starts_with("#") || Line.starts_with("%:") ||
           Line.starts_with("/");
  }

  /// Records the condition of the #if or #elif just evaluated, if
  /// __CUDA_ARCH__'s value entered it: its text, the macros it reaches as
  /// they are defined here, its value.
  void noteArchCondition(SourceRange Cond, ConditionValueKind Value,
                         SourceLocation IfLoc = {}) {
    std::vector<std::string> PastedNames = std::exchange(Pasted, {});
    if (!Record || !ArchInCondition)
      return;
    ArchInCondition = false;
    if (Record->Unsafe)
      return;
    if (Value == CVK_NotEvaluated || Cond.isInvalid()) {
      Record->Unsafe = true;
      return;
    }
    ArchCondition C;
    C.Value = Value == CVK_True;
    // The range ends in the last token's expansion: a macro's ')' there.
    CharSourceRange CR = CharSourceRange::getTokenRange(
        SM.getExpansionRange(Cond.getBegin()).getBegin(),
        SM.getExpansionRange(Cond.getEnd()).getEnd());
    llvm::StringRef Raw = Lexer::getSourceText(CR, SM, PP.getLangOpts());
    // One line: the continuations go.
    for (size_t I = 0; I < Raw.size(); ++I) {
      if (Raw[I] == '\\' && Raw.substr(I + 1).starts_with("\n")) {
        C.Text += ' ';
        ++I;
      } else if (Raw[I] == '\\' && Raw.substr(I + 1).starts_with("\r\n")) {
        C.Text += ' ';
        I += 2;
      } else {
        C.Text += Raw[I];
      }
    }
    if (C.Text.empty()) {
      Record->Unsafe = true;
      return;
    }
    llvm::SmallPtrSet<const IdentifierInfo *, 16> Reached;
    for (const metacu::Token &T : lexRaw(C.Text))
      if (T.isIdent())
        if (const IdentifierInfo *II = findIdentifier(PP, T.Text))
          reachMacros(II, C, Reached);
    // The names its macros pasted, as they are here: the text does not
    // spell them. Pasting made each; one not made is not what was pasted.
    for (const std::string &N : PastedNames) {
      const IdentifierInfo *II = findIdentifier(PP, N);
      if (!II) {
        Record->Unsafe = true;
        return;
      }
      reachMacros(II, C, Reached);
    }
    // A conditional that only defines names as literals is evaluated
    // whole: the names it defines are the pass's from here on, and a later
    // condition reading them reads them there.
    if (IfLoc.isValid())
      if (auto Whole = definesOnly(IfLoc)) {
        C.Whole = std::move(Whole->first);
        for (const std::string &N : Whole->second) {
          C.Sets.push_back(N);
          Tainted.insert(N);
        }
        PassIf = IfLoc;
      }
    // A condition met before with the same text, value and macros answers
    // alike in every pass, unless a conditional evaluated whole came
    // between (the pass's own names may differ there): CCCL's headers
    // repeat theirs hundreds of times, each evaluated again per pass.
    if (!C.Whole.empty()) {
      Repeats.clear();
    } else {
      std::string Key = C.Text + (C.Value ? "\n1" : "\n0");
      for (const auto &[Name, Line] : C.Macros)
        Key += "\n" + Line;
      if (!Repeats.insert(Key).second)
        return;
    }
    Record->Conditions.push_back(std::move(C));
  }

  static bool isArch(const IdentifierInfo *II) {
    return II && II->getName() == "__CUDA_ARCH__";
  }

  /// Notes the names that the expansion of \p MI (with \p Args) in a
  /// condition pastes ('##'), for noteArchCondition() to reach: CCCL's
  /// `_CCCL_CUDA_COMPILER(NVCC)` pastes `_CCCL_CUDA_COMPILER_NVCC`, the
  /// same name in every pass. Where an operand is not a name or nothing
  /// (a number: __CUDA_ARCH__'s value, pasted through a macro that
  /// expanded it first), or the macro stringizes, the pasted name may be
  /// the pass's own: false.
  bool notePastedNames(const MacroInfo *MI, const MacroArgs *Args) {
    llvm::ArrayRef<clang::Token> Body = MI->tokens();
    if (!llvm::any_of(Body, [](const clang::Token &T) {
          return T.is(tok::hashhash);
        }))
      return true;
    for (const clang::Token &T : Body)
      if (T.is(tok::hashat) || (T.is(tok::hash) && MI->isFunctionLike()) ||
          (T.getIdentifierInfo() &&
           T.getIdentifierInfo()->getName() == "__VA_OPT__"))
        return false;
    // An operand's tokens: the body's, or a parameter's argument (its
    // first and last tokens are the ones pasted).
    auto Operand = [&](const clang::Token &T) -> llvm::ArrayRef<clang::Token> {
      const IdentifierInfo *II = T.getIdentifierInfo();
      int Param = II && MI->isFunctionLike() ? MI->getParameterNum(II) : -1;
      if (Param < 0 || !Args || unsigned(Param) >= Args->getNumMacroArguments())
        return T;
      const clang::Token *A = Args->getUnexpArgument(Param);
      return {A, Args->getArgLength(A)};
    };
    for (size_t I = 0; I + 1 < Body.size(); ++I) {
      if (Body[I + 1].isNot(tok::hashhash) ||
          (I > 0 && Body[I - 1].is(tok::hashhash)))
        continue;
      // The chain A ## B ## ... from here: each '##' joins the last token
      // so far with the first of the next operand; both must be names.
      std::string Name;
      for (size_t K = I;; K += 2) {
        llvm::ArrayRef<clang::Token> Ts = Operand(Body[K]);
        bool More = K + 1 < Body.size() && Body[K + 1].is(tok::hashhash);
        if (More && K + 2 >= Body.size())
          return false; // '##' last: an ill-formed macro
        for (size_t J = 0; J < Ts.size(); ++J) {
          const IdentifierInfo *II = Ts[J].getIdentifierInfo();
          bool Joined = (J == 0 && K > I) || (J + 1 == Ts.size() && More);
          if (Joined && !II)
            return false;
          if (J > 0 && !Name.empty())
            Pasted.push_back(std::exchange(Name, {}));
          if (II)
            Name += II->getName();
        }
        if (!More)
          break;
      }
      if (!Name.empty())
        Pasted.push_back(std::move(Name));
    }
    return true;
  }

  /// Adds to \p C the state of the name \p II and of the names its macro's
  /// body reaches (the names it pastes come from its expansion:
  /// notePastedNames()). A built-in macro may tell one place from another
  /// (__LINE__, __has_include), and a stringized value would be out of
  /// reach: the record is unsafe.
  void reachMacros(const IdentifierInfo *II, ArchCondition &C,
                   llvm::SmallPtrSetImpl<const IdentifierInfo *> &Reached) {
    // The pass's own names are as the conditionals before chose them.
    if (!Reached.insert(II).second || isArch(II) ||
        Tainted.count(II->getName()) || II->isCPlusPlusOperatorKeyword() ||
        II->getName() == "defined")
      return;
    llvm::StringRef N = II->getName();
    const MacroInfo *MI = PP.getMacroInfo(II);
    if (!MI) {
      if (II->getTokenID() == tok::identifier)
        C.Macros.push_back({N.str(), "#undef " + N.str()});
      return;
    }
    if (MI->isBuiltinMacro()) {
      // What the target and the language say, as in the pass.
      if (!N.starts_with("__has_") || N.starts_with("__has_include") ||
          N == "__has_embed")
        Record->Unsafe = true;
      return;
    }
    std::string Line = "#define " + N.str();
    if (MI->isFunctionLike()) {
      Line += "(";
      for (const IdentifierInfo *P : MI->params()) {
        if (P != MI->params().front())
          Line += ", ";
        Line += P->getName() == "__VA_ARGS__" ? "..." : P->getName().str();
      }
      if (MI->isGNUVarargs())
        Line += "...";
      Line += ")";
    }
    for (const clang::Token &T : MI->tokens()) {
      if (T.is(tok::hashat) || (T.is(tok::hash) && MI->isFunctionLike()))
        Record->Unsafe = true;
      Line += " " + PP.getSpelling(T);
    }
    C.Macros.push_back({N.str(), std::move(Line)});
    for (const clang::Token &T : MI->tokens())
      if (const IdentifierInfo *Inner = T.getIdentifierInfo())
        if (!llvm::is_contained(MI->params(), Inner))
          reachMacros(Inner, C, Reached);
  }

  struct PendingUse {
    bool Mentions = false;
    bool ValueCompared = false;
    bool ArchFeature = false;
    std::set<std::string> Via;
    std::string BadValue;
    /// The names the condition tests (noteTested()).
    std::set<std::string> Tests;
    /// What the conditionals around the definitions of the macros it
    /// tests with 'defined' test (Group::Under).
    std::set<std::string> Under;
    bool empty() const {
      return !Mentions && !ValueCompared && !ArchFeature && Via.empty() &&
             BadValue.empty() && Tests.empty() && Under.empty();
    }
  };

  SourceManager &SM;
  Preprocessor &PP;
  Facts &F;
  unsigned Pass;
  bool Compare;
  std::string *Prelude;
  ArchRecord *Record;
  /// The command line's __CUDA_ARCH__, once expanded.
  const MacroInfo *ArchMI = nullptr;
  /// The definitions that are the pass's own, their tokens' places, and
  /// the names that have one now.
  llvm::DenseSet<const MacroInfo *> PassMacros;
  llvm::DenseSet<unsigned> PassValues;
  /// By name: a conditional's names are noted before the pass lexes them.
  llvm::StringSet<> Tainted;
  /// The #if of the conditional whose branch defines the pass's own
  /// macros, while it lasts.
  SourceLocation PassIf;
  /// The condition being evaluated holds the pass's value.
  bool ArchInCondition = false;
  /// The names its macros pasted so far (notePastedNames()).
  std::vector<std::string> Pasted;
  /// The conditions recorded since the last one evaluated whole, by text,
  /// value and macros (noteArchCondition()).
  std::set<std::string> Repeats;
  llvm::DenseMap<const MacroInfo *, bool> Pasting;
  /// What the pass read of the facts (ArchRecord), by identifier: the
  /// names a query derivedAt() answered no to asked, the names a macro
  /// body held (Facts::Aliases, Facts::Spaces).
  llvm::SmallVector<const IdentifierInfo *, 8> Asked;
  llvm::DenseSet<const IdentifierInfo *> NotDerivedIds, NotAliasIds;
  llvm::DenseMap<const IdentifierInfo *, unsigned> SpacesReadIds;
  llvm::SmallPtrSet<const IdentifierInfo *, 16> Visited;
  /// The macros noteTested() has read the body of, for one condition.
  llvm::SmallPtrSet<const IdentifierInfo *, 16> Walked;
  /// What the conditionals around a user macro's definition test.
  llvm::DenseMap<const MacroInfo *, std::set<std::string>> DefinedUnder;
  /// The identifiers noteNamed() has added to F.NamedInMacros.
  llvm::DenseSet<const IdentifierInfo *> Named;
  /// The place of a user file derivedAt() last looked from, in which of
  /// this pass's visits to it; reset after each directive.
  std::optional<FileKey> VisitAt;
  unsigned Visit = 0;
  std::map<FileKey, unsigned> Visits;
  std::vector<Frame> Stack;
  PendingUse Pending;
  std::optional<FileKey> LastConditional;
  /// Per user file: where each #if or #elif condition begins and where its
  /// last token does.
  std::map<FileKey, unsigned> Conditions;
};

/// Lexes a pass's translation unit to its end, expanding macros only where
/// the facts can depend on it. The facts come from directives anywhere and
/// from the code of user files; a system header's code (the toolkit's,
/// CCCL's: most of a pass's tokens and of its time) is lexed with macros
/// expanded in its directives only, as Clang's dependency scanner does.
/// What a system header's code can still change is the macro table,
/// through a _Pragma (push_macro/pop_macro): a macro that can expand to
/// one is expanded there. A user file's token lexed right after a system
/// header, before the switch back, is expanded now. Most system headers
/// give no code tokens at all: their directives are replayed from the
/// run's scan of them (SystemHeaderDirectives.h).
class TokenDrain {
public:
  TokenDrain(Preprocessor &PP, SourceManager &SM)
      : PP(PP), SM(SM), Pragma(PP.getIdentifierInfo("_Pragma")),
        MsPragma(PP.getIdentifierInfo("__pragma")) {}

  void run() {
    PP.EnterMainSourceFile();
    clang::Token Tok;
    for (PP.Lex(Tok); Tok.isNot(tok::eof); PP.Lex(Tok))
      if (!SM.isInSystemHeader(SM.getExpansionLoc(Tok.getLocation())))
        userToken(Tok);
      else
        systemToken(Tok);
  }

private:
  void userToken(const clang::Token &Tok) {
    if (Expanding)
      return;
    expand(true);
    reenter(Tok);
  }

  void systemToken(const clang::Token &Tok) {
    // Until a macro's expansion is over, its tokens are lexed as it began.
    if (!PP.getCurrentLexer())
      return;
    if (Expanding) {
      expand(false);
      // Lexed while expanding: its macro, if any, has been expanded.
      return;
    }
    IdentifierInfo *II = Tok.getIdentifierInfo();
    if (!II || !mayPragma(II))
      return;
    expand(true);
    reenter(Tok);
  }

  void expand(bool On) {
    Expanding = On;
    if (On)
      PP.SetEnableMacroExpansion();
    else
      PP.SetMacroExpansionOnlyInDirectives();
  }

  /// Lexes \p Tok, an identifier lexed without expansion, again.
  void reenter(const clang::Token &Tok) {
    const IdentifierInfo *II = Tok.getIdentifierInfo();
    if (!II || !PP.isMacroDefined(II))
      return;
    auto Copy = std::make_unique<clang::Token[]>(1);
    Copy[0] = Tok;
    PP.EnterTokenStream(std::move(Copy), 1, /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }

  /// Whether the macro \p II names (or the operator) can produce a
  /// _Pragma that is not quiet (QuietPragmas.h), through the macros its
  /// body names as they are defined now.
  bool mayPragma(const IdentifierInfo *II) {
    Seen.clear();
    return mayPragmaFrom(II);
  }
  bool mayPragmaFrom(const IdentifierInfo *II) {
    if (II == Pragma || II == MsPragma)
      return true;
    const MacroInfo *MI = PP.getMacroInfo(II);
    if (!MI || !Seen.insert(II).second)
      return false;
    llvm::ArrayRef<clang::Token> Body = MI->tokens();
    for (size_t I = 0; I < Body.size(); ++I)
      if (const IdentifierInfo *Inner = Body[I].getIdentifierInfo())
        if (!(Inner == Pragma && isQuietPragmaOperator(Body, I, PP)) &&
            mayPragmaFrom(Inner))
          return true;
    return false;
  }

  Preprocessor &PP;
  SourceManager &SM;
  const IdentifierInfo *Pragma, *MsPragma;
  llvm::SmallPtrSet<const IdentifierInfo *, 16> Seen;
  bool Expanding = true;
};

class PassAction : public ASTFrontendAction {
public:
  /// \p PreludeNotes: for a parse that reads the prelude precompiled, what
  /// its text would have taught the callbacks (PreludePch.h).
  PassAction(Facts &F, unsigned Pass, SystemHeaderScans *Scans,
             bool &LostPragma, const std::string *PreludeNotes = nullptr,
             ArchRecord *Record = nullptr)
      : F(F), Pass(Pass), Scans(Scans), LostPragma(LostPragma),
        PreludeNotes(PreludeNotes), Record(Record) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    if (PreludeNotes)
      applyPreludeNotes(*PreludeNotes, F);
    Preprocessor &PP = CI.getPreprocessor();
    auto Callbacks = std::make_unique<PassCallbacks>(
        CI.getSourceManager(), PP, F, Pass,
        /*Compare=*/Scans != nullptr, /*Prelude=*/nullptr, Record);
    Watched = Callbacks.get();
    PP.addPPCallbacks(std::move(Callbacks));
    if (Scans) {
      Replay.emplace(CI.getSourceManager(), *Scans);
      PP.setDependencyDirectivesGetter(*Replay);
      PP.addPPCallbacks(Replay->definitionWatcher(PP));
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    if (Scans)
      return std::make_unique<ASTConsumer>();
    // The consumer says which bodies (ASTConsumer::shouldSkipFunctionBody).
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return createPlacementConsumer(CI, F, Pass);
  }

  /// A parse places conditionals in the code as written: it reads the
  /// translation unit as Clang reads a prefix (a precompiled header's
  /// text), without the implicit template instantiations at its end (a
  /// third of a parse of template-heavy code), whose declarations the walk
  /// of the written code never visits.
  TranslationUnitKind getTranslationUnitKind() override {
    return Scans ? TU_Complete : TU_Prefix;
  }

  void ExecuteAction() override {
    // Only the branch each pass takes is needed from most passes:
    // preprocessing alone is several times cheaper than a parse.
    if (!Scans)
      return ASTFrontendAction::ExecuteAction();
    CompilerInstance &CI = getCompilerInstance();
    TokenDrain(CI.getPreprocessor(), CI.getSourceManager()).run();
    LostPragma = Replay->mayHaveLostPragma(CI.getPreprocessor());
    Watched->finishRecord();
  }

private:
  Facts &F;
  unsigned Pass;
  /// Set for a pass that only preprocesses.
  SystemHeaderScans *Scans;
  bool &LostPragma;
  const std::string *PreludeNotes;
  ArchRecord *Record;
  PassCallbacks *Watched = nullptr;
  std::optional<SystemHeaderReplay> Replay;
};

/// Precompiles the prelude as the parse of a pass reads it: its function
/// bodies skipped, its macros as PassCallbacks leaves them (a '#pragma' a
/// macro spells made the _Pragma nvcc reads), what the callbacks learn
/// written down as notes (PreludePch.h).
class PreludeBuild : public GeneratePCHAction {
public:
  PreludeBuild(Facts &F, unsigned Pass, std::string &Notes,
               std::vector<std::string> &Spelled)
      : F(F), Pass(Pass), Notes(Notes), Spelled(Spelled) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    auto Callbacks =
        std::make_unique<PassCallbacks>(CI.getSourceManager(), PP, F, Pass,
                                        /*Compare=*/false, &Notes);
    Watched = Callbacks.get();
    PP.addPPCallbacks(std::move(Callbacks));
    PP.addPPCallbacks(std::make_unique<Includes>(Spelled, PP, Given));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

  void EndSourceFileAction() override {
    Settled = Watched && Watched->settled();
    HeaderSearch &HS =
        getCompilerInstance().getPreprocessor().getHeaderSearchInfo();
    // A unit's leading header (after cuda_runtime.h, the first the
    // command line includes) is included again by the unit's own line:
    // only its guard makes that read nothing, as the text read it once
    // (libstdc++'s <cstdlib> has none: its '#pragma GCC system_header'
    // comes before its #ifndef). And a user's header spelled <...> is not
    // for a prelude.
    Guarded = 0;
    for (size_t I = 1; I < Given.size(); ++I, ++Guarded)
      if (!Given[I].first || !Given[I].second ||
          !HS.isFileMultipleIncludeGuarded(*Given[I].first))
        break;
    GeneratePCHAction::EndSourceFileAction();
  }

  /// Whether the prelude left nothing open for the code after it.
  bool Settled = false;
  /// How many headers after cuda_runtime.h, from the first, are system
  /// headers with a guard.
  size_t Guarded = 0;

private:
  struct Includes : PPCallbacks {
    Includes(std::vector<std::string> &Spelled, Preprocessor &PP,
             std::vector<std::pair<OptionalFileEntryRef, bool>> &Given)
        : Spelled(Spelled), PP(PP), Given(Given) {}
    void InclusionDirective(SourceLocation Hash, const clang::Token &,
                            StringRef Name, bool, CharSourceRange,
                            OptionalFileEntryRef File, StringRef, StringRef,
                            const Module *, bool,
                            SrcMgr::CharacteristicKind Kind) override {
      Spelled.push_back(Name.str());
      if (PP.getSourceManager().getFileID(Hash) == PP.getPredefinesFileID())
        Given.push_back({File, SrcMgr::isSystem(Kind)});
    }
    std::vector<std::string> &Spelled;
    Preprocessor &PP;
    std::vector<std::pair<OptionalFileEntryRef, bool>> &Given;
  };
  /// The headers the command line includes (-include), in order, and
  /// whether each is a system header.
  std::vector<std::pair<OptionalFileEntryRef, bool>> Given;

  Facts &F;
  unsigned Pass;
  std::string &Notes;
  std::vector<std::string> &Spelled;
  PassCallbacks *Watched = nullptr;
};

/// Remembers the first error that stops the file: a fatal one (a missing
/// header) or one of the preprocessor's in the user's files (#error, an
/// unterminated #if, an #else after #else, an #include nested too deep),
/// which nvcc stops at too. The analysis of a file that does not
/// preprocess would be wrong, not just incomplete, and migrate must not
/// rewrite it. Errors of the parse, and the preprocessor's in the
/// toolkit's headers, are left out: they are Clang's, standing in for
/// nvcc's host compiler (host_config.h's #error for an unsupported Clang),
/// no verdict on what nvcc accepts.
///
/// The parser's errors in user files are kept in the facts
/// (Facts::ParseErrors), for placement: a branch that does not parse
/// stays as it is.
class StopRecorder : public DiagnosticConsumer {
public:
  StopRecorder(Facts &F, unsigned Pass) : F(F), Pass(Pass) {}

  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    if (L == DiagnosticsEngine::Error && isParser(Info))
      noteParseError(Info);
    if (Stop || !(L == DiagnosticsEngine::Fatal ||
                  (L == DiagnosticsEngine::Error && isPreprocessor(Info))))
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Text = Msg.str().str();
    // An #error under '#if __CUDA_ARCH__ < 800' stops only some passes.
    if (auditPasses()[Pass])
      Text += " (compiling for " + passName(Pass) + ")";
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      llvm::StringRef Option =
          P.isValid() ? optionBehindBuffer(P.getFilename()) : "";
      if (!Option.empty()) {
        Stop = llvm::createStringError(Text + " (" + Option.str() + ")");
        return;
      }
      if (P.isValid()) {
        LineCol At{P.getLine(), P.getColumn()};
        if (Info.getID() == diag::err_pp_unterminated_conditional)
          At = unterminatedCommentAt(Info, Text).value_or(At);
        Stop = llvm::make_error<SourceError>(P.getFilename(), At, std::nullopt,
                                             std::move(Text));
        return;
      }
    }
    Stop = llvm::createStringError(Text);
  }
  llvm::Error Stop = llvm::Error::success();

private:
  static bool isParser(const Diagnostic &Info) {
    return Info.getID() >= diag::DIAG_START_PARSE &&
           Info.getID() < diag::DIAG_START_AST && Info.hasSourceManager() &&
           Info.getLocation().isValid();
  }

  void noteParseError(const Diagnostic &Info) {
    SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
    if (SM.getFileCharacteristic(Loc) != SrcMgr::C_User)
      return;
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc));
    if (!FE)
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    F.ParseErrors.try_emplace(
        {Pass, FileKey{FE->getName().str(), SM.getFileOffset(Loc)}},
        std::to_string(SM.getExpansionLineNumber(Loc)) + ":" +
            std::to_string(SM.getExpansionColumnNumber(Loc)) + ": " +
            Msg.str().str());
  }

  /// An unterminated conditional whose skipped text holds a block comment
  /// never closed is reported at the comment, as nvcc's preprocessor
  /// reports it (the comment swallowed the #endif).
  static std::optional<LineCol> unterminatedCommentAt(const Diagnostic &Info,
                                                      std::string &Text) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
    FileID FID = SM.getFileID(Loc);
    std::optional<unsigned> C =
        unterminatedBlockComment(SM.getBufferData(FID), SM.getFileOffset(Loc));
    if (!C)
      return std::nullopt;
    Text = "unterminated /* comment" +
           Text.substr(std::min(Text.size(), Text.find(" (compiling for")));
    return LineCol{SM.getLineNumber(FID, *C), SM.getColumnNumber(FID, *C)};
  }

  static bool isPreprocessor(const Diagnostic &Info) {
    return Info.getID() >= diag::DIAG_START_LEX &&
           Info.getID() < diag::DIAG_START_PARSE && Info.hasSourceManager() &&
           Info.getLocation().isValid() &&
           !Info.getSourceManager().isInSystemHeader(Info.getLocation());
  }
  Facts &F;
  unsigned Pass;
};

/// Builds the precompiled prelude of pass \p Pass into \p Temp with the
/// command line \p BuildArgs (PreludePch.h); nothing if the prelude holds
/// a user file, stops (a missing header), leaves anything open or holds a
/// unit's leading header without a guard (\p Why: how many before it do).
std::optional<PchBuild> buildPrelude(llvm::ArrayRef<std::string> BuildArgs,
                                     llvm::StringRef Temp, unsigned Pass,
                                     PreludeRefusal &Why, size_t Extra) {
  std::vector<const char *> Argv;
  for (const std::string &A : BuildArgs)
    Argv.push_back(A.c_str());
  IgnoringDiagConsumer Ignore;
  DiagnosticOptions DiagOpts;
  CreateInvocationOptions CIOpts;
  CIOpts.Diags = CompilerInstance::createDiagnostics(
      *llvm::vfs::getRealFileSystem(), DiagOpts, &Ignore,
      /*ShouldOwnClient=*/false);
  std::shared_ptr<CompilerInvocation> Inv = createInvocation(Argv, CIOpts);
  if (!Inv)
    return std::nullopt;
  Inv->getFrontendOpts().OutputFile = Temp.str();
  Inv->getFrontendOpts().SkipFunctionBodies = true;
  CompilerInstance CI(std::move(Inv));
  Facts Scratch;
  StopRecorder Stop(Scratch, Pass);
  CI.createDiagnostics(&Stop, /*ShouldOwnClient=*/false);
  std::string Notes;
  std::vector<std::string> Spelled;
  PreludeBuild Build(Scratch, Pass, Notes, Spelled);
  CI.ExecuteAction(Build);
  bool Stopped = llvm::errorToBool(std::move(Stop.Stop));
  if (Build.Guarded < Extra) {
    Why.Usable = Build.Guarded;
    return std::nullopt;
  }
  // Only the empty main file is a user file.
  if (Stopped || !Build.Settled || !CI.hasSourceManager() ||
      Scratch.FileOrder.size() > 1 || !Scratch.Groups.empty() ||
      !Scratch.Others.empty() || !Scratch.Includes.empty() ||
      !Scratch.Defines.empty() || !Scratch.ParseErrors.empty())
    return std::nullopt;
  llvm::sort(Spelled);
  Spelled.erase(llvm::unique(Spelled), Spelled.end());
  std::vector<std::string> Inputs = filesRead(CI.getSourceManager());
  llvm::append_range(Inputs, shadowingPaths(BuildArgs, Spelled));
  return PchBuild{std::move(Inputs), std::move(Notes)};
}

} // namespace

/// The precompiled prelude a parse of pass \p Pass over \p Path (command
/// line \p Args) reads: with as many of the unit's leading system headers
/// as one may hold, else the toolkit's alone (PreludePch.h).
static std::optional<StoredPch> readPrelude(llvm::StringRef Path,
                                            llvm::ArrayRef<std::string> Args,
                                            unsigned Pass,
                                            llvm::StringRef CacheDir) {
  std::vector<std::string> Extra;
  if (auto Text = llvm::MemoryBuffer::getFile(Path))
    Extra = leadingSystemIncludes((*Text)->getBuffer());
  for (;;) {
    size_t Usable = 0;
    std::optional<StoredPch> Prelude = preludePch(
        CacheDir, Args, Extra,
        [&](llvm::ArrayRef<std::string> BuildArgs, llvm::StringRef Temp,
            PreludeRefusal &Why) {
          return buildPrelude(BuildArgs, Temp, Pass, Why, Extra.size());
        },
        Usable);
    if (Prelude || Extra.empty())
      return Prelude;
    Extra.resize(Usable);
  }
}

llvm::Error runPass(llvm::StringRef Path, const CudaToolkit &Toolkit,
                    const CompileFlags &Flags, unsigned Pass, bool Parse,
                    Facts &F, PassSources &Sources, llvm::StringRef CacheDir,
                    ArchRecord *Record) {
  std::vector<std::string> Args = clangCommandLine(
      Toolkit, Flags, {ClangMode::NvccPass, "", auditPasses()[Pass]}, Path);
  // Only a device pass that preprocesses records its value's way.
  if (Parse || !auditPasses()[Pass])
    Record = nullptr;
  std::optional<StoredPch> Prelude;
  if (Parse)
    Prelude = readPrelude(Path, Args, Pass, CacheDir);
  // A pass whose replay of a system header may have lost a _Pragma runs
  // again, from the facts before it, with that header lexed in full.
  for (;;) {
    std::optional<Facts> Before;
    if (!Parse || Prelude)
      Before = F;
    StopRecorder Stop(F, Pass);
    bool LostPragma = false;
    if (Record) {
      *Record = ArchRecord();
      Record->Pass = Pass;
      Record->Args = Args;
    }
    Sources.run(Prelude ? withPreludePch(Args, Prelude->Path) : Args,
                std::make_unique<PassAction>(
                    F, Pass, Parse ? nullptr : &SystemHeaderScans::shared(),
                    LostPragma, Prelude ? &Prelude->Notes : nullptr, Record),
                Stop, /*Own=*/Prelude.has_value());
    if (LostPragma) {
      llvm::consumeError(std::move(Stop.Stop));
      F = std::move(*Before);
      continue;
    }
    // A precompiled prelude Clang refused, or a file that stops: the parse
    // of the prelude as text has the last word.
    if (Stop.Stop && Prelude) {
      llvm::consumeError(std::move(Stop.Stop));
      F = std::move(*Before);
      Prelude.reset();
      continue;
    }
    if (Stop.Stop)
      return std::move(Stop.Stop);
    break;
  }
  if (F.FileOrder.empty())
    return llvm::make_error<SourceError>(Path.str(), LineCol{}, std::nullopt,
                                         "cannot read the file");
  F.Preprocessed |= uint64_t(1) << Pass;
  return llvm::Error::success();
}

} // namespace metacu
