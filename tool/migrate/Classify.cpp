//===- Classify.cpp -------------------------------------------------------===//
#include "migrate/Classify.h"
#include "migrate/LexedFiles.h"
#include "migrate/LineTable.h"
#include "support/Tokens.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace metacu {

const char *const ArchValue = "((int)__nvvm_arch * 10)";
const char *const OutsideTree =
    "in a header outside the tree migrate is given: it rewrites only the "
    "files named or found under the directories named";

bool isSite(const Group &G) {
  std::set<int> Branches;
  for (int T : G.Taken)
    if (T != Unreached)
      Branches.insert(T);
  return G.Dirs.size() >= 2 && (G.Mentions || Branches.size() > 1);
}

/// The text of \p File as the passes read it.
static llvm::StringRef bufferOf(const Facts &F, llvm::StringRef File) {
  auto It = F.Buffers.find(File);
  return It == F.Buffers.end() ? llvm::StringRef() : It->second;
}

namespace {

struct DirectiveLine {
  unsigned Begin, End;
  std::string Text, Comment;
};

/// The directive's text without its line continuations (a backslash
/// before any of Clang's line breaks).
std::string joinContinuations(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\' && I + 1 < Text.size() &&
        (Text[I + 1] == '\n' || Text[I + 1] == '\r')) {
      I += Text.substr(I + 1).starts_with("\r\n") ? 2 : 1;
      continue;
    }
    Out += Text[I];
  }
  return Out;
}

/// The whole logical line of the directive whose name is at \p NameOffset:
/// continuation lines and block comments that start on it included.
DirectiveLine directiveLine(llvm::StringRef Buf, const LineTable &Lines,
                            unsigned NameOffset) {
  DirectiveLine D;
  D.Begin = Lines.begin(Lines.lineOf(NameOffset));
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
  // The line of the last token's last byte, its line break included.
  D.End = Lines.end(Lines.lineOf(End > D.Begin ? End - 1 : End));
  D.Text = joinContinuations(Buf.slice(CodeBegin, CodeEnd));
  D.Comment = llvm::join(Comments, " ");
  return D;
}

/// The branches the passes compile, summed up.
struct Branches {
  explicit Branches(const Group &G) : Host(G.Taken[0]) {
    for (unsigned P = 0; P < NumPasses; ++P) {
      if (G.Taken[P] == Unreached)
        continue;
      Reached |= uint64_t(1) << P;
      All.insert(G.Taken[P]);
      if (P != 0)
        Device.insert(G.Taken[P]);
    }
  }
  /// Every device pass compiles one branch, the host pass another.
  bool splitsHostFromDevice() const {
    return Device.size() == 1 && (Reached & 1) && Host != *Device.begin();
  }

  int Host;
  uint64_t Reached = 0;
  std::set<int> Device, All;
};

struct Verdict {
  SiteCategory Category;
  std::string Reason;
};

/// "the branch at line N" (no branch for NoBranch).
std::string branchAt(const Site &S, int Branch) {
  unsigned Line =
      Branch < 0 ? S.Directives.back().Line : S.Directives[Branch].Line;
  return "the branch at line " + std::to_string(Line);
}

/// A hazard or a constant: what the test of __CUDA_ARCH__ is wherever it
/// sits.
std::optional<Verdict> judgeTest(const Site &S, const Group &G,
                                 const Branches &B) {
  bool InHostOnly = inFunctionBody(G.Place) &&
                    !(G.Space & (DeviceSpace | GlobalSpace));
  if (!G.BadValue.empty())
    return Verdict{SiteCategory::Hazard,
                   "compares __CUDA_ARCH__ with " + G.BadValue +
                       ", which is not an architecture value (sm_75 is 750)"};
  if (InHostOnly)
    return Verdict{SiteCategory::Hazard,
                   "tests __CUDA_ARCH__ in host-only function '" + G.Function +
                       "': only the host pass compiles its body"};
  if (B.All.size() <= 1)
    return Verdict{SiteCategory::Constant,
                   B.All.empty() || *B.All.begin() < 0
                       ? "no pass compiles any branch"
                       : "every pass compiles " + branchAt(S, *B.All.begin())};
  return std::nullopt;
}

/// Why a directive of \p G is inside the arguments of a macro invocation,
/// if one is: 'if codegen' cannot stand there.
std::optional<std::string> insideArguments(const Group &G, const Facts &F,
                                           const LineTable &Lines) {
  for (auto It = F.ArgumentLists.lower_bound({G.File, 0});
       It != F.ArgumentLists.end() && It->first.first == G.File; ++It)
    for (unsigned Dir : G.Dirs)
      if (It->first.second < Dir && Dir < It->second.first)
        return "its directive at line " + std::to_string(Lines.lineOf(Dir)) +
               " is inside the arguments of macro '" + It->second.second +
               "' (line " + std::to_string(Lines.lineOf(It->first.second)) +
               "); 'if codegen' cannot stand inside a macro invocation";
  return std::nullopt;
}

