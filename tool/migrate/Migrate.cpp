//===- Migrate.cpp --------------------------------------------------------===//
#include "migrate/Migrate.h"
#include "migrate/Classify.h"
#include "migrate/LineTable.h"
#include "migrate/Passes.h"
#include "support/Tokens.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

namespace metacu {

static llvm::StringRef leadingSpace(llvm::StringRef Line) {
  return Line.take_front(Line.find_first_not_of(" \t"));
}

/// The indentation for the 'if codegen' lines: the directive's own when it
/// is indented with the code, else that of the first branch's first line
/// of code (many projects keep every '#' in column 1).
static std::string indentFor(const LineTable &Lines, const Site &S) {
  const SiteDirective &First = S.Directives.front();
  llvm::StringRef Own = leadingSpace(Lines.text(Lines.lineOf(First.Begin)));
  if (!Own.empty())
    return Own.str();
  for (const SiteDirective &D : S.Directives) {
    if (!D.TakenBy)
      continue;
    // D.End starts the line after the directive, if there is one.
    unsigned From = D.End < Lines.end(Lines.size()) ? Lines.lineOf(D.End)
                                                    : Lines.size() + 1;
    for (unsigned L = From; L <= Lines.size(); ++L) {
      llvm::StringRef Line = Lines.text(L);
      llvm::StringRef Code = Line.ltrim(" \t");
      if (Code.starts_with("#"))
        break;
      if (!Code.empty())
        return leadingSpace(Line).str();
    }
    break;
  }
  return "";
}

/// The line that replaces directive \p D: \p Code, the directive's
/// comments, and the line break the directive's own line ends with.
static std::string lineWith(llvm::StringRef Indent, llvm::StringRef Code,
                            const SiteDirective &D, const LineTable &Lines) {
  std::string L = (Indent + Code).str();
  if (!D.Comment.empty())
    L += " " + D.Comment;
  L += Lines.lineBreak(Lines.lineOf(D.End - 1));
  return L;
}

/// The line breaks of the lines [\p Begin, \p End) touches: what is left of
/// text removed, so that __LINE__ below it keeps its value.
static std::string lineBreaksOf(const LineTable &Lines, unsigned Begin,
                                unsigned End) {
  std::string Breaks;
  for (unsigned L = Lines.lineOf(Begin); L < Lines.lineOf(End); ++L)
    Breaks += Lines.lineBreak(L);
  return Breaks;
}

/// The code that opens branch \p D of site \p S's 'if codegen' chain
/// (after an earlier branch if \p Opened), its part of the chain's
/// description added to \p Chain.
static std::string branchCode(const Site &S, const SiteDirective &D,
                              bool Opened, std::vector<std::string> &Chain) {
  if (D.IsElse) {
    Chain.push_back("else");
    return "} else {";
  }
  // The names a branch declares for the code below stay visible.
  std::string Head = S.Category == SiteCategory::LocalDeclaration && !Opened
                         ? "using if codegen ("
                         : "if codegen (";
  Chain.push_back(Head + D.Codegen + ")");
  return (Opened ? "} else " : "") + Head + D.Codegen + ") {";
}

/// `#line N` and the line break \p Break: the next line is line N.
static std::string numberNextLine(unsigned N, llvm::StringRef Break) {
  return "#line " + std::to_string(N) + Break.str();
}

/// The edits that put the statement after conditional \p S, which its
/// pragmas apply to (Site::StatementBegin), in each branch of its chain:
/// in place for the last, again at the end of each other (and in an
/// 'else' of its own where the conditional has no #else), `#line` giving
/// each copy and the lines after it their numbers as written. The #endif
/// leaves its comment.
static void holdStatement(const Site &S, llvm::StringRef Text,
                          const LineTable &Lines, std::vector<Edit> &Edits) {
  unsigned Line = Lines.lineOf(S.StatementBegin);
  std::string Break = Lines.lineBreak(Line).str();
  std::string Copy = numberNextLine(Line, Break) +
                     Text.slice(Lines.begin(Line), S.StatementEnd).str();
  const SiteDirective &End = S.Directives.back();
  Edits.push_back({End.Begin, End.End, lineWith("", "", End, Lines)});
  std::vector<size_t> Taken;
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I)
    if (S.Directives[I].TakenBy)
      Taken.push_back(I);
  for (size_t I : llvm::ArrayRef(Taken).drop_back()) {
    const SiteDirective &Next = S.Directives[I + 1];
    Edits.push_back({Next.Begin, Next.Begin,
                     Copy + Break + numberNextLine(Next.Line, Break)});
  }
  bool HasElse = S.Directives[Taken.back()].IsElse;
  Edits.push_back({S.StatementEnd, S.StatementEnd,
                   HasElse ? " }" : " } else {" + Break + Copy + " }"});
}

