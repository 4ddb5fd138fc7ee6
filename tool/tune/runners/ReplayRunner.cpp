//===- ReplayRunner.cpp - Measurements answered from a recorded cache -----===//
#include "ReplayRunner.h"

using namespace metacu::tune;

llvm::Expected<std::unique_ptr<ReplayRunner>>
ReplayRunner::create(const KernelTunerCache &Cache, const SearchSpace &Space) {
  std::unique_ptr<ReplayRunner> R(new ReplayRunner);
  // A recorded cache says which device ran, not which compiled image.
  R->Device = {"replay", Cache.DeviceName};
  R->ByIndex.resize(Space.size());
  std::vector<bool> Have(Space.size());
  for (const KernelTunerCache::Entry &E : Cache.Entries) {
    auto C = Cache.configOf(E);
    if (!C)
      return C.takeError();
    auto Index = Space.indexOf(*C);
    if (!Index)
      continue;
    auto M = Cache.measurement(E);
    if (!M)
      return M.takeError();
    R->ByIndex[*Index] = std::move(*M);
    Have[*Index] = true;
  }
  for (uint32_t I = 0; I < Space.size(); ++I)
    if (!Have[I])
      return llvm::createStringError("the cache has no record of " +
                                     Space.key(I));
  return R;
}

llvm::Error ReplayRunner::run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) {
  for (size_t I = 0; I < Configs.size(); ++I) {
    const Measurement &M = ByIndex[Configs[I]];
    Clock += M.totalMs() / 1000;
    if (!Done(I, M))
      break;
  }
  return llvm::Error::success();
}
