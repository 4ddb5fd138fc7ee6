//===- StartHeaders.cpp ---------------------------------------------------===//
#include "expand/StartHeaders.h"

#include "llvm/ADT/StringExtras.h"

namespace metacu {

namespace {

/// The directive \p Line names ("include", "ifdef", ...), if it is one.
llvm::StringRef directiveOf(llvm::StringRef Line) {
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("#"))
    return "";
  Line = Line.ltrim(" \t");
  return Line.take_while([](char C) { return C == '_' || llvm::isAlnum(C); });
}

} // namespace

size_t startHeadersEnd(llvm::StringRef Start) {
  size_t End = 0;
  unsigned OpenConditionals = 0;
  bool IncludePending = false;
  for (size_t B = 0; B < Start.size();) {
    // A logical line: a backslash before the newline joins the next.
    size_t E = B;
    do {
      size_t NL = Start.find('\n', E);
      E = NL == llvm::StringRef::npos ? Start.size() : NL + 1;
    } while (E < Start.size() && E >= 2 && Start[E - 2] == '\\');
    llvm::StringRef D = directiveOf(Start.slice(B, E));
    if (D == "include" || D == "include_next" || D == "import")
      IncludePending = true;
    else if (D == "if" || D == "ifdef" || D == "ifndef")
      ++OpenConditionals;
    else if (D == "endif" && OpenConditionals)
      --OpenConditionals;
    if (IncludePending && !OpenConditionals && Start[E - 1] == '\n') {
      End = E;
      IncludePending = false;
    }
    B = E;
  }
  return End;
}

} // namespace metacu
