//===- Diff.cpp -----------------------------------------------------------===//
#include "migrate/Diff.h"
#include "migrate/LineTable.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

namespace metacu {

namespace {

/// The lines of a text as Clang splits them (LineTable.h), numbered from 0.
class Lines {
public:
  explicit Lines(llvm::StringRef Text) : Table(Text), Empty(Text.empty()) {}
  unsigned size() const { return Empty ? 0 : Table.size(); }
  /// The line holding byte \p Offset.
  unsigned lineOf(unsigned Offset) const { return Table.lineOf(Offset) - 1; }
  /// The line an edit ending at byte \p End stops before.
  unsigned lineAt(unsigned End) const {
    return End >= Table.end(Table.size()) ? size() : lineOf(End);
  }
  llvm::StringRef operator[](unsigned L) const { return Table.text(L + 1); }
  /// The offset line \p L begins at (the text's end past the last line).
  unsigned offsetOf(unsigned L) const {
    return L < size() ? Table.begin(L + 1) : Table.end(Table.size());
  }

private:
  LineTable Table;
  bool Empty;
};

/// An edit in lines: old lines [Begin, End) become New.
struct Change {
  unsigned Begin, End;
  std::vector<std::string> New;
};

/// \p Edits as changes of the whole lines they touch, edits that share a
/// line (a brace put beside a branch's code, a value use) in one.
} // namespace

std::string applyEdits(llvm::StringRef Text, unsigned Begin, unsigned End,
                       llvm::ArrayRef<Edit> Edits) {
  std::string Out;
  unsigned Pos = Begin;
  for (const Edit &E : Edits) {
    Out += Text.slice(Pos, E.Begin);
    Out += E.Replacement;
    Pos = E.End;
  }
  Out += Text.slice(Pos, End);
  return Out;
}

namespace {

std::vector<Change> changesOf(llvm::StringRef OldText, const Lines &Old,
                              llvm::ArrayRef<Edit> Edits) {
  // The line after the last one edit E touches.
  auto EndLine = [&](const Edit &E) {
    return E.End > E.Begin ? Old.lineAt(E.End - 1) + 1
                           : Old.lineOf(E.Begin) + 1;
  };
  std::vector<Change> Changes;
  for (size_t I = 0; I < Edits.size();) {
    Change C{Old.lineOf(Edits[I].Begin), EndLine(Edits[I]), {}};
    size_t J = I + 1;
    for (; J < Edits.size() && Old.lineOf(Edits[J].Begin) < C.End; ++J)
      C.End = std::max(C.End, EndLine(Edits[J]));
    std::string New = applyEdits(OldText, Old.offsetOf(C.Begin),
                                 Old.offsetOf(C.End), Edits.slice(I, J - I));
    I = J;
    Lines NewLines(New);
    for (unsigned L = 0; L < NewLines.size(); ++L)
      C.New.push_back(NewLines[L].str());
    Changes.push_back(std::move(C));
  }
  return Changes;
}

constexpr unsigned Context = 3;

/// One hunk: Changes (close enough to share context) with the lines
/// around them.
void printHunk(llvm::raw_ostream &OS, const Lines &Old,
               llvm::ArrayRef<Change> Changes) {
  unsigned From =
      Changes.front().Begin > Context ? Changes.front().Begin - Context : 0;
  unsigned To = std::min(Old.size(), Changes.back().End + Context);
  std::string Body;
  unsigned OldCount = 0, NewCount = 0, L = From;
  for (const Change &C : Changes) {
    for (; L < C.Begin; ++L, ++OldCount, ++NewCount)
      Body += (" " + Old[L] + "\n").str();
    for (; L < C.End; ++L, ++OldCount)
      Body += ("-" + Old[L] + "\n").str();
    for (const std::string &N : C.New) {
      Body += "+" + N + "\n";
      ++NewCount;
    }
  }
  for (; L < To; ++L, ++OldCount, ++NewCount)
    Body += (" " + Old[L] + "\n").str();
  OS << "@@ -" << (OldCount ? From + 1 : From) << ',' << OldCount << " +"
     << (NewCount ? From + 1 : From) << ',' << NewCount << " @@\n"
     << Body;
}

} // namespace

std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Old,
                        llvm::ArrayRef<Edit> Edits) {
  if (Edits.empty())
    return "";
  Lines OldLines(Old);
  std::vector<Change> Changes = changesOf(Old, OldLines, Edits);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "--- a/" << Path << "\n+++ b/" << Path << "\n";
  for (size_t I = 0; I < Changes.size();) {
    size_t J = I;
    while (J + 1 < Changes.size() &&
           Changes[J + 1].Begin <= Changes[J].End + 2 * Context)
      ++J;
    printHunk(OS, OldLines, llvm::ArrayRef(Changes).slice(I, J - I + 1));
    I = J + 1;
  }
  return Out;
}

} // namespace metacu
