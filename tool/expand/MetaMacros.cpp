//===- MetaMacros.cpp -----------------------------------------------------===//
#include "expand/MetaMacros.h"
#include "expand/DialectHeaders.h"
#include "support/Diagnostic.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include <map>

namespace metacu {

using namespace clang;

unsigned ExpandedMacros::offsetBefore(unsigned Offset) const {
  // Uses are ascending: the shift is that of the uses before the offset.
  long Shift = 0;
  for (const MacroUse &U : Uses) {
    if (Offset < U.Expanded.Begin)
      break;
    if (U.Expanded.contains(Offset))
      return U.Written.Begin;
    Shift = long(U.Expanded.End) - long(U.Written.End);
  }
  return unsigned(long(Offset) - Shift);
}

const MacroUse *ExpandedMacros::useAt(unsigned Offset) const {
  for (const MacroUse &U : Uses)
    if (U.Expanded.contains(Offset))
      return &U;
  return nullptr;
}

namespace {

/// The #define directives of the tokens: the name's index and the end of
/// the directive's tokens.
struct RawDefine {
  unsigned Name, End;
};

std::vector<RawDefine> rawDefines(llvm::ArrayRef<metacu::Token> Toks) {
  std::vector<RawDefine> Out;
  for (unsigned I = 0; I + 2 < Toks.size(); ++I) {
    if (!Toks[I].is(tok::hash) || !Toks[I].InDirective ||
        !Toks[I].StartOfLine || !Toks[I + 1].isIdent("define") ||
        !Toks[I + 2].isIdent())
      continue;
    unsigned E = I + 3;
    while (E < Toks.size() && Toks[E].InDirective && !Toks[E].StartOfLine)
      ++E;
    Out.push_back({I + 2, E});
  }
  return Out;
}

/// Whether the tokens hold '@meta', '@(' or 'if codegen'. Another '@' is
/// no meta construct: a macro that holds one ('#define AT(x) @x') is
/// nvcc's, which accepts it unused, and '#ifdef AT' must still see it
/// defined. \p Spell may return a string it makes (Clang's spelling of a
/// token): each is held by value.
template <class Spelling> bool holdsMetaConstruct(unsigned N, Spelling Spell) {
  for (unsigned I = 0; I + 1 < N; ++I) {
    auto S = Spell(I);
    auto Next = Spell(I + 1);
    if ((S == "@" && (Next == "meta" || Next == "(")) ||
        (S == "if" && Next == "codegen"))
      return true;
  }
  return false;
}

} // namespace

bool mayDefineMetaMacros(const ScanResult &Scan,
                         const llvm::StringSet<> &MetaNames) {
  std::vector<RawDefine> Defines = rawDefines(Scan.Tokens);
  llvm::StringSet<> Meta;
  // A macro naming a meta macro is one: repeat until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const RawDefine &D : Defines) {
      llvm::StringRef Name = Scan.Tokens[D.Name].Text;
      if (Meta.contains(Name))
        continue;
      llvm::ArrayRef<metacu::Token> Body(&Scan.Tokens[D.Name + 1],
                                         D.End - D.Name - 1);
      bool IsMeta =
          holdsMetaConstruct(Body.size(),
                             [&](unsigned I) { return Body[I].Text; }) ||
          llvm::any_of(Body, [&](const metacu::Token &T) {
            return T.isIdent() &&
                   (MetaNames.contains(T.Text) || Meta.contains(T.Text));
          });
      if (IsMeta)
        Changed = Meta.insert(Name).second;
    }
  }
  return !Meta.empty();
}

namespace {

/// Finds the uses to expand while Clang's preprocessor reads the file.
class UseFinder : public PPCallbacks {
public:
  UseFinder(Preprocessor &PP, const ScanResult &Scan,
            const llvm::StringSet<> &MetaNames)
      : PP(PP), SM(PP.getSourceManager()), Scan(Scan), MetaNames(MetaNames) {}

