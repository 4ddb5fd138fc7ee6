//===- Passes.h - The compilation passes the audit evaluates --------------===//
//
// nvcc compiles a .cu file once for the host and once per target
// architecture, each time with another __CUDA_ARCH__. The audit asks Clang's
// preprocessor about every pass nvcc 13 can make, so that which branch each
// pass compiles is Clang's answer, not a re-implementation of #if
// arithmetic. A set of passes is a bit mask over auditPasses(); an
// 'if codegen' condition stands for such a set.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PASSES_H
#define METACU_MIGRATE_PASSES_H

#include "toolchain/Arch.h"

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <iterator>
#include <string>

namespace metacu {

/// The passes as __CUDA_ARCH__ / 10: 0 is the host pass, then every
/// architecture nvcc 13 compiles for, ascending.
llvm::ArrayRef<unsigned> auditPasses();

constexpr unsigned NumPasses = std::size(NvccArchitectures) + 1;
constexpr uint64_t AllPasses = (uint64_t(1) << NumPasses) - 1;

/// "host" or "sm_80": the name of auditPasses()[I].
std::string passName(unsigned I);

/// "host, sm_75, sm_80" for a pass mask.
std::string passNames(uint64_t Mask);

/// An 'if codegen' condition on (int)__nvvm_arch that holds in every pass of
/// \p Want and in none outside \p Want | \p DontCare. Bounds are values of
/// auditPasses(), so the condition is right for any --arch list.
std::string codegenCondition(uint64_t Want, uint64_t DontCare);

} // namespace metacu

#endif
