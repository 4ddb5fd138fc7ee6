//===- InheritedPlacement.cpp ---------------------------------------------===//
#include "migrate/InheritedPlacement.h"
#include "migrate/Classify.h"
#include "migrate/LexedFiles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <vector>

namespace metacu {

namespace {

/// Placements whose directives all lie between the statements of one block
/// of the function body (Placement.cpp): the text of every branch lies in
/// that body.
bool inOneBlock(Placement P) {
  return P == Placement::Statement || P == Placement::AfterMacroStatement ||
         P == Placement::DeclaresNames;
}

/// Whether the code of \p Toks (from the start of a directive line to a
/// nested conditional's '#if') leaves no brace open: braces on directive
/// lines aside, none closes one opened before the text and all it opens
/// are closed. Braces that a conditional in the text opens in both of its
/// branches count twice: such a text is not taken, as any other whose
/// braces do not pair.
bool leavesNoBraceOpen(llvm::ArrayRef<Token> Toks) {
  int Depth = 0;
  for (const Token &T : Toks) {
    if (T.InDirective)
      continue;
    if (T.is(clang::tok::l_brace))
      ++Depth;
    else if (T.is(clang::tok::r_brace) && --Depth < 0)
      return false;
  }
  return Depth == 0;
}

/// Places \p G from \p A, the placed site whose conditional is the
/// innermost placed one around it.
bool inherit(Group &G, const Group &A, LexedFiles &Files) {
  if (!inOneBlock(A.Place) || !(A.Space & (DeviceSpace | GlobalSpace)))
    return false;
  const Lexed &L = Files.of(G.File);
  if (L.Buffer.empty())
    return false;
  unsigned First = G.Dirs.front();
  // The directive that opens the branch of A holding G.
  auto After = llvm::upper_bound(A.Dirs, First);
  if (After == A.Dirs.begin() || After == A.Dirs.end())
    return false;
  size_t LineStart = L.Buffer.rfind('\n', *std::prev(After));
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  if (First > L.Buffer.size() ||
      !leavesNoBraceOpen(L.between(LineStart, First)))
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

} // namespace

unsigned
inheritPlacements(Facts &F, uint64_t Parsed,
                  llvm::function_ref<bool(llvm::StringRef)> Rewritable) {
  unsigned Placed = 0;
  LexedFiles Files(F);
  // By conditional: the placed site whose conditional is the innermost
  // placed one around it, with no other file's conditional between them;
  // null if none. Ancestors come first in the map (an #if of a file before
  // those nested in it), each final by then: a conditional's is its
  // parent's, or its parent itself, carried down the walk.
  llvm::DenseMap<const Group *, const Group *> Placer;
  for (auto &[K, G] : F.Groups) {
    const Group *Around = nullptr;
    if (G.Parent) {
      auto P = F.Groups.find(*G.Parent);
      if (P != F.Groups.end() && P->second.File == G.File)
        Around = isSite(P->second) && P->second.Place != Placement::Unknown
                     ? &P->second
                     : Placer.lookup(&P->second);
    }
    Placer[&G] = Around;
    if (!Around || !isSite(G) || G.Cached || G.Inherited ||
        G.Place != Placement::Unknown || Rewritable(G.File))
      continue;
    bool Reached = false;
    for (unsigned P = 0; P < NumPasses; ++P)
      Reached |= (Parsed >> P & 1) && G.Taken[P] != Unreached;
    if (!Reached && inherit(G, *Around, Files))
      ++Placed;
  }
  return Placed;
}

} // namespace metacu