/// Where each name is defined or undefined in the files the passes read:
/// the name's offset on its #define or #undef line.
std::map<std::string, std::vector<FileKey>> definitionLines(const Facts &F,
                                                            LexedFiles &Files) {
  std::map<std::string, std::vector<FileKey>> Lines;
  for (const auto &Buffer : F.Buffers) {
    const std::vector<Token> &T = Files.of(Buffer.getKey()).Tokens;
    for (size_t I = 0; I + 2 < T.size(); ++I)
      if (T[I].is(tok::hash) && T[I].StartOfLine &&
          (T[I + 1].isIdent("define") || T[I + 1].isIdent("undef")) &&
          T[I + 2].isIdent())
        Lines[T[I + 2].Text.str()].push_back(
            {Buffer.getKey().str(), T[I + 2].Offset});
  }
  return Lines;
}

/// Why an enclosing conditional of \p G keeps it from converting, if one
/// does: one that tests a macro defined per architecture (CUTLASS's `#if
/// !defined(CUTE_LOG)` around `#if !defined(__CUDA_ARCH__)` / `#define
/// CUTE_LOG ...`), though every pass takes the same branch there. expand
/// reads a conditional that tests a macro defined inside one that tests
/// the architecture as chosen per architecture, and refuses a meta
/// construct inside it.
std::optional<std::string> testsDerivedAround(const Group &G, const Facts &F) {
  for (std::optional<FileKey> At = G.Parent; At;) {
    auto It = F.Groups.find(*At);
    if (It == F.Groups.end())
      break;
    const Group &Around = It->second;
    // A site of its own becomes 'if codegen' or, where it stays, is the
    // innermost site classifyConditional() is given.
    if (Around.Mentions) {
      At = Around.Parent;
      continue;
    }
    for (const auto &[Dir, Names] : Around.Tests)
      for (const std::string &N : Names)
        if (F.DefinedUnderArch.contains(N))
          return "inside the conditional at " +
                 (Around.File == G.File
                      ? "line "
                      : llvm::sys::path::filename(Around.File).str() + ":") +
                 std::to_string(F.linesOf(Around.File).lineOf(Dir)) +
                 ", which tests '" + N +
                 "', a macro defined under a test of the architecture: "
                 "expand reads a meta construct there as chosen per "
                 "architecture";
    At = Around.Parent;
  }
  return std::nullopt;
}

/// Why a conditional whose branch depends on the architecture cannot
/// become 'if codegen', if it cannot.
std::optional<std::string> whyNotConvertible(const Group &G, const Facts &F,
                                             const LineTable &Lines,
                                             bool InTree, const Site *Parent,
                                             llvm::StringRef Outside) {
  if (!InTree)
    return Outside.str();
  if (std::optional<std::string> Macro = insideArguments(G, F, Lines))
    return *Macro;
  if (G.ArchFeature)
    return "tests arch-specific feature macros (sm_90a, sm_100f), which "
           "__nvvm_arch does not distinguish";
  switch (G.Place) {
  case Placement::Unknown:
    return "not found in the parsed code of the passes that compile it";
  case Placement::SplitsStatement:
    return "its directives split a statement or expression; 'if "
           "codegen' selects whole statements";
  case Placement::AfterMacroStatement:
  case Placement::DoesNotParse:
  case Placement::SplitsDeclaration:
    return G.PlaceDetail;
  case Placement::Statement:
  case Placement::Declarations:
  case Placement::Members:
  case Placement::ListEntries:
  case Placement::DeclaresNames:
  case Placement::PragmasBeforeStatement:
    break;
  }
  // A conditional every pass takes alike (constant) stays as written, and
  // expand accepts an 'if codegen' in the branch every pass keeps
  // (NvccPasses.h).
  if (Parent && !isConvertible(Parent->Category) &&
      Parent->Category != SiteCategory::Constant)
    return "inside the conditional at line " + std::to_string(Parent->Line) +
           ", which stays: metacu sees the file once, not once per "
           "architecture";
  return testsDerivedAround(G, F);
}

/// Whether \p Name is the architecture's: __CUDA_ARCH__ or a macro
/// derived from it.
bool isArchName(llvm::StringRef Name, const Group &G, const Facts &F) {
  return Name == "__CUDA_ARCH__" || F.Aliases.contains(Name) ||
         F.Derived.contains(Name) || G.Via.count(Name.str());
}

/// The first name the condition of the \p I th directive of \p G tests
/// that is not the architecture's: a host compiler's (_MSC_VER), the
/// platform's, the build's (GGML_USE_HIP).
std::optional<std::string> otherName(const Group &G, size_t I, const Facts &F) {
  auto It = G.Tests.find(G.Dirs[I]);
  if (It != G.Tests.end())
    for (const std::string &N : It->second)
      if (!isArchName(N, G, F))
        return N;
  return std::nullopt;
}

/// Whether the condition of the \p I th directive of \p G tests the
/// architecture.
bool testsArch(const Group &G, size_t I, const Facts &F) {
  auto It = G.Tests.find(G.Dirs[I]);
  return It != G.Tests.end() &&
         llvm::any_of(It->second, [&](const std::string &N) {
           return isArchName(N, G, F);
         });
}

