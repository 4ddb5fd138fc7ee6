//===- InheritedPlacement.cpp ---------------------------------------------===//
#include "migrate/InheritedPlacement.h"
#include "migrate/Classify.h"
#include "support/Tokens.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <optional>
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

/// A file's buffer and its raw tokens.
struct Lexed {
  llvm::StringRef Buffer;
  std::vector<Token> Tokens;
};

/// The files whose sites inherit a placement, each lexed once however many
/// of its sites are placed so.
class LexedFiles {
public:
  explicit LexedFiles(const Facts &F) : F(F) {}

  /// \p File, lexed; null if the passes kept no buffer of it.
  const Lexed *of(llvm::StringRef File) {
    auto [It, New] = Files.try_emplace(File);
    if (New) {
      // The buffer itself (lookup() would return a copy that dies here),
      // a std::string: NUL-terminated, as lexRaw reads it.
      auto Text = F.Buffers.find(File);
      if (Text != F.Buffers.end())
        It->second = Lexed{Text->second, lexRaw(Text->second)};
    }
    return It->second ? &*It->second : nullptr;
  }

private:
  const Facts &F;
  llvm::StringMap<std::optional<Lexed>> Files;
};

/// Whether the code of \p Toks from offset \p Begin (the start of a
/// directive line) to \p End (a nested conditional's '#if') leaves no brace
/// open: braces on directive lines aside, none closes one opened before the
/// text and all it opens are closed. Braces that a conditional in the text
/// opens in both of its branches count twice: such a text is not taken, as
/// any other whose braces do not pair.
bool leavesNoBraceOpen(llvm::ArrayRef<Token> Toks, unsigned Begin,
                       unsigned End) {
  int Depth = 0;
  auto It = llvm::partition_point(
      Toks, [&](const Token &T) { return T.Offset < Begin; });
  for (; It != Toks.end() && It->Offset < End; ++It) {
    if (It->InDirective)
      continue;
    if (It->is(clang::tok::l_brace))
      ++Depth;
    else if (It->is(clang::tok::r_brace) && --Depth < 0)
      return false;
  }
  return Depth == 0;
}

/// Places \p G from \p A, the placed site whose conditional is the
/// innermost placed one around it.
bool inherit(Group &G, const Group &A, LexedFiles &Files) {
  if (!inOneBlock(A.Place) || !(A.Space & (DeviceSpace | GlobalSpace)))
    return false;
  const Lexed *L = Files.of(G.File);
  if (!L)
    return false;
  unsigned First = G.Dirs.front();
  // The directive that opens the branch of A holding G.
  auto After = llvm::upper_bound(A.Dirs, First);
  if (After == A.Dirs.begin() || After == A.Dirs.end())
    return false;
  size_t LineStart = L->Buffer.rfind('\n', *std::prev(After));
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  if (First > L->Buffer.size() ||
      !leavesNoBraceOpen(L->Tokens, LineStart, First))
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
