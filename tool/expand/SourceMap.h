//===- SourceMap.h - From the generator program back to the input ---------===//
//
// The generator program is assembled from pieces of the input (meta code,
// copied verbatim) and glue the lowering writes around them. Diagnostics the
// interpreter reports point into the program; this map sends them back to
// the user's file: verbatim pieces byte for byte, glue to the input position
// it was written for.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_SOURCEMAP_H
#define METACU_EXPAND_SOURCEMAP_H

#include <optional>
#include <vector>

namespace metacu {

class SourceMap {
public:
  /// Program bytes [GenBegin, GenBegin + Length) are a copy of the input
  /// starting at InputBegin.
  void addVerbatim(unsigned GenBegin, unsigned InputBegin, unsigned Length);
  /// Program bytes [GenBegin, GenEnd) were written for input offset Anchor.
  void addAnchor(unsigned GenBegin, unsigned GenEnd, unsigned Anchor);

  /// The input offset for a program offset, if it belongs to any piece.
  /// Verbatim pieces win over the anchor that encloses them.
  std::optional<unsigned> toInput(unsigned GenOffset) const;

  /// A call of addVerbatim() (Input: InputBegin) or addAnchor() (Input:
  /// Anchor).
  struct Piece {
    unsigned GenBegin, GenEnd, Input;
    bool Verbatim;
  };
  /// The pieces, in order: the same calls on an empty map make the same map
  /// (another process's copy).
  const std::vector<Piece> &pieces() const { return Pieces; }

private:
  std::vector<Piece> Pieces;
};

} // namespace metacu

#endif