  void MacroDefined(const clang::Token &Name,
                    const MacroDirective *MD) override {
    const MacroInfo *MI = MD->getMacroInfo();
    if (!inMainFile(MI->getDefinitionLoc()) || !holdsMetaConstruct(MI))
      return;
    // Blank the whole directive: from its line's start to the end of the
    // line of its last token.
    unsigned NameAt = offsetOf(MI->getDefinitionLoc());
    SourceLocation Last = MI->getDefinitionEndLoc();
    unsigned End = offsetOf(Last) +
                   clang::Lexer::MeasureTokenLength(Last, SM, PP.getLangOpts());
    Blanked.push_back({NameAt, End});
  }

  void MacroExpands(const clang::Token &Name, const MacroDefinition &MD,
                    SourceRange R, const MacroArgs *Args) override {
    const MacroInfo *MI = MD.getMacroInfo();
    // A use inside another macro's expansion is that macro's, which is a
    // meta macro itself then and expands first.
    if (!MI || !R.getBegin().isFileID() || !inMainFile(R.getBegin()))
      return;
    unsigned Begin = offsetOf(R.getBegin());
    // An argument of a use being expanded is expanded with it, in the
    // next round if it needs one.
    if (!Found.empty() && Begin < Found.back().End)
      return;
    // Uses in directives ('#if M(1)') are the preprocessor's business.
    unsigned Tok = Scan.tokenAt(Begin);
    if (Tok >= Scan.Tokens.size() || Scan.Tokens[Tok].InDirective)
      return;
    llvm::StringSet<> Seen;
    if (!isMeta(MI, Seen))
      return;
    SourceLocation Last = R.getEnd();
    unsigned End = offsetOf(Last) +
                   clang::Lexer::MeasureTokenLength(Last, SM, PP.getLangOpts());
    std::optional<unsigned> Definition;
    if (inMainFile(MI->getDefinitionLoc()))
      Definition = offsetOf(MI->getDefinitionLoc());
    Found.push_back({Begin, End, Name.getIdentifierInfo()->getName().str(),
                     Definition, expansion(MI, Args)});
    MoreRounds |= leavesMetaMacros(Name.getIdentifierInfo(), MI, Args);
  }

  struct Use {
    unsigned Begin, End;
    std::string Name;
    std::optional<unsigned> Definition;
    std::string Text;
  };
  std::vector<Use> Found;
  std::vector<Range> Blanked;
  /// Whether an expansion holds a use of a meta macro.
  bool MoreRounds = false;

private:
  bool inMainFile(SourceLocation L) const {
    return L.isFileID() && SM.isInMainFile(L);
  }
  unsigned offsetOf(SourceLocation L) const {
    return SM.getFileOffset(SM.getFileLoc(L));
  }

  bool holdsMetaConstruct(const MacroInfo *MI) const {
    llvm::ArrayRef<clang::Token> Body = MI->tokens();
    return metacu::holdsMetaConstruct(
        Body.size(), [&](unsigned I) { return spelling(Body[I]); });
  }

  /// A macro of the user's files with a meta construct in its body, or
  /// naming a meta name or a meta macro (as nvcc would find it here).
  bool isMeta(const MacroInfo *MI, llvm::StringSet<> &Seen) const {
    if (SM.isInSystemHeader(MI->getDefinitionLoc()))
      return false;
    if (holdsMetaConstruct(MI))
      return true;
    for (const clang::Token &T : MI->tokens()) {
      const IdentifierInfo *II = T.getIdentifierInfo();
      if (!II || MI->getParameterNum(II) >= 0)
        continue;
      if (MetaNames.contains(II->getName()) || namesMetaMacro(II, Seen))
        return true;
    }
    return false;
  }

