//===- LineTable.cpp ------------------------------------------------------===//
#include "migrate/LineTable.h"

#include "clang/Basic/SourceManager.h"
#include <algorithm>

namespace metacu {

LineTable::LineTable(llvm::StringRef Text) : Text(Text) {
  clang::SourceManagerForFile Files("<text>", Text);
  clang::SourceManager &SM = Files.get();
  clang::FileID Main = SM.getMainFileID();
  unsigned Last = SM.getLineNumber(Main, Text.size());
  // Asking for a line number filled the file's line cache: its starts are
  // the table (a translateLineCol per line cost more than the reading).
  llvm::ArrayRef<unsigned> Lines = SM.getSLocEntry(Main)
                                       .getFile()
                                       .getContentCache()
                                       .SourceLineCache.getLines();
  Starts.assign(Lines.begin(),
                Lines.begin() + std::min<size_t>(Last, Lines.size()));
  if (Starts.size() > 1 && Starts.back() == Text.size())
    Starts.pop_back();
  // Clang's lexer skips the mark; an edit of line 1 must keep it.
  if (Text.starts_with("\xEF\xBB\xBF"))
    Starts.front() = 3;
}

unsigned LineTable::lineOf(unsigned Offset) const {
  return std::max<unsigned>(
      1,
      std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin());
}

unsigned LineTable::contentEnd(unsigned Line) const {
  unsigned B = begin(Line), E = end(Line);
  // Clang ends a line at LF, CR or CRLF: a CR before the end is the
  // first half of a CRLF, since a lone one would have ended the line.
  if (E > B && Text[E - 1] == '\n')
    --E;
  if (E > B && Text[E - 1] == '\r')
    --E;
  return E;
}

} // namespace metacu
