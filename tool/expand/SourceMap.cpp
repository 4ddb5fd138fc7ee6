//===- SourceMap.cpp ------------------------------------------------------===//
#include "expand/SourceMap.h"

namespace metacu {

void SourceMap::addVerbatim(unsigned GenBegin, unsigned InputBegin,
                            unsigned Length) {
  if (Length)
    Pieces.push_back({GenBegin, GenBegin + Length, InputBegin, true});
}

void SourceMap::addAnchor(unsigned GenBegin, unsigned GenEnd,
                          unsigned Anchor) {
  if (GenEnd > GenBegin)
    Pieces.push_back({GenBegin, GenEnd, Anchor, false});
}

std::optional<unsigned> SourceMap::toInput(unsigned GenOffset) const {
  // Pieces nest (an anchor around the verbatim expression it wraps); the
  // innermost one that contains the offset is the most precise. Maps hold
  // a few hundred pieces, so a scan is cheap enough for diagnostics.
  const Piece *Best = nullptr;
  for (const Piece &P : Pieces) {
    if (GenOffset < P.GenBegin || GenOffset >= P.GenEnd)
      continue;
    if (!Best || (P.GenEnd - P.GenBegin) < (Best->GenEnd - Best->GenBegin) ||
        (P.Verbatim && !Best->Verbatim))
      Best = &P;
  }
  if (!Best)
    return std::nullopt;
  return Best->Verbatim ? Best->Input + (GenOffset - Best->GenBegin)
                        : Best->Input;
}

} // namespace metacu
