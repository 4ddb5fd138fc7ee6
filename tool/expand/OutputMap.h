//===- OutputMap.h - From the generated file back to the input, by byte ---===//
//
// #line directives tell a compiler the input line of each output line; an
// editor needs more: the column, both ways, and which copy of an unrolled
// body a position of the input stands for. The emit stage records, for
// every stretch of an output line, the input place it was written from:
// verbatim text byte for byte, generated text (a meta value's constant, a
// lowered construct) at the place of the construct that produced it, and
// the compilation passes whose preprocessing keeps it (the #if blocks of
// 'if codegen').
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_OUTPUTMAP_H
#define METACU_EXPAND_OUTPUTMAP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// A place of an input file (the input or a dialect header spliced in).
struct InputPlace {
  /// Index into OutputMap::files().
  unsigned File = 0;
  /// 1-based; the column in bytes.
  unsigned Line = 0, Col = 0;
  /// Whether the output byte is a copy of this input byte (else it was
  /// generated for the construct that starts here).
  bool Verbatim = false;
};

class OutputMap {
public:
  struct Piece {
    /// Output bytes [OutBegin, OutEnd), within one line.
    unsigned OutBegin = 0, OutEnd = 0;
    /// Where OutBegin was written from; a verbatim piece goes on byte for
    /// byte on the same input line.
    InputPlace At;
    /// The passes that keep the piece: bit 0 the host pass, bit I+1 the
    /// ArchList's I-th architecture (ArchList::guard's mask).
    uint64_t Passes = ~uint64_t(0);
  };

  /// The index of \p Path in files(), added if new.
  unsigned fileIndex(llvm::StringRef Path);
  /// Appends \p P; pieces come in increasing output order.
  void add(const Piece &P) { Pieces.push_back(P); }
  /// Moves every piece \p Delta bytes later in the output.
  void shift(unsigned Delta);

  llvm::ArrayRef<std::string> files() const { return Files; }
  llvm::ArrayRef<Piece> pieces() const { return Pieces; }

  /// The piece holding output byte \p Offset, if any (prelude text and
  /// directives the emit stage wrote have none).
  const Piece *pieceAt(unsigned Offset) const;
  /// The input place of output byte \p Offset.
  std::optional<InputPlace> toInput(unsigned Offset) const;
  /// Every output offset that is a verbatim copy of \p File's byte at
  /// \p Line:\p Col (or just past a copied stretch that ends before it:
  /// a cursor after the last character of a line), in output order, each
  /// with the passes that keep it.
  std::vector<std::pair<unsigned, uint64_t>>
  toOutput(unsigned File, unsigned Line, unsigned Col) const;

private:
  std::vector<std::string> Files;
  std::vector<Piece> Pieces;
};

} // namespace metacu

#endif
