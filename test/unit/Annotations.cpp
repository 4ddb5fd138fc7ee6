//===- Annotations.cpp - llvm::Annotations where LLVM ships no library ----===//
//
// The unit tests mark points and ranges in their inputs with
// llvm::Annotations (llvm/Testing/Annotations/Annotations.h). Debian's
// llvm-22-dev installs that header but not libLLVMTestingAnnotations, so
// when CMake finds no such library the tests build this implementation of
// the header's functions instead.
//
//===----------------------------------------------------------------------===//
#include "llvm/Testing/Annotations/Annotations.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using llvm::Annotations;
using llvm::StringRef;

/// A malformed annotation is a broken test, not a test failure.
static void check(bool Ok, const char *What, StringRef Text) {
  if (Ok)
    return;
  llvm::errs() << "bad annotated test input (" << What << "):\n"
               << Text << "\n";
  llvm::report_fatal_error("bad annotated test input");
}

Annotations::Annotations(StringRef Text) {
  StringRef Rest = Text;
  // The name and payload of the next point or range, once '$' gave them.
  StringRef Name, Payload;
  bool Named = false;
  std::vector<Annotation> Open;
  Code.reserve(Text.size());
  while (!Rest.empty()) {
    if (Rest.consume_front("$")) {
      check(!Named, "two '$' in a row", Text);
      size_t Len = 0;
      while (Len < Rest.size() &&
             (llvm::isAlnum(Rest[Len]) || Rest[Len] == '_'))
        ++Len;
      Name = Rest.take_front(Len);
      Rest = Rest.drop_front(Len);
      Payload = "";
      if (Rest.consume_front("(")) {
        size_t Close = Rest.find(')');
        check(Close != StringRef::npos, "unterminated payload", Text);
        Payload = Rest.take_front(Close);
        Rest = Rest.drop_front(Close + 1);
      }
      Named = true;
      continue;
    }
    if (Rest.consume_front("^")) {
      All.push_back({Code.size(), size_t(-1), Name, Payload});
      Points[Name].push_back(All.size() - 1);
      Name = Payload = "";
      Named = false;
      continue;
    }
    if (Rest.consume_front("[[")) {
      Open.push_back({Code.size(), size_t(-1), Name, Payload});
      Name = Payload = "";
      Named = false;
      continue;
    }
    check(!Named, "'$name' not followed by '^' or '[['", Text);
    if (Rest.consume_front("]]")) {
      check(!Open.empty(), "']]' without '[['", Text);
      Annotation R = Open.back();
      Open.pop_back();
      R.End = Code.size();
      All.push_back(R);
      Ranges[R.Name].push_back(All.size() - 1);
      continue;
    }
    Code += Rest.front();
    Rest = Rest.drop_front();
  }
  check(!Named, "'$name' at the end", Text);
  check(Open.empty(), "'[[' without ']]'", Text);
}

std::pair<size_t, StringRef>
Annotations::pointWithPayload(StringRef Name) const {
  auto It = Points.find(Name);
  check(It != Points.end() && It->second.size() == 1,
        "a point asked for is not there exactly once", Code);
  const Annotation &A = All[It->second.front()];
  return {A.Begin, A.Payload};
}

size_t Annotations::point(StringRef Name) const {
  return pointWithPayload(Name).first;
}

std::vector<std::pair<size_t, StringRef>>
Annotations::pointsWithPayload(StringRef Name) const {
  std::vector<std::pair<size_t, StringRef>> Out;
  auto It = Points.find(Name);
  if (It != Points.end())
    for (size_t I : It->second)
      Out.push_back({All[I].Begin, All[I].Payload});
  return Out;
}

std::vector<size_t> Annotations::points(StringRef Name) const {
  std::vector<size_t> Out;
  for (const auto &P : pointsWithPayload(Name))
    Out.push_back(P.first);
  return Out;
}

llvm::StringMap<llvm::SmallVector<size_t, 1>> Annotations::all_points() const {
  llvm::StringMap<llvm::SmallVector<size_t, 1>> Out;
  for (const auto &E : Points)
    for (size_t P : points(E.first()))
      Out[E.first()].push_back(P);
  return Out;
}

std::pair<Annotations::Range, StringRef>
Annotations::rangeWithPayload(StringRef Name) const {
  auto It = Ranges.find(Name);
  check(It != Ranges.end() && It->second.size() == 1,
        "a range asked for is not there exactly once", Code);
  const Annotation &A = All[It->second.front()];
  return {{A.Begin, A.End}, A.Payload};
}

Annotations::Range Annotations::range(StringRef Name) const {
  return rangeWithPayload(Name).first;
}

std::vector<std::pair<Annotations::Range, StringRef>>
Annotations::rangesWithPayload(StringRef Name) const {
  std::vector<std::pair<Range, StringRef>> Out;
  auto It = Ranges.find(Name);
  if (It != Ranges.end())
    for (size_t I : It->second)
      Out.push_back({{All[I].Begin, All[I].End}, All[I].Payload});
  return Out;
}

std::vector<Annotations::Range> Annotations::ranges(StringRef Name) const {
  std::vector<Range> Out;
  for (const auto &R : rangesWithPayload(Name))
    Out.push_back(R.first);
  return Out;
}

llvm::StringMap<llvm::SmallVector<Annotations::Range, 1>>
Annotations::all_ranges() const {
  llvm::StringMap<llvm::SmallVector<Range, 1>> Out;
  for (const auto &E : Ranges)
    for (const Range &R : ranges(E.first()))
      Out[E.first()].push_back(R);
  return Out;
}

llvm::raw_ostream &llvm::operator<<(llvm::raw_ostream &OS,
                                    const Annotations::Range &R) {
  return OS << '[' << R.Begin << ", " << R.End << ')';
}