/// The offset of the first conditional of \p File in [\p Begin, \p End)
/// that is a site (one the passes compile differently, or that tests the
/// architecture) or that expand reads as chosen per architecture (it tests
/// a macro defined under a test of it that some pass has: one no pass has,
/// ggml's VOLTA_MMA_AVAILABLE, reads alike in every pass, and a copy of
/// its conditional holds no meta construct), if there is one.
std::optional<unsigned> firstNestedSite(const Facts &F, const std::string &File,
                                        unsigned Begin, unsigned End) {
  for (auto It = F.Groups.lower_bound({File, Begin});
       It != F.Groups.end() && It->first.first == File &&
       It->first.second < End;
       ++It) {
    bool PerArch = isSite(It->second);
    for (const auto &[Dir, Names] : It->second.Tests)
      for (const std::string &N : Names)
        PerArch |= F.DefinedUnderArch.contains(N) && F.DefinedTests.count(N);
    if (PerArch)
      return It->first.second;
  }
  return std::nullopt;
}

/// A conditional whose conditions test another build's names (a host
/// compiler's, the platform's, the build's) and the architecture together
/// (`#if defined(AMD_MFMA_AVAILABLE) || defined(TURING_MMA_AVAILABLE)`):
/// its branches are the other build's choice as much as the
/// architecture's, and no part of the condition alone says which (a
/// derived macro may be defined under the other build's names too:
/// TURING_MMA_AVAILABLE under `!defined(GGML_USE_HIP)`). Where those names
/// have the values they have here, the passes' branches are the
/// architecture's choice, which 'if codegen' makes; elsewhere the
/// conditional chooses as it did: `#if K` 'if codegen' chain `#elif`
/// (the conditional as written) `#endif`, where K says the other names
/// are as here: `!defined(N)` for one no pass defines, `N == V` for one
/// every pass defines as the same integer V (`defined(N) && N == 0`; the
/// toolkit's version, `__CUDACC_VER_MAJOR__ == 13`: another toolkit reads the
/// conditional as written); one defined otherwise stays (its value has
/// no spelling). The branches come twice (`#line` directives keep every
/// line's number, Migrate.cpp): only where no branch holds __CUDA_ARCH__ or
/// a conditional that is a site itself (which migrate would rewrite in one
/// copy, or leave chosen per architecture inside the chain). Other
/// directives (`#pragma unroll`, a `#define`, a conditional every pass
/// takes alike) are written in both copies as they are: each pass reads
/// one copy, and so one of each.
/// Marks \p S, or returns why it cannot be done.
std::optional<std::string> guardThisBuild(Site &S, const Group &G,
                                          const Facts &F, LexedFiles &Files,
                                          size_t Mixed,
                                          const std::string &Name) {
  const Lexed &Toks = Files.of(G.File);
  const LineTable &Lines = F.linesOf(G.File);
  std::string Both = "its condition at line " +
                     std::to_string(S.Directives[Mixed].Line) + " tests '" +
                     Name + "' and the architecture together";
  std::set<std::string> Others(G.Under.begin(), G.Under.end());
  for (const auto &[Dir, Names] : G.Tests)
    Others.insert(Names.begin(), Names.end());
  // By name: the test that it is as here.
  std::map<std::string, std::string> AsHere;
  std::set<std::string> Seen;
  std::map<std::string, std::vector<FileKey>> Definitions;
  for (std::vector<std::string> Work(Others.begin(), Others.end());
       !Work.empty();) {
    std::string N = Work.back();
    Work.pop_back();
    if (!Seen.insert(N).second || isArchName(N, G, F))
      continue;
    // A macro no pass has, defined only under conditions on the
    // architecture and other names (ggml's AMD_MFMA_AVAILABLE under
    // `defined(GGML_USE_HIP) && defined(CDNA)`, VOLTA_MMA_AVAILABLE under
    // `__CUDA_ARCH__ == 700`): where those names are as here, the
    // architecture alone decides it, as the passes saw. The guard tests
    // them, not it, and expand reads no macro defined per architecture
    // there.
    if (F.DefinedUnderArch.contains(N) && !F.DefinedTests.count(N)) {
      if (Definitions.empty())
        Definitions = definitionLines(F, Files);
      const std::vector<FileKey> &At = Definitions[N];
      size_t Guarded = 0;
      bool Knob = false;
      std::vector<std::string> Under;
      for (const FileKey &Def : At) {
        bool Around = false;
        for (const auto &[K, Outer] : F.Groups)
          if (K.first == Def.first && Outer.Dirs.front() < Def.second &&
              Def.second < Outer.Dirs.back())
            for (const auto &[Dir, Names] : Outer.Tests) {
              Around |= !Names.empty();
              // '#if !defined(X)' '#define X': a build may define X itself
              // (CUTLASS's CUTLASS_ARCH_MMA_SM90_ENABLED).
              Knob |= Names.count(N) != 0;
              Under.insert(Under.end(), Names.begin(), Names.end());
            }
        Guarded += Around;
      }
      if (!At.empty() && Guarded == At.size() && !Knob) {
        Work.insert(Work.end(), Under.begin(), Under.end());
        continue;
      }
    }
    // CUTLASS's '#if !defined(X) && __CUDA_ARCH__ >= 900' / '#define X'.
    if (F.DefinedUnderArch.contains(N))
      return Both + ", and '" + N +
             "' is a macro defined under a test of the architecture: expand "
             "reads the #if of this build as chosen per architecture, and "
             "the 'if codegen' chain in it would not expand";
    if (!F.DefinedTests.count(N)) {
      AsHere[N] = "!defined(" + N + ")";
      continue;
    }
    // A version (the toolkit's) is as here where it has this value.
    auto Value = F.TestedValues.find(N);
    if (Value == F.TestedValues.end() || Value->second.empty())
      return Both + ", and '" + N +
             "' is a macro here with no one integer value in every pass: "
             "migrate keeps the other builds' choice under a test that "
             "their names are as here";
    // Zero is also what a name no macro has reads as.
    AsHere[N] = (Value->second == "0" ? "defined(" + N + ") && " : "") + N +
                " == " + Value->second;
  }
  size_t N = S.Directives.size() - 1;
  for (size_t I = 0; I < N; ++I) {
    unsigned Begin = S.Directives[I].End, End = S.Directives[I + 1].Begin;
    auto Holds = [&](llvm::StringRef What, unsigned At) {
      return Both + ", and its branch at line " +
             std::to_string(S.Directives[I].Line) + " holds " + What.str() +
             " (line " + std::to_string(Lines.lineOf(At)) +
             "): the 'if codegen' chain for this build would write the "
             "branch again, and migrate rewrites or keeps such a line in "
             "one place";
    };
    for (const metacu::Token &T : Toks.between(Begin, End))
      if (T.isIdent("__CUDA_ARCH__"))
        return Holds("__CUDA_ARCH__", T.Offset);
    if (std::optional<unsigned> Nested = firstNestedSite(F, G.File, Begin, End))
      return Holds("a conditional on the architecture", *Nested);
  }
  std::vector<std::string> Tests;
  for (const auto &[Each, Test] : AsHere)
    Tests.push_back(Test);
  S.ThisBuild = llvm::join(Tests, " && ");
  return std::nullopt;
}

