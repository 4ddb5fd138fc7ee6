//===- Arguments.h - A launch's argument values, for the model ------------===//
//
// What the model knows of a kernel's arguments: a trip count or an address
// that reads a parameter (a grid-stride loop's n, a pitch) follows the
// value given here; a parameter without one gets a made-up value
// (paramValue). Values come from `metacu report --launch
// KERNEL:BLOCK:GRID:ARGS`, by position, or from a tune space's problem
// size, given in order to the kernel's integer parameters.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_ARGUMENTS_H
#define METACU_REPORT_ARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace metacu::report {

/// ARGS of `--launch`: one value per parameter, in order, separated by
/// commas; an empty one or `_` leaves that parameter unknown
/// (`_,67108864,_`). Values are integers (decimal, or 0x hexadecimal),
/// negative ones included.
llvm::Expected<std::vector<std::optional<int64_t>>>
parseArguments(llvm::StringRef Text);

/// The kernel \p Mangled's integer parameters (int, unsigned, long, size_t
/// and the like, read from the Itanium-mangled signature) given \p Sizes in
/// order, the rest unknown; none where the name does not demangle (an
/// `extern "C"` kernel) or it has fewer integer parameters than sizes.
std::vector<std::optional<int64_t>>
integerArguments(llvm::StringRef Mangled, llvm::ArrayRef<int64_t> Sizes);

} // namespace metacu::report

#endif
