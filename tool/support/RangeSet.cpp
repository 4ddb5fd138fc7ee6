//===- RangeSet.cpp -------------------------------------------------------===//
#include "support/RangeSet.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace metacu {

RangeSet::RangeSet(std::vector<Range> Ranges) {
  llvm::erase_if(Ranges, [](const Range &R) { return R.empty(); });
  llvm::sort(Ranges,
             [](const Range &A, const Range &B) { return A.Begin < B.Begin; });
  for (const Range &R : Ranges)
    if (!Merged.empty() && R.Begin < Merged.back().End)
      Merged.back().End = std::max(Merged.back().End, R.End);
    else
      Merged.push_back(R);
}

void RangeSet::add(Range R) {
  if (R.empty())
    return;
  if (Merged.empty() || R.Begin >= Merged.back().End) {
    Merged.push_back(R);
    return;
  }
  Merged.push_back(R);
  *this = RangeSet(std::move(Merged));
}

std::optional<Range> RangeSet::find(unsigned Offset) const {
  // The first range that begins after Offset; the one before it is the
  // only one that may hold it.
  auto After = llvm::upper_bound(
      Merged, Offset, [](unsigned O, const Range &R) { return O < R.Begin; });
  if (After == Merged.begin() || !std::prev(After)->contains(Offset))
    return std::nullopt;
  return *std::prev(After);
}

bool RangeSet::contains(unsigned Offset) const {
  return find(Offset).has_value();
}

} // namespace metacu