/// The branch [\p Begin, \p End) of \p File: the offset of its first
/// token and the end of its last, where neither is on a preprocessor
/// directive line (where a brace beside them would be part of the
/// directive).
std::optional<std::pair<unsigned, unsigned>>
codeEnds(const Lexed &File, unsigned Begin, unsigned End) {
  llvm::ArrayRef<Token> Toks = File.between(Begin, End);
  if (Toks.empty() || Toks.front().InDirective || Toks.back().InDirective)
    return std::nullopt;
  return std::make_pair(Toks.front().Offset, Toks.back().end());
}

/// The offset of the first token of \p Buf from \p From, unless it is on
/// a preprocessor directive line or there is none.
std::optional<unsigned> codeAfter(llvm::StringRef Buf, unsigned From) {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  // The buffer ends in a NUL (a std::string's), as the lexer needs.
  Lexer L(SourceLocation::getFromRawEncoding(1), LO, Buf.data(),
          Buf.data() + From, Buf.data() + Buf.size());
  clang::Token T;
  L.LexFromRawLexer(T);
  if (T.is(tok::eof) || (T.is(tok::hash) && T.isAtStartOfLine()))
    return std::nullopt;
  return T.getLocation().getRawEncoding() - 1;
}

/// A branch is compiled where its condition holds and those before it do
/// not. Where a condition tests another name than the architecture's (a
/// host compiler's, the platform's, the build's: _MSC_VER, GGML_USE_HIP),
/// the branches from there on are another build's choice as much as the
/// architecture's, and 'if codegen' over this build's passes would keep
/// this build's choice alone (dropping the branches no pass compiles here,
/// which are another build's). Such directives are kept (SiteDirective::
/// Kept) as a preprocessor conditional around the 'if codegen' chain of
/// the others, which nvcc's passes evaluate as before: `#if
/// defined(GGML_USE_HIP)` A `#else` 'if codegen' B `#endif`, or after
/// the architecture's branches inside the chain's last 'else'. Returns
/// why that cannot be done, if it cannot; marks the directives and where
/// braces go otherwise. Only a branch whose condition and those before it
/// test the architecture alone is dropped where no pass compiles it: an
/// older or an AMD GPU's.
std::optional<std::string> keepOtherBuilds(Site &S, const Group &G,
                                           const Facts &F, llvm::StringRef Buf,
                                           LexedFiles &Files) {
  size_t N = S.Directives.size() - 1;
  auto Line = [&](size_t I) { return std::to_string(S.Directives[I].Line); };
  std::vector<bool> Kept(N);
  for (size_t I = 0; I < N; ++I) {
    if (S.Directives[I].IsElse) {
      Kept[I] = I > 0 && Kept[I - 1];
      continue;
    }
    std::optional<std::string> Name = otherName(G, I, F);
    if (!Name)
      continue;
    if (testsArch(G, I, F))
      return guardThisBuild(S, G, F, Files, I, *Name);
    Kept[I] = true;
  }
  if (llvm::none_of(Kept, [](bool K) { return K; }))
    return std::nullopt;
  const Lexed &Toks = Files.of(G.File);
  // A kept directive before the architecture's branches holds the 'if
  // codegen' chain in its conditional's later branch.
  for (size_t I = 0; I < N; ++I) {
    auto Tests = G.Tests.find(G.Dirs[I]);
    if (!Kept[I] || Tests == G.Tests.end() ||
        std::find(Kept.begin() + I + 1, Kept.end(), false) == Kept.end())
      continue;
    for (const std::string &Name : Tests->second)
      if (F.DefinedUnderArch.contains(Name))
        return "its condition at line " + Line(I) + " tests '" + Name +
               "', a macro defined under a test of the architecture: "
               "expand reads the conditional as chosen per architecture "
               "from there, and the 'if codegen' chain kept after it would "
               "not expand";
  }
  // The runs of kept and of the architecture's directives.
  std::vector<std::pair<size_t, size_t>> Runs;
  for (size_t I = 0; I < N; ++I)
    if (I == 0 || Kept[I] != Kept[I - 1])
      Runs.push_back({I, I + 1});
    else
      Runs.back().second = I + 1;
  // One conditional of kept directives, closed by the site's own #endif
  // (migrate adds no line): first, or after the architecture's branches.
  bool KeptFirst = Kept[0];
  if (Runs.size() > (KeptFirst ? 2u : 3u) || Runs.size() < 2)
    return "its branches of other builds (lines " + Line(Runs[0].first) +
           " and " + Line(Runs.back().first) +
           ") are apart or alone: keeping them would take more than one "
           "#if around 'if codegen', and migrate adds no line";
  for (size_t I = 0; I < N; ++I)
    if (Kept[I] && S.Directives[I].TakenBy &&
        std::find(Kept.begin() + I, Kept.end(), false) != Kept.end())
      return "the passes of " + passNames(S.Directives[I].TakenBy) +
             " compile the branch at line " + Line(I) +
             ", another build's choice: nothing says which of the "
             "architecture's branches after it they would compile";
  auto Ends = [&](size_t I) {
    return codeEnds(Toks, S.Directives[I].End, S.Directives[I + 1].Begin);
  };
  std::string BraceAt;
  auto NeedFirst = [&](size_t I) {
    if (auto E = Ends(I))
      S.Directives[I].BodyFirst = E->first;
    else if (BraceAt.empty())
      BraceAt = Line(I);
  };
  auto NeedEnd = [&](size_t I) {
    if (auto E = Ends(I))
      S.Directives[I].BodyEnd = E->second;
    else if (BraceAt.empty())
      BraceAt = Line(I);
  };
  for (auto [Begin, End] : Runs) {
    if (Kept[Begin]) {
      for (size_t I = Begin; I < End; ++I)
        S.Directives[I].Kept = true;
      continue;
    }
    std::vector<size_t> Live;
    for (size_t I = Begin; I < End; ++I)
      if (S.Directives[I].TakenBy)
        Live.push_back(I);
    if (Live.empty() || S.Directives[Live.front()].IsElse)
      return "the architecture's branches at line " + Line(Begin) +
             " have no 'if codegen' condition to open their chain: the "
             "passes here compile " +
             (Live.empty() ? std::string("none of them")
                           : "only the #else at line " + Line(Live.front()));
    // After kept directives, the '#else' takes the directive's line: the
    // chain opens beside the branch's code.
    if (Begin > 0 && Live.front() == Begin)
      NeedFirst(Begin);
    // Closed beside the code of its last live branch: before the kept
    // directives after it or the #endif.
    if (End < N || Begin > 0)
      NeedEnd(Live.back());
  }
  // Kept directives inside the chain's last 'else': the brace that closes
  // it comes after the #endif, where every reading of the preprocessor
  // (metacu's own included) has it.
  if (!KeptFirst) {
    SiteDirective &EndIf = S.Directives.back();
    if (std::optional<unsigned> Next = codeAfter(Buf, EndIf.End))
      EndIf.BodyFirst = *Next;
    else
      return "the #endif at line " + std::to_string(EndIf.Line) +
             " is followed by a preprocessor directive or nothing, where "
             "migrate would close the 'else' that keeps the branches of "
             "other builds as an #if (it keeps every line where it was)";
  }
  if (!BraceAt.empty())
    return "the branch at line " + BraceAt +
           " is empty or begins or ends with a preprocessor directive, where "
           "migrate would put a brace of the 'if codegen' chain that keeps "
           "the branches of other builds as an #if around it (it keeps "
           "every line where it was)";
  return std::nullopt;
}

