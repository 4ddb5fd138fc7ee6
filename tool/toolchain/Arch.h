//===- Arch.h - The --arch target list and its preprocessor guards --------===//
//
// A target is a compute capability with an optional feature-set suffix, as
// CMake spells CUDA_ARCHITECTURES: 75, 80, 90a (arch-specific), 100f
// (family-specific). Each target gets one enumerator of nvvm_arch_t and one
// preprocessor test on nvcc's macros.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_ARCH_H
#define METACU_TOOLCHAIN_ARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu {

struct Arch {
  unsigned CC = 0;  // 75, 80, 90, 100, ...
  char Variant = 0; // 0, 'a' (arch-specific) or 'f' (family-specific)

  /// "sm_90a": the enumerator of nvvm_arch_t.
  std::string name() const;
  bool operator==(const Arch &O) const {
    return CC == O.CC && Variant == O.Variant;
  }
};

/// The real architectures nvcc 13.0 compiles for, as compute capabilities,
/// ascending: `nvcc --list-gpu-code` without its sm_ prefix. The audit
/// preprocesses code once per entry; --arch accepts none older than the
/// first.
inline constexpr unsigned NvccArchitectures[] = {75, 80,  86,  87,  88,  89,
                                                 90, 100, 103, 110, 120, 121};

/// The lowest architecture nvcc 13 compiles for.
constexpr unsigned MinSupportedCC = NvccArchitectures[0];

/// The first compute capabilities of nvcc 13.0's arch-specific targets
/// (sm_90a) and of its family-specific ones (sm_100f).
constexpr unsigned FirstArchSpecificCC = 90, FirstFamilySpecificCC = 100;

class ArchList {
public:
  /// Parses "75,80,90a" (also "80-real", "sm_80"). Sorted, duplicates removed.
  /// Only targets nvcc 13.0 compiles for are accepted.
  static llvm::Expected<ArchList> parse(llvm::StringRef Spec);

  llvm::ArrayRef<Arch> archs() const { return Archs; }

  /// "sm_75, sm_90": for comments and messages.
  std::string names() const;

  /// The definition of nvvm_arch_t, one enumerator per target, ascending.
  std::string enumDefinition() const;

  /// The definition of __nvvm_arch as a value: per-architecture constants
  /// selected by the same tests as guard(), nvvm_arch_t{} in the host pass.
  /// A device pass for another architecture never reaches it: the
  /// foreignArchCondition() guard stops it first.
  std::string valueDefinition() const;

  /// A preprocessor condition that holds exactly in the compilation passes
  /// selected by \p Mask: bit 0 is the host pass, bit I+1 is archs()[I].
  /// Returns "" when the mask selects every pass (no guard needed).
  std::string guard(uint64_t Mask) const;

  /// The condition under which a device pass targets none of the archs.
  std::string foreignArchCondition() const;

  /// Mask with every pass (host and all targets) set.
  uint64_t allPasses() const { return (uint64_t(2) << Archs.size()) - 1; }

private:
  static std::string test(const Arch &A);
  std::vector<Arch> Archs;
};

} // namespace metacu

#endif
