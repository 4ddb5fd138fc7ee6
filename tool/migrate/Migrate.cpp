//===- Migrate.cpp --------------------------------------------------------===//
#include "migrate/Migrate.h"
#include "support/Output.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace metacu {

static llvm::StringRef leadingSpace(llvm::StringRef Line) {
  return Line.take_front(Line.find_first_not_of(" \t"));
}

/// The indentation for the 'if codegen' lines: the directive's own when it
/// is indented with the code, else that of the first branch's first line
/// of code (many projects keep every '#' in column 1).
static std::string indentFor(llvm::StringRef Text, const Site &S) {
  const SiteDirective &First = S.Directives.front();
  llvm::StringRef Own = leadingSpace(Text.slice(First.Begin, First.End));
  if (!Own.empty())
    return Own.str();
  for (const SiteDirective &D : S.Directives) {
    if (!D.TakenBy)
      continue;
    llvm::StringRef Rest = Text.slice(D.End, Text.size());
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      llvm::StringRef Code = Line.ltrim(" \t");
      if (Code.starts_with("#"))
        break;
      if (!Code.empty())
        return leadingSpace(Line).str();
      Rest = Tail;
    }
    break;
  }
  return "";
}

static std::string lineWith(llvm::StringRef Indent, llvm::StringRef Code,
                            const SiteDirective &D, llvm::StringRef Text) {
  std::string L = (Indent + Code).str();
  if (!D.Comment.empty())
    L += " " + D.Comment;
  if (Text.slice(D.Begin, D.End).ends_with("\n"))
    L += "\n";
  return L;
}

Migration migrate(llvm::StringRef Path, llvm::StringRef Text,
                  llvm::ArrayRef<Site> Sites) {
  Migration M;
  std::vector<Edit> Edits;
  for (const Site &S : Sites) {
    std::string Where = (Path + ":" + llvm::Twine(S.Line) + ": ").str();
    if (S.Kind != SiteKind::Conditional || !isConvertible(S.Category)) {
      M.Report.push_back(Where + "left (" + categoryName(S.Category).str() +
                         "): " + S.Text + ": " + S.Reason);
      continue;
    }
    std::string Indent = indentFor(Text, S);
    std::vector<std::string> Chain;
    bool Opened = false;
    for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
      const SiteDirective &D = S.Directives[I];
      if (!D.TakenBy) {
        // Compiled for no supported architecture: the branch goes, with
        // its directive.
        Edits.push_back({D.Begin, S.Directives[I + 1].Begin, ""});
        continue;
      }
      std::string Code;
      if (D.IsElse) {
        Code = "} else {";
        Chain.push_back("else");
      } else {
        Code = (Opened ? "} else if codegen (" : "if codegen (") + D.Codegen +
               ") {";
        Chain.push_back("if codegen (" + D.Codegen + ")");
      }
      Opened = true;
      Edits.push_back({D.Begin, D.End, lineWith(Indent, Code, D, Text)});
    }
    const SiteDirective &End = S.Directives.back();
    Edits.push_back({End.Begin, End.End, lineWith(Indent, "}", End, Text)});
    M.Report.push_back(Where + "converted (" + categoryName(S.Category).str() +
                       "): " + S.Text + " -> " + llvm::join(Chain, " / "));
  }
  llvm::sort(Edits, [](const Edit &A, const Edit &B) {
    return A.Begin < B.Begin;
  });
  // A dropped branch takes the conditionals nested in it along.
  for (Edit &E : Edits)
    if (M.Edits.empty() || E.Begin >= M.Edits.back().End)
      M.Edits.push_back(std::move(E));
  unsigned Pos = 0;
  for (const Edit &E : M.Edits) {
    M.Text += Text.slice(Pos, E.Begin);
    M.Text += E.Replacement;
    Pos = E.End;
  }
  M.Text += Text.substr(Pos);
  return M;
}

std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Old,
                        llvm::ArrayRef<Edit> Edits) {
  if (Edits.empty())
    return "";
  std::vector<unsigned> Starts{0};
  for (unsigned I = 0; I < Old.size(); ++I)
    if (Old[I] == '\n' && I + 1 < Old.size())
      Starts.push_back(I + 1);
  auto LineOf = [&](unsigned Off) -> unsigned {
    return std::upper_bound(Starts.begin(), Starts.end(), Off) -
           Starts.begin() - 1;
  };
  unsigned NumLines = Old.empty() ? 0 : Starts.size();
  auto LineText = [&](unsigned L) {
    unsigned E = L + 1 < Starts.size() ? Starts[L + 1] : Old.size();
    return Old.slice(Starts[L], E).rtrim('\n');
  };
  struct Change {
    unsigned Begin, End; // old lines [Begin, End)
    std::vector<llvm::StringRef> New;
  };
  std::vector<Change> Changes;
  for (const Edit &E : Edits) {
    Change C{LineOf(E.Begin), E.End >= Old.size() ? NumLines : LineOf(E.End),
             {}};
    llvm::StringRef R = E.Replacement;
    while (!R.empty()) {
      auto [L, Rest] = R.split('\n');
      C.New.push_back(L);
      R = Rest;
    }
    Changes.push_back(std::move(C));
  }
  const unsigned Context = 3;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "--- a/" << Path << "\n+++ b/" << Path << "\n";
  for (size_t I = 0; I < Changes.size();) {
    size_t J = I;
    while (J + 1 < Changes.size() &&
           Changes[J + 1].Begin <= Changes[J].End + 2 * Context)
      ++J;
    unsigned From = Changes[I].Begin > Context ? Changes[I].Begin - Context : 0;
    unsigned To = std::min(NumLines, Changes[J].End + Context);
    std::string Body;
    unsigned OldCount = 0, NewCount = 0, L = From;
    for (size_t K = I; K <= J; ++K) {
      for (; L < Changes[K].Begin; ++L, ++OldCount, ++NewCount)
        Body += (" " + LineText(L) + "\n").str();
      for (; L < Changes[K].End; ++L, ++OldCount)
        Body += ("-" + LineText(L) + "\n").str();
      for (llvm::StringRef N : Changes[K].New) {
        Body += ("+" + N + "\n").str();
        ++NewCount;
      }
    }
    for (; L < To; ++L, ++OldCount, ++NewCount)
      Body += (" " + LineText(L) + "\n").str();
    OS << "@@ -" << (OldCount ? From + 1 : From) << ',' << OldCount << " +"
       << (NewCount ? From + 1 : From) << ',' << NewCount << " @@\n"
       << Body;
    I = J + 1;
  }
  return Out;
}

} // namespace metacu
