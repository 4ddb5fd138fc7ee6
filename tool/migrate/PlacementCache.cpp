//===- PlacementCache.cpp -------------------------------------------------===//
#include "migrate/PlacementCache.h"

namespace metacu {

bool PlacementCache::lookup(const std::string &RealPath, Group &G) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Entries.find({RealPath, G.Dirs.front(), G.Taken});
  if (It == Entries.end())
    return false;
  const Entry &E = It->second;
  G.Place = E.Place;
  G.PlaceOffset = E.PlaceOffset;
  G.PlaceDetail = E.PlaceDetail;
  G.Space = E.Space;
  G.Function = E.Function;
  ++Hits;
  return true;
}

void PlacementCache::store(const std::string &RealPath, const Group &G) {
  std::lock_guard<std::mutex> Guard(Lock);
  Entries.try_emplace(
      {RealPath, G.Dirs.front(), G.Taken},
      Entry{G.Place, G.PlaceOffset, G.PlaceDetail, G.Space, G.Function});
}

unsigned PlacementCache::hits() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Hits;
}

} // namespace metacu
