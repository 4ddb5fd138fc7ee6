//===- Untagged.h - Untagged helpers that device code calls ---------------===//
//
// Circle lets a kernel call a function that carries no execution-space
// attribute. metacu sees the whole file, so it does the same: a function or
// function template declared at namespace scope in the input without
// __host__, __device__ or __global__, that a __device__ or __global__
// function calls (directly, or through __host__ __device__ functions or
// other such helpers), is emitted __host__ __device__ on each of its
// declarations. One that cannot compile for the device (it calls a function
// that is a host function to nvcc, or launches a kernel) is left as it is,
// and each call to it from device code is an error naming the reason.
// Functions of headers are never touched.
//
// Which function a call reaches is Clang's answer: the input (its meta
// constructs masked) is parsed in Clang's CUDA mode for the device, and
// the callee Sema resolved (overloads, templates, namespaces) decides, never
// a match of names. While parsing the input's own declarations, Sema treats
// its untagged functions as __host__ __device__ (as they would be once
// tagged), so that their calls resolve as they will for the device. A file
// nvcc accepts as it is has no device call of a host function, so it comes
// out unchanged (a constexpr function counts as callable from the device,
// as nvcc's --expt-relaxed-constexpr and Clang have it).
//
// The parse is dear (Clang's CUDA headers), so it only runs when some
// untagged function of the input is named in a device function's body
// (unqualified, or qualified by a namespace around it or an alias of one)
// or in a #define line: without that, device code cannot reach one.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_UNTAGGED_H
#define METACU_EXPAND_UNTAGGED_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/Support/Error.h"
#include <vector>

namespace metacu {

/// The input offsets before which '__host__ __device__ ' is inserted (every
/// declaration of each helper device code calls, after its template header
/// and linkage specification), ascending; or the errors at calls of helpers
/// that cannot be compiled for the device. \p Archs: the device passes to
/// read (one when no conditional of the input tests __CUDA_ARCH__).
llvm::Expected<std::vector<unsigned>>
untaggedDeviceHelpers(const SourceFile &File, const ScanResult &Scan,
                      const HostSliceResult &Slice, const ArchList &Archs,
                      const HostSliceOptions &Opts);

/// Whether some untagged function of the input is named in a device
/// function's body or a #define line: the cheap test that decides whether
/// untaggedDeviceHelpers() parses at all.
bool mayCallUntaggedHelper(const ScanResult &Scan,
                           const HostSliceResult &Slice);

} // namespace metacu

#endif