/// The edits that turn conditional \p S into an 'if codegen' chain, and
/// the chain in words. Directives kept for other builds (SiteDirective::
/// Kept) stay as they are around it, the first after the architecture's
/// branches becoming the '#if' of a conditional inside the chain's last
/// 'else'; where that takes a line more than the directive's (its '#else'
/// and the chain's opening, a brace closed before or after a directive),
/// the brace goes beside the code, so that every line stays where it was
/// (__LINE__ in asserts).
static std::string convertSite(const Site &S, llvm::StringRef Text,
                               const LineTable &Lines,
                               std::vector<Edit> &Edits) {
  std::string Indent = indentFor(Lines, S);
  std::vector<std::string> Chain;
  // Text put beside the branches' code, by offset.
  std::map<unsigned, std::string> Beside;
  bool Opened = false, KeptFirst = S.Directives.front().Kept;
  bool AnyKept = false;
  // The last branch of the chain that stays, while it is open.
  const SiteDirective *Last = nullptr;
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    const SiteDirective &D = S.Directives[I];
    if (D.Kept) {
      if (Opened) {
        // The architecture's branches before: the kept ones are their
        // 'else', and each closes it.
        Beside[Last->BodyEnd] += " } else {";
        Opened = false;
        if (!D.IsElse) {
          // '#elif' becomes '#if' ('#elifdef' '#ifdef').
          size_t Elif = Text.find("elif", D.Begin);
          Edits.push_back({static_cast<unsigned>(Elif),
                           static_cast<unsigned>(Elif) + 4, "if"});
        }
      }
      AnyKept = true;
      Chain.push_back("#" + llvm::StringRef(D.Text).ltrim("# \t").str() +
                      " (kept)");
      continue;
    }
    unsigned Next = S.Directives[I + 1].Begin;
    // The architecture's first directive after kept ones: their '#else'.
    bool ElseOfKept = I > 0 && S.Directives[I - 1].Kept;
    if (ElseOfKept) {
      Edits.push_back({D.Begin, D.End, lineWith("", "#else", D, Lines)});
      Chain.push_back("#else");
    }
    if (!D.TakenBy) {
      // Compiled for no supported architecture: the branch goes, with
      // its directive. Its line breaks stay, so that __LINE__ below it
      // (asserts, error messages) is what it was.
      unsigned From = ElseOfKept ? D.End : D.Begin;
      Edits.push_back({From, Next, lineBreaksOf(Lines, From, Next)});
      continue;
    }
    std::string Code = branchCode(S, D, Opened, Chain);
    if (ElseOfKept)
      Beside[D.BodyFirst] = Code + " ";
    else
      Edits.push_back({D.Begin, D.End, lineWith(Indent, Code, D, Lines)});
    Opened = true;
    Last = &D;
  }
  const SiteDirective &End = S.Directives.back();
  if (S.StatementEnd)
    holdStatement(S, Text, Lines, Edits);
  else if (!AnyKept)
    Edits.push_back({End.Begin, End.End, lineWith(Indent, "}", End, Lines)});
  else {
    // A chain in the kept '#else' ends before the #endif; the 'else' of a
    // chain before the kept directives ends after it, where every reading
    // of the preprocessor has the brace.
    if (Opened)
      Beside[Last->BodyEnd] += " }";
    if (!KeptFirst)
      Beside[End.BodyFirst] += "} ";
  }
  for (auto &[At, Code] : Beside)
    Edits.push_back({At, At, Code});
  return llvm::join(Chain, " / ");
}

