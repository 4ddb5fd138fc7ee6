//===- RangeSet.h - Byte ranges asked about offset after offset -----------===//
//
// The stages ask of every token whether a skipped region or a meta
// construct holds it. A scan of every range per token made a file with
// thousands of conditionals quadratic (a 4 MB file of 40,000 device
// functions, each with an '#if __CUDA_ARCH__', took minutes to expand).
// The ranges are sorted and merged once; each question is then a binary
// search, with the answer of anyContains on the ranges given.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_RANGESET_H
#define METACU_SUPPORT_RANGESET_H

#include "support/Tokens.h"
#include <vector>

namespace metacu {

class RangeSet {
public:
  /// The union of \p Ranges, which may overlap, nest or come in any order.
  explicit RangeSet(std::vector<Range> Ranges);

  /// Whether one of the ranges given holds \p Offset.
  bool contains(unsigned Offset) const;
  bool empty() const { return Merged.empty(); }

private:
  /// Sorted, disjoint and not adjacent, none empty.
  std::vector<Range> Merged;
};

} // namespace metacu

#endif
