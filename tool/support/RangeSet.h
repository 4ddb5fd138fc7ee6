//===- RangeSet.h - Byte ranges asked about offset after offset -----------===//
//
// The stages ask of every token whether a skipped region or a meta
// construct holds it. A scan of every range per token made a file with
// thousands of conditionals quadratic (a 4 MB file of 40,000 device
// functions, each with an '#if __CUDA_ARCH__', took minutes to expand).
// The ranges are sorted and merged once; each question is then a binary
// search.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_RANGESET_H
#define METACU_SUPPORT_RANGESET_H

#include "support/Tokens.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <vector>

namespace metacu {

class RangeSet {
public:
  RangeSet() = default;
  /// The union of \p Ranges, which may overlap, nest or come in any order.
  explicit RangeSet(std::vector<Range> Ranges);

  /// Adds \p R; cheap where it begins at or after the end of every range
  /// the set holds (as a preprocessor reports the regions it skips).
  void add(Range R);

  /// Whether one of the ranges given holds \p Offset.
  bool contains(unsigned Offset) const;
  /// The range of the set that holds \p Offset: where the ranges given
  /// neither overlap nor nest (the regions one preprocessing skips), the
  /// one given.
  std::optional<Range> find(unsigned Offset) const;
  bool empty() const { return Merged.empty(); }
  /// The set's ranges in order.
  llvm::ArrayRef<Range> ranges() const { return Merged; }

private:
  /// Sorted, disjoint, none empty. Ranges given that only touch stay
  /// apart, so that find gives back the range given.
  std::vector<Range> Merged;
};

} // namespace metacu

#endif