  /// Whether \p II names a meta macro, as nvcc would find it here.
  bool namesMetaMacro(const IdentifierInfo *II, llvm::StringSet<> &Seen) const {
    const MacroInfo *MI = PP.getMacroInfo(II);
    return MI && Seen.insert(II->getName()).second && isMeta(MI, Seen);
  }

  /// Whether the expansion of \p Self (\p MI with \p Args) names a meta
  /// macro. \p Self itself does not count: the preprocessor does not
  /// expand a macro's name inside its own expansion.
  bool leavesMetaMacros(const IdentifierInfo *Self, const MacroInfo *MI,
                        const MacroArgs *Args) const {
    auto Names = [&](const clang::Token &T) {
      const IdentifierInfo *II = T.getIdentifierInfo();
      llvm::StringSet<> Seen{Self->getName()};
      return II && II != Self && namesMetaMacro(II, Seen);
    };
    for (const clang::Token &T : MI->tokens())
      if (!(T.getIdentifierInfo() &&
            MI->getParameterNum(T.getIdentifierInfo()) >= 0) &&
          Names(T))
        return true;
    for (unsigned P = 0; Args && P < MI->getNumParams(); ++P)
      for (const clang::Token *T = Args->getUnexpArgument(P);
           T->isNot(tok::eof); ++T)
        if (Names(*T))
          return true;
    return false;
  }

  std::string spelling(const clang::Token &T) const {
    return PP.getSpelling(T);
  }

  /// The tokens from \p First to the argument's end, spaced as written.
  std::string argumentText(const clang::Token *First) const {
    std::string Out;
    for (unsigned I = 0, N = MacroArgs::getArgLength(First); I < N; ++I) {
      if (I && (First[I].hasLeadingSpace() || First[I].isAtStartOfLine()))
        Out += ' ';
      Out += spelling(First[I]);
    }
    return Out;
  }

  /// Whether the texts \p A and \p B written together may lex otherwise
  /// than apart ('-' and '-1', 'x' and 'y', '1' and '.5').
  static bool mayMerge(llvm::StringRef A, llvm::StringRef B) {
    if (A.empty() || B.empty())
      return false;
    auto Word = [](char C) { return isAsciiIdentifierContinue(C); };
    char L = A.back(), R = B.front();
    return (Word(L) && Word(R)) || L == '.' || R == '.' ||
           (llvm::isPunct(L) && llvm::isPunct(R));
  }

  /// The body with each parameter replaced by its argument as written.
  std::string expansion(const MacroInfo *MI, const MacroArgs *Args) const {
    llvm::ArrayRef<clang::Token> Body = MI->tokens();
    std::string Out;
    bool Paste = false;
    // After an argument, the next token is spaced as needed only.
    bool AfterArgument = false;
    auto Append = [&](const std::string &S, bool Space) {
      if (AfterArgument)
        Space = Space || mayMerge(Out, S);
      if (!Out.empty() && !Paste && Space && Out.back() != ' ')
        Out += ' ';
      Out += S;
      Paste = false;
      AfterArgument = false;
    };
    auto Param = [&](const clang::Token &T) {
      const IdentifierInfo *II = T.getIdentifierInfo();
      return Args && II ? MI->getParameterNum(II) : -1;
    };
    for (size_t I = 0; I < Body.size(); ++I) {
      const clang::Token &T = Body[I];
      if (T.is(tok::hashhash)) {
        while (!Out.empty() && Out.back() == ' ')
          Out.pop_back();
        Paste = true;
        AfterArgument = false;
        continue;
      }
      if (T.is(tok::hash) && MI->isFunctionLike() && I + 1 < Body.size() &&
          Param(Body[I + 1]) >= 0) {
        clang::Token S = MacroArgs::StringifyArgument(
            Args->getUnexpArgument(Param(Body[I + 1])), PP, false,
            SourceLocation(), SourceLocation());
        Append(spelling(S), T.hasLeadingSpace());
        ++I;
        continue;
      }
      if (int P = Param(T); P >= 0) {
        // Spaced from its neighbours where they could merge.
        std::string Arg = argumentText(Args->getUnexpArgument(P));
        Append(Arg, T.hasLeadingSpace() || mayMerge(Out, Arg));
        AfterArgument = true;
        continue;
      }
      // Tokens of the body written together lex the same way again.
      Append(spelling(T), T.hasLeadingSpace());
    }
    while (!Out.empty() && Out.back() == ' ')
      Out.pop_back();
    return Out;
  }

