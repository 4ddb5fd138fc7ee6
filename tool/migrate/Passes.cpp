//===- Passes.cpp ---------------------------------------------------------===//
#include "migrate/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <utility>
#include <vector>

namespace metacu {

static const auto Passes = [] {
  std::array<unsigned, NumPasses> P{0};
  llvm::copy(NvccArchitectures, P.begin() + 1);
  return P;
}();

llvm::ArrayRef<unsigned> auditPasses() { return Passes; }

std::string passName(unsigned I) {
  return Passes[I] == 0 ? "host" : "sm_" + std::to_string(Passes[I]);
}

std::string passNames(uint64_t Mask) {
  std::vector<std::string> Names;
  for (unsigned I = 0; I < NumPasses; ++I)
    if (Mask >> I & 1)
      Names.push_back(passName(I));
  return llvm::join(Names, ", ");
}

std::string codegenCondition(uint64_t Want, uint64_t DontCare) {
  auto Is = [](uint64_t M, unsigned I) { return (M >> I & 1) != 0; };
  // Maximal runs of wanted-or-free passes that hold a wanted one; free
  // passes at a run's edge are kept only where that drops a bound.
  std::vector<std::pair<unsigned, unsigned>> Runs;
  for (unsigned I = 0; I < NumPasses;) {
    if (!Is(Want | DontCare, I)) {
      ++I;
      continue;
    }
    unsigned J = I;
    while (J + 1 < NumPasses && Is(Want | DontCare, J + 1))
      ++J;
    unsigned Lo = I, Hi = J;
    while (Lo <= Hi && !Is(Want, Lo))
      ++Lo;
    while (Hi >= Lo && Lo <= J && !Is(Want, Hi))
      --Hi;
    if (Lo <= J) {
      if (I == 0)
        Lo = 0;
      if (J == NumPasses - 1)
        Hi = J;
      Runs.push_back({Lo, Hi});
    }
    I = J + 1;
  }
  if (Runs.empty())
    return "false";
  const std::string A = "(int)__nvvm_arch";
  std::vector<std::string> Terms;
  for (auto [Lo, Hi] : Runs) {
    bool ToEnd = Hi == NumPasses - 1;
    std::string Upper = ToEnd ? "" : std::to_string(Passes[Hi + 1]);
    if (Lo == 0 && ToEnd)
      return "true";
    if (Lo == 0)
      Terms.push_back(Hi == 0 ? A + " == 0" : A + " < " + Upper);
    else if (ToEnd)
      Terms.push_back(Lo == 1 ? A + " != 0"
                              : A + " >= " + std::to_string(Passes[Lo]));
    else if (Lo == Hi)
      Terms.push_back(A + " == " + std::to_string(Passes[Lo]));
    else
      Terms.push_back(A + " >= " + std::to_string(Passes[Lo]) + " && " + A +
                      " < " + Upper);
  }
  if (Terms.size() == 1)
    return Terms.front();
  for (std::string &T : Terms)
    if (llvm::StringRef(T).contains("&&"))
      T = "(" + T + ")";
  return llvm::join(Terms, " || ");
}

} // namespace metacu
