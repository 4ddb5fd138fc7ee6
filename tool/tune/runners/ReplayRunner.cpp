//===- ReplayRunner.cpp - Measurements answered from a recorded cache -----===//
#include "ReplayRunner.h"

#include "llvm/Support/FormatVariadic.h"

using namespace metacu::tune;

ReplayRunner::ReplayRunner(const KernelTunerCache &Cache)
    // A recorded cache says which device ran, not which compiled image.
    : Device{"replay", Cache.DeviceName},
      Objective(Metric::fromObjective(Cache.Objective)) {}

ReplayRunner::Recorded ReplayRunner::compact(const Measurement &M) {
  Recorded R;
  R.Objective = M.Objective;
  R.CompileMs = M.CompileMs;
  R.BenchmarkMs = M.BenchmarkMs;
  R.VerificationMs = M.VerificationMs;
  R.FrameworkMs = M.FrameworkMs;
  R.Status = M.Status;
  llvm::StringRef Date = llvm::StringRef(M.Timestamp).take_front(10);
  unsigned Y = 0, Mo = 0, D = 0;
  if (Date.size() == 10 && Date[4] == '-' && Date[7] == '-' &&
      !Date.substr(0, 4).getAsInteger(10, Y) &&
      !Date.substr(5, 2).getAsInteger(10, Mo) &&
      !Date.substr(8, 2).getAsInteger(10, D))
    R.Day = Y * 10000 + Mo * 100 + D;
  R.Unmeasured = !M.valid() && M.Reason != kernelTunerName(M.Status);
  return R;
}

Measurement ReplayRunner::recorded(uint32_t Index) const {
  const Recorded &R = ByIndex[Index];
  Measurement M;
  M.Status = R.Status;
  M.Objective = R.Objective;
  M.CompileMs = R.CompileMs;
  M.BenchmarkMs = R.BenchmarkMs;
  M.VerificationMs = R.VerificationMs;
  M.FrameworkMs = R.FrameworkMs;
  if (R.Day)
    M.Timestamp = llvm::formatv("{0:d4}-{1:d2}-{2:d2}", R.Day / 10000,
                                R.Day / 100 % 100, R.Day % 100)
                      .str();
  if (!M.valid())
    M.Reason = R.Unmeasured ? Objective.whyNotMeasured(R.Objective)
                            : kernelTunerName(R.Status).str();
  return M;
}

llvm::Expected<std::unique_ptr<ReplayRunner>>
ReplayRunner::create(const KernelTunerCache &Cache, const SearchSpace &Space) {
  std::unique_ptr<ReplayRunner> R(new ReplayRunner(Cache));
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
    R->ByIndex[*Index] = compact(*M);
    Have[*Index] = true;
  }
  for (uint32_t I = 0; I < Space.size(); ++I)
    if (!Have[I])
      return llvm::createStringError("the cache has no record of " +
                                     Space.key(I));
  return R;
}

llvm::Expected<std::unique_ptr<ReplayRunner>>
ReplayRunner::read(llvm::StringRef Path, KernelTunerCache &Header,
                   SearchSpace &Space) {
  // Each entry's value indices, one after another, what it recorded and
  // where; placed by index once the space is known.
  std::vector<uint32_t> Values;
  std::vector<Recorded> Entries;
  std::vector<std::pair<unsigned, unsigned>> Where;
  auto Read = KernelTunerCache::stream(
      Path,
      [&](const KernelTunerCache &Cache, KernelTunerCache::Entry &E)
          -> llvm::Error {
        auto C = Cache.configOf(E);
        if (!C)
          return C.takeError();
        auto M = Cache.measurement(E);
        if (!M)
          return M.takeError();
        Values.insert(Values.end(), C->begin(), C->end());
        Entries.push_back(compact(*M));
        Where.emplace_back(E.Line, E.Column);
        return llvm::Error::success();
      });
  if (!Read)
    return Read.takeError();
  Header = std::move(*Read);
  size_t Width = Header.Params.size();
  auto S = SearchSpace::recordedValues(Header.Params, Values);
  if (!S)
    return llvm::createStringError(Path + ": " +
                                   llvm::toString(S.takeError()));
  Space = std::move(*S);
  std::unique_ptr<ReplayRunner> R(new ReplayRunner(Header));
  R->ByIndex.resize(Space.size());
  std::vector<bool> Have(Space.size());
  for (size_t I = 0; I < Entries.size(); ++I) {
    uint32_t Index = *Space.indexOf(
        llvm::ArrayRef<uint32_t>(Values).slice(I * Width, Width));
    if (Have[Index])
      return llvm::createStringError(
          Path + ":" + llvm::Twine(Where[I].first) + ":" +
          llvm::Twine(Where[I].second) + ": cache: " + Space.key(Index) +
          " recorded a second time");
    Have[Index] = true;
    R->ByIndex[Index] = Entries[I];
  }
  return R;
}

double RoundModel::roundSeconds(size_t Configs, double GpuSeconds) const {
  unsigned Workers = std::max(1u, Cores);
  double Compile = double((Configs + Workers - 1) / Workers) * CompileSeconds;
  return FixedSeconds + std::max(Compile, GpuSeconds);
}

llvm::Error ReplayRunner::run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) {
  if (Rounds) {
    // The round's results come back together, when it ends.
    double Gpu = 0;
    for (uint32_t C : Configs)
      Gpu += (ByIndex[C].BenchmarkMs + ByIndex[C].VerificationMs) / 1000;
    Clock += Rounds->roundSeconds(Configs.size(), Gpu);
    for (size_t I = 0; I < Configs.size(); ++I)
      if (!Done(I, recorded(Configs[I])))
        break;
    return llvm::Error::success();
  }
  for (size_t I = 0; I < Configs.size(); ++I) {
    Measurement M = recorded(Configs[I]);
    Clock += M.totalMs() / 1000;
    if (!Done(I, M))
      break;
  }
  return llvm::Error::success();
}
