//===- Report.cpp ---------------------------------------------------------===//
#include "report/Report.h"

#include "report/Arguments.h"
#include "report/Diagnose.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

namespace metacu::report {

llvm::Expected<std::vector<KernelReport>>
buildReports(llvm::ArrayRef<ArchBuild> Builds, LaunchLookup LaunchFor) {
  std::vector<KernelReport> Rows;
  llvm::StringMap<unsigned> FirstSeen;
  for (const ArchBuild &B : Builds) {
    auto Counts = countPtx(B.Ptx);
    if (!Counts)
      return Counts.takeError();
    std::vector<KernelResources> Functions;
    auto Resources = parsePtxasLog(B.PtxasLog, &Functions);
    if (!Resources)
      return Resources.takeError();
    for (KernelCounts &C : *Counts) {
      auto Res = llvm::find_if(*Resources, [&](const KernelResources &K) {
        return K.Mangled == C.Mangled;
      });
      if (Res == Resources->end())
        return llvm::createStringError("ptxas said nothing of " + C.Mangled +
                                       " for " + B.Target.name());
      KernelReport R;
      R.Name = kernelName(C.Mangled);
      R.Target = B.Target;
      R.Resources = *Res;
      R.Counts = std::move(C);
      for (const std::string &Callee : R.Counts.Called)
        for (const KernelResources &F : Functions)
          if (F.Mangled == Callee)
            R.CalleeFrames.push_back(F);
      R.Limits = archLimits(B.Target.CC);
      R.Launch = LaunchFor(R.Name, B.Target);
      if (!R.Launch && R.Counts.MaxThreadsPerBlock) {
        R.Launch = LaunchConfig{};
        R.Launch->Block = Dim3{*R.Counts.MaxThreadsPerBlock, 1, 1};
        R.LaunchFromBounds = true;
      }
      if (R.Launch && R.Launch->Args.empty())
        R.Launch->Args =
            integerArguments(R.Counts.Mangled, R.Launch->ProblemSize);
      if (R.Limits && R.Launch) {
        KernelFootprint F{R.Resources.Registers, R.Resources.StaticSharedBytes,
                          R.Resources.Barriers, R.Counts.MaxThreadsPerBlock};
        R.Occ = computeOccupancy(*R.Limits, F, *R.Launch);
        if (R.Occ->BlocksPerSM > 0)
          R.Model =
              predict(R.Counts, R.Resources, *R.Occ, *R.Limits, *R.Launch);
      }
      R.Diagnoses = diagnose(R);
      FirstSeen.try_emplace(R.Counts.Mangled, FirstSeen.size());
      Rows.push_back(std::move(R));
    }
  }
  // Builds come in ascending architecture order; a stable sort keeps it.
  llvm::stable_sort(Rows, [&](const KernelReport &A, const KernelReport &B) {
    return FirstSeen.lookup(A.Counts.Mangled) <
           FirstSeen.lookup(B.Counts.Mangled);
  });
  return Rows;
}

} // namespace metacu::report