  Preprocessor &PP;
  SourceManager &SM;
  const ScanResult &Scan;
  const llvm::StringSet<> &MetaNames;
};

class FindAction : public PreprocessOnlyAction {
public:
  /// What it finds goes to the caller's variables: ToolInvocation::run
  /// destroys the action.
  FindAction(const ScanResult &Scan, const llvm::StringSet<> &MetaNames,
             std::vector<UseFinder::Use> &Found, std::vector<Range> &Blanked,
             bool &MoreRounds, bool &Done)
      : Scan(Scan), MetaNames(MetaNames), Found(Found), Blanked(Blanked),
        MoreRounds(MoreRounds), Done(Done) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    auto F = std::make_unique<UseFinder>(CI.getPreprocessor(), Scan, MetaNames);
    Finder = F.get();
    CI.getPreprocessor().addPPCallbacks(std::move(F));
    return true;
  }
  void EndSourceFileAction() override {
    Found = std::move(Finder->Found);
    Blanked = std::move(Finder->Blanked);
    MoreRounds = Finder->MoreRounds;
    Done = true;
  }

private:
  const ScanResult &Scan;
  const llvm::StringSet<> &MetaNames;
  std::vector<UseFinder::Use> &Found;
  std::vector<Range> &Blanked;
  bool &MoreRounds;
  bool &Done;
  UseFinder *Finder = nullptr;
};

} // namespace

llvm::Expected<std::optional<ExpandedMacros>>
expandMetaMacros(const SourceFile &File, const ScanResult &Scan,
                 const llvm::StringSet<> &MetaNames,
                 const HostSliceOptions &Opts) {
  // The macros nvcc's host pass defines are those nvcc expands.
  std::vector<UseFinder::Use> Found;
  std::vector<Range> Blanked;
  bool MoreRounds = false, Done = false;
  preprocessAsNvccHostPass(File, Opts,
                           std::make_unique<FindAction>(Scan, MetaNames, Found,
                                                        Blanked, MoreRounds,
                                                        Done));
  if (!Done)
    return llvm::createStringError("cannot preprocess '%s' for its macros",
                                   File.path().str().c_str());
  if (Found.empty() && Blanked.empty())
    return std::nullopt;

  // A blanked #define is a use with nothing in its place: its lines stay,
  // empty.
  for (const Range &B : Blanked)
    Found.push_back({File.lineStart(B.Begin), File.lineEnd(B.End - 1), "",
                     std::nullopt, ""});
  llvm::sort(Found, [](const UseFinder::Use &A, const UseFinder::Use &B) {
    return A.Begin < B.Begin;
  });
  llvm::StringRef Text = File.text();
  std::string Out;
  std::vector<MacroUse> Uses;
  unsigned Copied = 0;
  for (const UseFinder::Use &F : Found) {
    Out += Text.slice(Copied, F.Begin);
    unsigned At = Out.size();
    Out += F.Text;
    Uses.push_back(
        {{F.Begin, F.End}, {At, unsigned(Out.size())}, F.Name, F.Definition});
    // The use's line breaks, after it: the lines below stay where they are.
    Out.append(llvm::count(Text.slice(F.Begin, F.End), '\n'), '\n');
    Copied = F.End;
  }
  Out += Text.substr(Copied);
  return ExpandedMacros{File.withText(std::move(Out)), std::move(Uses),
                        MoreRounds};
}

} // namespace metacu