/// Why the conditional \p G of pragmas before a statement (Placement::
/// PragmasBeforeStatement) cannot become a chain whose every branch holds
/// the statement, if it cannot; marks \p S with the statement otherwise.
/// The statement is written once per branch: only where it holds no
/// __CUDA_ARCH__ and no conditional that is a site, which migrate rewrites
/// or keeps in one place.
std::optional<std::string> pragmasBeforeStatement(Site &S, const Group &G,
                                                  const Facts &F,
                                                  LexedFiles &Files) {
  const Lexed &L = Files.of(G.File);
  const LineTable &Lines = F.linesOf(G.File);
  unsigned End = G.PlaceOffset;
  // Clang's extent of a statement that ends in an expression stops before
  // its ';'.
  llvm::ArrayRef<Token> After = L.between(End, L.Buffer.size());
  if (!After.empty() && After.front().is(tok::semi))
    End = After.front().end();
  for (const SiteDirective &D : S.Directives)
    if (D.Kept || !S.ThisBuild.empty())
      return "its pragmas apply to the statement after the #endif, and it "
             "tests another build's names too: migrate writes that "
             "statement in each branch of one 'if codegen' chain only";
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    llvm::ArrayRef<Token> Branch =
        L.between(S.Directives[I].End, S.Directives[I + 1].Begin);
    for (size_t J = 0; J < Branch.size(); ++J)
      if (!Branch[J].InDirective ||
          (Branch[J].StartOfLine &&
           (J + 1 == Branch.size() || !Branch[J + 1].isIdent("pragma"))))
        return "its branch at line " + std::to_string(S.Directives[I].Line) +
               " holds more than pragmas (line " +
               std::to_string(Lines.lineOf(Branch[J].Offset)) +
               ") before the statement they apply to";
  }
  llvm::ArrayRef<Token> Stmt = L.between(S.Directives.back().End, End);
  if (Stmt.empty())
    return "no statement follows its #endif in the text";
  for (const Token &T : Stmt)
    if (T.isIdent("__CUDA_ARCH__"))
      return "the statement its pragmas apply to holds __CUDA_ARCH__ (line " +
             std::to_string(Lines.lineOf(T.Offset)) +
             "): each branch would hold it, and migrate rewrites such a "
             "line in one place";
  if (std::optional<unsigned> Nested =
          firstNestedSite(F, G.File, Stmt.front().Offset, End))
    return "the statement its pragmas apply to holds a conditional on the "
           "architecture (line " +
           std::to_string(Lines.lineOf(*Nested)) +
           "): each branch would hold it, and migrate rewrites such a "
           "conditional in one place";
  S.StatementBegin = Stmt.front().Offset;
  S.StatementEnd = End;
  return std::nullopt;
}

