//===- ArchFlow.h - Device passes that preprocess alike -------------------===//
//
// nvcc's device passes differ only in __CUDA_ARCH__'s value, so two of
// them preprocess a file alike unless some condition that value enters
// tells them apart. A device pass records (PreprocessorPass.h) each #if and
// #elif condition the value entered (Clang's MacroExpands while it
// evaluates one, directly or through macros), with the macros it can reach
// as they were defined there, and whether the value went anywhere else
// whose effect the record cannot follow (pasted or stringized outside a
// condition, another directive, a condition reaching a macro that
// stringizes, pastes a number or the like, or a built-in such as
// __LINE__). The names a condition's macros paste from names (CCCL's
// `_CCCL_CUDA_COMPILER(NVCC)`) are the same in every pass: they are
// reached as the text's are. A conditional whose two branches only
// define the same names as literals (nv/target's `#if
// (_NV_TARGET___NV_IS_EXACTLY_SM_80)`, one per architecture) is recorded
// whole, and its names are the pass's own from there on: followed as the
// value is, and unsafe wherever the facts would read them. Clang then
// evaluates the recorded conditions again for the other passes' values,
// in a preprocessor of the pass's own command line: a pass whose every
// condition comes out the same compiles the same branches, and its facts
// are the recorded pass's (copyPass()), provided what that pass read of
// the facts other passes wrote is unchanged since (stillAlike()).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_ARCHFLOW_H
#define METACU_MIGRATE_ARCHFLOW_H

#include "migrate/Facts.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace metacu {

/// A condition __CUDA_ARCH__'s value entered, as one pass evaluated it.
struct ArchCondition {
  /// The condition's text, on one line.
  std::string Text;
  /// For every name it can reach through macros, its state there:
  /// "#define ..." or "#undef NAME", by name.
  std::vector<std::pair<std::string, std::string>> Macros;
  bool Value = false;
  /// For a conditional that only defines names as literals: its whole
  /// text, evaluated in place of the condition alone, and those names.
  std::string Whole;
  std::vector<std::string> Sets;
};

/// What one device pass's preprocessing did with __CUDA_ARCH__'s value, and
/// what it read of the facts that later passes may change.
struct ArchRecord {
  unsigned Pass = 0;
  /// The pass's command line (PreprocessorPass.cpp's).
  std::vector<std::string> Args;
  std::vector<ArchCondition> Conditions;
  /// The value went where the record cannot follow it.
  bool Unsafe = false;
  /// Names the pass found neither derived from __CUDA_ARCH__ nor aliases
  /// of it where that decided something, and the execution spaces it
  /// read of names (Facts::Spaces): a later pass that finds otherwise
  /// would record more.
  llvm::StringSet<> NotDerived, NotAliases;
  llvm::StringMap<unsigned> SpacesRead;
  /// The later passes whose preprocessing is this pass's (a bit per index
  /// of auditPasses()).
  uint64_t Alike = 0;
};

/// The passes of \p Candidates whose value of __CUDA_ARCH__ gives every
/// condition of \p R the value it had in \p R's pass; none when \p R is
/// unsafe or Clang does not evaluate the conditions again as it did.
uint64_t passesAlike(const ArchRecord &R, uint64_t Candidates);

/// Whether what \p R's pass read of the facts is what \p F holds now, so
/// that running it again over \p F would add nothing but its branches.
bool stillAlike(const ArchRecord &R, const Facts &F);

/// Records in \p F that pass \p To preprocessed as pass \p From did.
void copyPass(Facts &F, unsigned From, unsigned To);

} // namespace metacu

#endif