/// The edits that put the 'if codegen' chain of conditional \p S (Site::
/// ThisBuild) before it, under `#if` S.ThisBuild, each branch the passes
/// compile written again in it, and make the conditional as written that
/// `#if`'s `#elif` (an '#ifdef X' becomes '#elif defined(X)'). The lines
/// this adds would move every line below, which asserts, `__LINE__`,
/// `-lineinfo` and `-G` read: `#line` directives give each branch's lines
/// in the chain, those of the conditional as written and those after the
/// `#endif` their numbers in the original, in every build.
static std::string guardSite(const Site &S, llvm::StringRef Text,
                             const LineTable &Lines, std::vector<Edit> &Edits) {
  std::string Indent = indentFor(Lines, S);
  const SiteDirective &First = S.Directives.front();
  std::string Break = Lines.lineBreak(Lines.lineOf(First.End - 1)).str();
  std::string DirIndent = leadingSpace(Lines.text(First.Line)).str();
  std::string Out = DirIndent + "#if " + S.ThisBuild + Break;
  std::vector<std::string> Chain{"#if " + S.ThisBuild};
  bool Opened = false;
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    const SiteDirective &D = S.Directives[I];
    if (!D.TakenBy)
      continue;
    std::string Code = branchCode(S, D, Opened, Chain);
    // The line of the branch's 'if codegen' is its directive's last.
    Out += numberNextLine(Lines.lineOf(D.End - 1), Break) + Indent + Code +
           Break + Text.slice(D.End, S.Directives[I + 1].Begin).str();
    Opened = true;
  }
  Out += Indent + "}" + Break;
  Chain.push_back("#elif as written");
  Edits.push_back({First.Begin, First.Begin, Out});
  llvm::StringRef Dir = llvm::StringRef(First.Text).ltrim("# \t");
  bool IfDef = Dir.consume_front("ifdef");
  bool IfNDef = !IfDef && Dir.consume_front("ifndef");
  if (IfDef || IfNDef) {
    std::string Test =
        (IfNDef ? "!defined(" : "defined(") + Dir.trim().str() + ")";
    Edits.push_back({First.Begin, First.End,
                     lineWith(DirIndent, "#elif " + Test, First, Lines)});
  } else {
    // '#if' (the first 'if' of its line) becomes '#elif'.
    unsigned Keyword = Text.find("if", First.Begin);
    Edits.push_back({Keyword, Keyword + 2, "elif"});
  }
  // Each branch of the conditional as written, which the other builds
  // reach with the chain's lines skipped and this build's counted, and the
  // code after the #endif, where nvcc's passes count on from the chain.
  for (const SiteDirective &D : S.Directives)
    if (D.End < Text.size())
      Edits.push_back(
          {D.End, D.End, numberNextLine(Lines.lineOf(D.End), Break)});
  return llvm::join(Chain, " / ");
}

/// The one branch of \p S that the passes of \p Assumed compile, if it
/// is one: every pass among them that reaches the conditional takes it.
static std::optional<size_t> liveBranch(const Site &S, uint64_t Assumed) {
  if (S.Kind != SiteKind::Conditional || S.Category == SiteCategory::Hazard ||
      S.ArchFeature)
    return std::nullopt;
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I)
    if (S.Directives[I].TakenBy & Assumed)
      return (S.Directives[I].TakenBy & Assumed) == (S.Reached & Assumed)
                 ? std::optional(I)
                 : std::nullopt;
  return std::nullopt;
}

/// The edits that leave branch \p Live of \p S alone in its place.
static void keepBranch(const Site &S, size_t Live, const LineTable &Lines,
                       std::vector<Edit> &Edits) {
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    const SiteDirective &D = S.Directives[I];
    unsigned End = I == Live ? D.End : S.Directives[I + 1].Begin;
    Edits.push_back({D.Begin, End, lineBreaksOf(Lines, D.Begin, End)});
  }
  const SiteDirective &EndIf = S.Directives.back();
  Edits.push_back(
      {EndIf.Begin, EndIf.End, lineBreaksOf(Lines, EndIf.Begin, EndIf.End)});
}