/// Makes \p S convertible: the 'if codegen' condition of each branch.
/// Branches no pass compiles are dropped, and the reason says so.
void convert(Site &S, const Group &G, const Branches &B) {
  bool HD = (G.Space & HostSpace) && (G.Space & DeviceSpace) &&
            B.splitsHostFromDevice();
  if (G.Place == Placement::DeclaresNames) {
    S.Category = SiteCategory::LocalDeclaration;
    S.Reason = G.PlaceDetail;
  } else if (G.Place == Placement::ListEntries) {
    S.Category = SiteCategory::ListEntry;
    S.Reason = "chooses entries of the braced list of '" + G.Function + "'";
  } else if (G.Place == Placement::Declarations ||
             G.Place == Placement::Members) {
    S.Category = SiteCategory::Declaration;
    S.Reason = G.Place == Placement::Members
                   ? "chooses members of class '" + G.Function + "'"
                   : "chooses declarations at namespace scope";
  } else {
    S.Category = HD ? SiteCategory::HostDeviceSplit : SiteCategory::Statement;
    S.Reason = HD ? "host/device split in __host__ __device__ function '" +
                        G.Function + "'"
                  : "branch between statements of '" + G.Function + "'";
  }
  uint64_t Earlier = 0, Free = AllPasses & ~B.Reached;
  std::vector<unsigned> Dead;
  std::vector<unsigned> Kept;
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    SiteDirective &D = S.Directives[I];
    if (D.Kept) {
      if (!D.IsElse)
        Kept.push_back(D.Line);
      Earlier |= D.TakenBy;
      continue;
    }
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
                "dropped" +
                (S.ThisBuild.empty() ? "" : " from the 'if codegen' chain");
  if (!S.ThisBuild.empty())
    S.Reason += "; its conditions test other builds' names too: the 'if "
                "codegen' chain is for where they are as here (#if " +
                S.ThisBuild +
                "), the conditional as written stays in its "
                "#elif for the others";
  if (!Kept.empty()) {
    std::vector<std::string> Lines;
    for (unsigned L : Kept)
      Lines.push_back(std::to_string(L));
    bool One = Kept.size() == 1;
    S.Reason += std::string("; the condition") + (One ? "" : "s") +
                " of other builds at line" + (One ? " " : "s ") +
                llvm::join(Lines, ", ") + (One ? " stays" : " stay") +
                " an #if around the 'if codegen' chain";
  }
}

