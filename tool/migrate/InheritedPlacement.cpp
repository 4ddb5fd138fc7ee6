//===- InheritedPlacement.cpp ---------------------------------------------===//
#include "migrate/InheritedPlacement.h"
#include "migrate/Classify.h"
#include "support/Tokens.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <string>

namespace metacu {

namespace {

/// Placements whose directives all lie between the statements of one block
/// of the function body (Placement.cpp): the text of every branch lies in
/// that body.
bool inOneBlock(Placement P) {
  return P == Placement::Statement || P == Placement::AfterMacroStatement ||
         P == Placement::DeclaresNames;
}

/// Whether the code of \p Text (from the start of a directive line to a
/// nested conditional's '#if') leaves no brace open: braces on directive
/// lines aside, none closes one opened before the text and all it opens
/// are closed. Braces that a conditional in the text opens in both of its
/// branches count twice: such a text is not taken, as any other whose
/// braces do not pair.
bool leavesNoBraceOpen(llvm::StringRef Text) {
  int Depth = 0;
  std::string Copy = Text.str(); // lexRaw reads up to a NUL
  for (const Token &T : lexRaw(Copy)) {
    if (T.InDirective)
      continue;
    if (T.is(clang::tok::l_brace))
      ++Depth;
    else if (T.is(clang::tok::r_brace) && --Depth < 0)
      return false;
  }
  return Depth == 0;
}

bool inherit(Group &G, const Facts &F) {
  unsigned First = G.Dirs.front();
  // The buffer itself: lookup() would return a copy that dies here.
  auto Text = F.Buffers.find(G.File);
  if (Text == F.Buffers.end())
    return false;
  llvm::StringRef Buf = Text->second;
  for (std::optional<FileKey> P = G.Parent; P; P = F.Groups.at(*P).Parent) {
    const Group &A = F.Groups.at(*P);
    if (A.File != G.File)
      return false;
    if (!isSite(A) || A.Place == Placement::Unknown)
      continue;
    if (!inOneBlock(A.Place) || !(A.Space & (DeviceSpace | GlobalSpace)))
      return false;
    // The directive that opens the branch of A holding G.
    auto After = llvm::upper_bound(A.Dirs, First);
    if (After == A.Dirs.begin() || After == A.Dirs.end())
      return false;
    size_t LineStart = Buf.rfind('\n', *std::prev(After));
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    if (First > Buf.size() || !leavesNoBraceOpen(Buf.slice(LineStart, First)))
      return false;
    // Where in the body is not looked at: of a site migrate does not
    // rewrite, only whether it sits in one is read (Classify.cpp).
    G.Place = Placement::Statement;
    G.PlaceOffset = First;
    G.Space |= A.Space;
    G.Function = A.Function;
    G.Inherited = true;
    return true;
  }
  return false;
}

} // namespace

unsigned
inheritPlacements(Facts &F, uint64_t Parsed,
                  llvm::function_ref<bool(llvm::StringRef)> Rewritable) {
  unsigned Placed = 0;
  // Ancestors come first in the map (an #if before those nested in it):
  // a site placed so places those nested in it.
  for (auto &[K, G] : F.Groups) {
    if (!isSite(G) || G.Cached || G.Inherited ||
        G.Place != Placement::Unknown || Rewritable(G.File))
      continue;
    bool Reached = false;
    for (unsigned P = 0; P < NumPasses; ++P)
      Reached |= (Parsed >> P & 1) && G.Taken[P] != Unreached;
    if (!Reached && inherit(G, F))
      ++Placed;
  }
  return Placed;
}

} // namespace metacu