/// An edit per converted value use: each __CUDA_ARCH__ token at
/// \p Offsets becomes \p Value (token by token, so that the braces a
/// conversion puts beside a branch's code on the same line stay edits of
/// their own).
static void convertValues(llvm::StringRef Text,
                          llvm::ArrayRef<unsigned> Offsets,
                          llvm::StringRef Value, std::vector<Edit> &Edits) {
  const llvm::StringRef Arch = "__CUDA_ARCH__";
  for (unsigned Off : Offsets)
    // Not the token itself: no edit is better than a wrong one.
    if (Text.substr(Off).starts_with(Arch))
      Edits.push_back(
          {Off, Off + static_cast<unsigned>(Arch.size()), Value.str()});
}

/// \p Edits (ascending, not overlapping) with those inside the rewritten
/// conditionals of \p Sites that a C++ source's file holds (Site::
/// HostIncluder) made one edit per conditional, or per run of conditionals
/// that nest or touch: the host compiler reads that file without metacu,
/// so the rewritten text goes under `#ifdef __CUDACC__` (nvcc, which reads
/// it through metacu, defines it; g++ does not) and the text as written
/// under its `#else`. `#line` gives both their lines as written and the
/// lines after the `#endif` theirs. A C++ compiler never defines
/// __CUDA_ARCH__; the text as written, not its host branch alone, keeps
/// its reading of whatever else the conditions test (a host compiler's,
/// the platform's names).
static std::vector<Edit> keepForCxx(llvm::StringRef Text,
                                    const LineTable &Lines,
                                    llvm::ArrayRef<Site> Sites,
                                    std::vector<Edit> Edits) {
  std::vector<Range> Spans;
  for (const Site &S : Sites) {
    if (S.HostIncluder.empty() || S.Kind != SiteKind::Conditional)
      continue;
    // A chain with kept directives closes its braces beside the code,
    // after the #endif too: the span takes in that whole line.
    unsigned End = S.Directives.back().End;
    if (S.StatementEnd)
      End = Lines.end(Lines.lineOf(S.StatementEnd));
    for (const SiteDirective &D : S.Directives)
      for (unsigned Beside : {D.BodyFirst, D.BodyEnd})
        if (Beside >= End && Beside < Text.size())
          End = Lines.end(Lines.lineOf(Beside));
    Spans.push_back({S.Directives.front().Begin, End});
  }
  llvm::sort(Spans,
             [](const Range &A, const Range &B) { return A.Begin < B.Begin; });
  std::vector<Range> Merged;
  for (const Range &R : Spans) {
    if (!Merged.empty() && R.Begin <= Merged.back().End)
      Merged.back().End = std::max(Merged.back().End, R.End);
    else
      Merged.push_back(R);
  }
  std::vector<Edit> Out;
  size_t I = 0;
  for (const Range &R : Merged) {
    for (; I < Edits.size() && Edits[I].Begin < R.Begin; ++I)
      Out.push_back(std::move(Edits[I]));
    size_t J = I;
    while (J < Edits.size() && Edits[J].End <= R.End)
      ++J;
    if (J == I)
      continue;
    // The rewritten text of the span: its edits applied.
    std::string Rewritten =
        applyEdits(Text, R.Begin, R.End, llvm::ArrayRef(Edits).slice(I, J - I));
    I = J;
    unsigned First = Lines.lineOf(R.Begin);
    std::string Break = Lines.lineBreak(First).str();
    std::string Indent = leadingSpace(Lines.text(First)).str();
    llvm::StringRef AsWritten = Text.slice(R.Begin, R.End);
    // Each part ends its last line before the directive after it (a
    // brace put beside the code after the #endif ends none).
    auto Ended = [&](llvm::StringRef Part) {
      return Part.ends_with("\n") || Part.ends_with("\r") ? Part.str()
                                                          : Part.str() + Break;
    };
    std::string Wrapped = Indent + "#ifdef __CUDACC__" + Break +
                          numberNextLine(First, Break) + Ended(Rewritten) +
                          Indent + "#else" + Break +
                          numberNextLine(First, Break) + Ended(AsWritten) +
                          Indent + "#endif" + Break;
    if (R.End < Text.size())
      Wrapped += numberNextLine(Lines.lineOf(R.End), Break);
    Out.push_back({R.Begin, R.End, std::move(Wrapped)});
  }
  for (; I < Edits.size(); ++I)
    Out.push_back(std::move(Edits[I]));
  return Out;
}

