//===- Arch.cpp -----------------------------------------------------------===//
#include "toolchain/Arch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace metacu {

std::string Arch::name() const {
  std::string S = "sm_" + std::to_string(CC);
  if (Variant)
    S += Variant;
  return S;
}

static unsigned variantRank(char V) { return V == 0 ? 0 : V == 'f' ? 1 : 2; }

llvm::Expected<ArchList> ArchList::parse(llvm::StringRef Spec) {
  ArchList L;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Spec.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    llvm::StringRef Orig = P;
    P = P.trim();
    P.consume_front("sm_") || P.consume_front("compute_");
    P.consume_back("-real") || P.consume_back("-virtual");
    Arch A;
    if (P.ends_with("a") || P.ends_with("f")) {
      A.Variant = P.back();
      P = P.drop_back();
    }
    if (P.getAsInteger(10, A.CC) || A.CC == 0)
      return llvm::createStringError("invalid architecture '%s' in --arch "
                                     "(expected a list such as 75,80,90a)",
                                     Orig.str().c_str());
    if (A.CC < MinSupportedCC)
      return llvm::createStringError(
          "architecture '%s' is older than sm_%u, the oldest nvcc 13 "
          "supports",
          Orig.str().c_str(), MinSupportedCC);
    if (!llvm::is_contained(NvccArchitectures, A.CC)) {
      std::string Known;
      for (unsigned CC : NvccArchitectures)
        Known += (Known.empty() ? "" : ", ") + std::to_string(CC);
      return llvm::createStringError(
          "architecture '%s' is not one nvcc 13 compiles for (%s)",
          Orig.str().c_str(), Known.c_str());
    }
    if ((A.Variant == 'a' && A.CC < FirstArchSpecificCC) ||
        (A.Variant == 'f' && A.CC < FirstFamilySpecificCC))
      return llvm::createStringError(
          "architecture '%s': nvcc 13 has %s targets from sm_%u%c on",
          Orig.str().c_str(),
          A.Variant == 'a' ? "arch-specific" : "family-specific",
          A.Variant == 'a' ? FirstArchSpecificCC : FirstFamilySpecificCC,
          A.Variant);
    if (llvm::is_contained(L.Archs, A))
      continue;
    // nvvm_arch_t holds compute capabilities; sm_90 and sm_90a would be
    // the same value, and meta code could not give them different code.
    for (const Arch &B : L.Archs)
      if (B.CC == A.CC)
        return llvm::createStringError(
            "--arch lists both %s and %s; they share compute capability "
            "%u.%u, which is all nvvm_arch_t tells apart: keep one of them",
            B.name().c_str(), A.name().c_str(), A.CC / 10, A.CC % 10);
    L.Archs.push_back(A);
  }
  if (L.Archs.empty())
    return llvm::createStringError("--arch needs at least one architecture");
  // Masks are 64-bit with one bit for the host pass.
  if (L.Archs.size() > 63)
    return llvm::createStringError("too many architectures in --arch");
  llvm::sort(L.Archs, [](const Arch &X, const Arch &Y) {
    if (X.CC != Y.CC)
      return X.CC < Y.CC;
    return variantRank(X.Variant) < variantRank(Y.Variant);
  });
  return L;
}

std::string ArchList::names() const {
  std::string S;
  for (const Arch &A : Archs) {
    if (!S.empty())
      S += ", ";
    S += A.name();
  }
  return S;
}

std::string ArchList::enumDefinition() const {
  std::string S = "enum class nvvm_arch_t { ";
  for (size_t I = 0; I != Archs.size(); ++I) {
    if (I)
      S += ", ";
    S += Archs[I].name() + " = " + std::to_string(Archs[I].CC);
  }
  return S + " };";
}

std::string ArchList::valueDefinition() const {
  // A macro, not a variable: it expands to a prvalue constant, so device
  // code may use it anywhere (a namespace-scope constexpr variable could not
  // be bound to a reference there), and headers included later see it too.
  std::string S;
  for (size_t I = 0; I != Archs.size(); ++I)
    S += (I ? "#elif " : "#if ") + guard(uint64_t(2) << I) +
         "\n#define __nvvm_arch nvvm_arch_t::" + Archs[I].name() + "\n";
  return S + "#else\n#define __nvvm_arch nvvm_arch_t{}\n#endif\n";
}

std::string ArchList::test(const Arch &A) {
  std::string CC = std::to_string(A.CC * 10);
  // nvcc defines __CUDA_ARCH__ alike for sm_90, sm_90a and sm_90f; the
  // feature-set macros tell the variants apart.
  switch (A.Variant) {
  case 'a':
    return "(defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == " +
           CC + ")";
  case 'f':
    return "(defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && "
           "__CUDA_ARCH_FAMILY_SPECIFIC__ == " +
           CC + ")";
  default:
    return "__CUDA_ARCH__ == " + CC;
  }
}

std::string ArchList::guard(uint64_t Mask) const {
  Mask &= allPasses();
  if (Mask == allPasses())
    return "";
  bool Host = Mask & 1;
  llvm::SmallVector<std::string, 8> Tests;
  for (size_t I = 0; I != Archs.size(); ++I)
    if (Mask & (uint64_t(2) << I))
      Tests.push_back(test(Archs[I]));
  bool AllDevice = Tests.size() == Archs.size();
  if (Host) {
    // Host plus some, but not all, device passes.
    std::string S = "!defined(__CUDA_ARCH__)";
    for (const std::string &T : Tests)
      S += " || " + T;
    return S;
  }
  if (AllDevice)
    return "defined(__CUDA_ARCH__)";
  if (Tests.empty())
    return "0";
  if (Tests.size() == 1)
    return "defined(__CUDA_ARCH__) && " + Tests[0];
  return "defined(__CUDA_ARCH__) && (" + llvm::join(Tests, " || ") + ")";
}

std::string ArchList::foreignArchCondition() const {
  llvm::SmallVector<std::string, 8> Tests;
  for (const Arch &A : Archs)
    Tests.push_back(test(A));
  return "defined(__CUDA_ARCH__) && !(" + llvm::join(Tests, " || ") + ")";
}

} // namespace metacu