/// The first offset of \p Set inside \p G.
std::optional<unsigned> firstInside(const std::set<FileKey> &Set,
                                    const Group &G) {
  auto It = Set.lower_bound({G.File, G.Dirs.front()});
  if (It != Set.end() && It->first == G.File && It->second < G.Dirs.back())
    return It->second;
  return std::nullopt;
}

/// An #include in a branch must keep its preprocessor meaning, which an
/// 'if codegen' branch does not have: metacu reads the file once, and the
/// header it names is part of what it reads. A #define or #undef keeps
/// its meaning there: the branch becomes an #if for the passes that take
/// it, with the directive inside, so each pass defines what it defined.
void keepPreprocessorLines(Site &S, const Group &G, const Facts &F,
                           const LineTable &Lines) {
  if (!isConvertible(S.Category))
    return;
  if (std::optional<unsigned> Def = firstInside(F.Defines, G)) {
    // 'using if codegen' keeps its form; the defines ride along.
    if (S.Category != SiteCategory::LocalDeclaration &&
        S.Category != SiteCategory::ListEntry)
      S.Category = SiteCategory::MacroDefinition;
    S.Reason = "defines macros per architecture (line " +
               std::to_string(Lines.lineOf(*Def)) +
               "): the #define stays in the 'if codegen' branch, an #if of "
               "the architectures that take it";
  }
  if (std::optional<unsigned> Inc = firstInside(F.Includes, G))
    S.Reason =
        "gates the #include at line " + std::to_string(Lines.lineOf(*Inc));
  else
    return;
  S.Category = SiteCategory::NotConvertible;
  S.ThisBuild.clear();
  for (SiteDirective &D : S.Directives)
    D.Codegen.clear();
}

/// The site of \p G before classification: its directives as written and
/// the passes that take each branch.
Site conditionalSite(const Group &G, llvm::StringRef Buf,
                     const LineTable &Lines) {
  Site S;
  S.Kind = SiteKind::Conditional;
  S.Via.assign(G.Via.begin(), G.Via.end());
  for (size_t I = 0; I < G.Dirs.size(); ++I) {
    DirectiveLine DL = directiveLine(Buf, Lines, G.Dirs[I]);
    SiteDirective D;
    D.Begin = DL.Begin;
    D.End = DL.End;
    D.Line = Lines.lineOf(G.Dirs[I]);
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
  return S;
}

} // namespace

Site classifyConditional(const Group &G, const Facts &F, LexedFiles &Files,
                         bool InTree, const Site *Parent,
                         llvm::StringRef Outside) {
  llvm::StringRef Buf = bufferOf(F, G.File);
  const LineTable &Lines = F.linesOf(G.File);
  Site S = conditionalSite(G, Buf, Lines);
  S.ArchFeature = G.ArchFeature;
  Branches B(G);
  S.Reached = B.Reached;
  if (std::optional<Verdict> V = judgeTest(S, G, B)) {
    S.Category = V->Category;
    S.Reason = std::move(V->Reason);
  } else if (std::optional<std::string> Why =
                 whyNotConvertible(G, F, Lines, InTree, Parent, Outside)) {
    S.Category = SiteCategory::NotConvertible;
    S.Reason = std::move(*Why);
  } else if (std::optional<std::string> Why =
                 keepOtherBuilds(S, G, F, Buf, Files)) {
    S.Category = SiteCategory::NotConvertible;
    S.Reason = std::move(*Why);
  } else if (std::optional<std::string> Why =
                 G.Place == Placement::PragmasBeforeStatement
                     ? pragmasBeforeStatement(S, G, F, Files)
                     : std::nullopt) {
    S.Category = SiteCategory::NotConvertible;
    S.Reason = std::move(*Why);
  } else {
    convert(S, G, B);
  }
  keepPreprocessorLines(S, G, F, Lines);
  return S;
}

Site classifyOther(const FileKey &Where, const OtherSite &O, const Facts &F,
                   std::optional<std::string> Stays) {
  llvm::StringRef Buf = bufferOf(F, Where.first);
  unsigned Offset = Where.second;
  Site S;
  S.Kind = O.Kind;
  S.Offset = Offset;
  const LineTable &Lines = F.linesOf(Where.first);
  S.Line = S.EndLine = Lines.lineOf(Offset);
  S.Column = Offset - Lines.begin(S.Line) + 1;
  S.Text = Lines.text(S.Line).trim().str();
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
    if (!O.Direct)
      S.Reason = "uses __CUDA_ARCH__'s value through macro '" + O.Via +
                 "', whose definition is listed on its own";
    else if (Stays)
      S.Reason = std::move(*Stays);
    else {
      S.Category = SiteCategory::Value;
      S.Reason =
          "__CUDA_ARCH__'s value in code becomes " + std::string(ArchValue);
    }
    break;
  }
  return S;
}