Migration migrate(llvm::StringRef Path, llvm::StringRef Text,
                  llvm::ArrayRef<Site> Sites, std::optional<uint64_t> Assumed) {
  const llvm::StringRef Value = ArchValue;
  const LineTable Lines(Text);
  Migration M;
  std::vector<Edit> Edits;
  std::vector<unsigned> Values;
  for (const Site &S : Sites) {
    std::string Where = (Path + ":" + llvm::Twine(S.Line) + ": ").str();
    std::string Category = categoryName(S.Category).str();
    if (std::optional<size_t> Live =
            Assumed ? liveBranch(S, *Assumed) : std::nullopt) {
      keepBranch(S, *Live, Lines, Edits);
      ++M.Simplified;
      M.Report.push_back(
          Where + "simplified (" + Category + "): " + S.Text +
          " -> the branch at line " + std::to_string(S.Directives[*Live].Line) +
          ", the only one " + passNames(*Assumed) + " compile (--assume-arch)");
      continue;
    }
    if (S.Kind == SiteKind::MacroAlias && S.Category == SiteCategory::Value) {
      Values.insert(Values.end(), S.ValueOffsets.begin(),
                    S.ValueOffsets.end());
      M.Report.push_back(Where + "converted (" + Category + "): " + S.Text +
                         " -> __CUDA_ARCH__ is " + Value.str());
      continue;
    }
    if (S.Kind == SiteKind::MacroAlias && isConvertible(S.Category)) {
      M.Report.push_back(Where + "converted (" + Category + "): " + S.Text +
                         " -> as written: " + S.Reason);
      continue;
    }
    if (S.Kind == SiteKind::ValueUse && S.Category == SiteCategory::Value) {
      // Through a macro, the macro's definition changes.
      if (S.Via.empty())
        Values.push_back(S.Offset);
      M.Report.push_back(Where + "converted (" + Category + "): " + S.Text +
                         " -> __CUDA_ARCH__ is " + Value.str());
      continue;
    }
    if (S.Kind != SiteKind::Conditional || !isConvertible(S.Category)) {
      M.Report.push_back(Where + "left (" + Category + "): " + S.Text + ": " +
                         S.Reason);
      continue;
    }
    std::string Chain = S.ThisBuild.empty() ? convertSite(S, Text, Lines, Edits)
                                            : guardSite(S, Text, Lines, Edits);
    if (!S.HostIncluder.empty())
      Chain += " under #ifdef __CUDACC__, as written in its #else for C++ "
               "source '" +
               S.HostIncluder + "'";
    M.Report.push_back(Where + "converted (" + Category + "): " + S.Text +
                       " -> " + Chain);
  }
  llvm::sort(Values);
  convertValues(Text, Values, Value, Edits);
  // Text put at a place comes before a replacement that begins there; of
  // texts put at one place, in the order of their sites.
  llvm::stable_sort(Edits, [](const Edit &A, const Edit &B) {
    return std::make_pair(A.Begin, A.End) < std::make_pair(B.Begin, B.End);
  });
  // A dropped branch takes the conditionals nested in it along.
  for (Edit &E : Edits)
    if (M.Edits.empty() || E.Begin >= M.Edits.back().End)
      M.Edits.push_back(std::move(E));
  M.Edits = keepForCxx(Text, Lines, Sites, std::move(M.Edits));
  M.Text = applyEdits(Text, 0, Text.size(), M.Edits);
  return M;
}

} // namespace metacu
