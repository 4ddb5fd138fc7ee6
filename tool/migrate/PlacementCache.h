//===- PlacementCache.h - Where a header's conditionals sit, shared -------===//
//
// Placing conditionals takes a parse of the whole translation unit, the
// audit's dearest step. A header included by many .cu files of a tree sits
// the same way in each of them when each pass compiles the same branches
// of its conditionals (the same macro state where it matters): the audits
// of a tree's units share one cache, so such a header is parsed for
// placement once, and a unit whose sites all sit in headers placed before
// is not parsed at all. Thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PLACEMENTCACHE_H
#define METACU_MIGRATE_PLACEMENTCACHE_H

#include "migrate/Facts.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace metacu {

class PlacementCache {
public:
  /// Copies the placement of a conditional seen before at the same place
  /// (\p RealPath, its #if) with the same branches per pass into \p G.
  bool lookup(const std::string &RealPath, Group &G) const;
  /// Records where \p G (placed by a parse) sits.
  void store(const std::string &RealPath, const Group &G);
  /// Lookups answered, for the tests.
  unsigned hits() const;

private:
  using Key = std::tuple<std::string, unsigned, std::vector<int>>;
  struct Entry {
    Placement Place;
    unsigned PlaceOffset;
    std::string PlaceDetail;
    unsigned Space;
    std::string Function;
  };
  mutable std::mutex Lock;
  std::map<Key, Entry> Entries;
  mutable unsigned Hits = 0;
};

} // namespace metacu

#endif