llvm::StringSet<> definedUnderArch(const Facts &F) {
  // The macros each conditional's text defines, in either branch.
  std::map<FileKey, std::vector<std::string>> Defines;
  for (const auto &[Key, G] : F.Groups) {
    // A copy: the lexer needs the text to end in a NUL.
    std::string Block =
        bufferOf(F, G.File).slice(G.Dirs.front(), G.Dirs.back()).str();
    std::vector<Token> Toks = lexRaw(Block);
    for (size_t I = 0; I + 2 < Toks.size(); ++I)
      if (Toks[I].is(tok::hash) && Toks[I].StartOfLine &&
          Toks[I + 1].isIdent("define") && Toks[I + 2].isIdent())
        Defines[Key].push_back(Toks[I + 2].Text.str());
  }
  // A conditional that tests such a macro tests the architecture too, as
  // expand reads it (CUTLASS_ARCH_CREDUX_ENABLED, defined under a test of
  // CUTLASS_ARCH_MMA_SM100A_ENABLED, defined under one of
  // __CUDA_ARCH_FEAT_SM100_ALL): to a fixed point.
  llvm::StringSet<> Names;
  std::set<FileKey> Done;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const auto &[Key, Macros] : Defines) {
      const Group &G = F.Groups.at(Key);
      bool TestsArch = G.Mentions;
      for (const auto &[Dir, Tested] : G.Tests)
        for (const std::string &N : Tested)
          TestsArch |= Names.contains(N);
      if (!TestsArch || !Done.insert(Key).second)
        continue;
      for (const std::string &M : Macros)
        Grew |= Names.insert(M).second;
    }
  }
  return Names;
}

bool takesValueForm(const OtherSite &O, const Facts &F) {
  if (O.Kind != SiteKind::MacroAlias || O.ValueTokens.empty() ||
      F.NamedInMacros.contains(O.Name))
    return false;
  return llvm::none_of(
      F.Groups, [&](const auto &G) { return G.second.Via.count(O.Name) != 0; });
}

void convertThroughMacro(Site &S, const OtherSite &O) {
  S.Category = SiteCategory::Value;
  if (S.Kind == SiteKind::MacroAlias) {
    S.ValueOffsets = O.ValueTokens;
    S.Reason = "__CUDA_ARCH__'s value in the body of a macro used in code "
               "only becomes " +
               std::string(ArchValue);
  } else {
    S.Reason = "uses __CUDA_ARCH__'s value through macro '" + O.Via +
               "', whose definition takes the value form";
  }
}

namespace {

/// Whether \p At is inside a conditional of \p Sites that stays: one that
/// is neither converted nor the same in every pass.
bool insideStayingSite(const FileKey &At,
                       const std::map<FileKey, Site> &Sites) {
  for (auto It = Sites.lower_bound({At.first, 0});
       It != Sites.end() && It->first.first == At.first &&
       It->first.second < At.second;
       ++It) {
    const Site &S = It->second;
    if (S.Kind == SiteKind::Conditional && !isConvertible(S.Category) &&
        S.Category != SiteCategory::Constant &&
        S.Directives.front().Begin <= At.second &&
        At.second < S.Directives.back().End)
      return true;
  }
  return false;
}

} // namespace

llvm::StringSet<> settledMacros(const Facts &F, LexedFiles &Files,
                                const std::map<FileKey, Site> &Sites,
                                const llvm::StringSet<> &ValueMacros,
                                const llvm::StringSet<> &Aliases) {
  std::map<std::string, std::vector<FileKey>> Lines = definitionLines(F, Files);
  // The bodies that name derived macros, by the name they define.
  std::map<std::string, std::vector<const OtherSite *>> Bodies;
  for (const auto &[K, O] : F.Others)
    if (O.Kind == SiteKind::MacroAlias)
      Bodies[O.Name].push_back(&O);
  llvm::StringSet<> Settled;
  for (const auto &Name : ValueMacros)
    Settled.insert(Name.getKey());
  // To a fixed point: a body may name a macro another body settles.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const auto &[Name, At] : Lines) {
      if (Settled.contains(Name) || llvm::any_of(At, [&](const FileKey &K) {
            return insideStayingSite(K, Sites);
          }))
        continue;
      auto Body = Bodies.find(Name);
      if (Body != Bodies.end() &&
          (!Aliases.contains(Name) ||
           llvm::any_of(Body->second, [&](const OtherSite *O) {
             return llvm::any_of(O->Through, [&](const std::string &N) {
               return !Settled.contains(N);
             });
           })))
        continue;
      Grew |= Settled.insert(Name).second;
    }
  }
  return Settled;
}

void followSettledMacros(Site &S, const OtherSite &O,
                         const llvm::StringSet<> &Settled) {
  if (O.Kind != SiteKind::MacroAlias || O.Through.empty() ||
      !Settled.contains(O.Name))
    return;
  S.Category = SiteCategory::MacroDefinition;
  S.Reason = "derived from __CUDA_ARCH__ through '" +
             llvm::join(O.Through, "', '") +
             "' alone, which converted sites define per architecture: "
             "each pass expands its own definition, and this one stays as "
             "written";
}

} // namespace metacu
