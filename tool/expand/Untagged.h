//===- Untagged.h - Untagged helpers that device code calls ---------------===//
//
// Circle lets a kernel call a function that carries no execution-space
// attribute. metacu sees the whole file, so it does the same: a function or
// function template defined at namespace scope in the input without
// __host__, __device__ or __global__, that a __device__ or __global__
// function calls (directly, or through other such helpers), is emitted
// __host__ __device__. One that cannot compile for the device (it calls a
// function the file declares __host__ only, or a function of namespace
// std, which are host functions to nvcc) is left as it is, and each call to
// it from device code is an error naming the reason. Functions of headers
// are never touched. Calls are found by name in the token stream: a name,
// qualified or not, followed by '(' or by template arguments and '('.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_UNTAGGED_H
#define METACU_EXPAND_UNTAGGED_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"

#include "llvm/Support/Error.h"
#include <vector>

namespace metacu {

/// The input offsets before which '__host__ __device__ ' is inserted (the
/// declarations of the helpers device code calls, definitions and earlier
/// declarations alike), ascending; or the errors at calls of helpers that
/// cannot be compiled for the device.
llvm::Expected<std::vector<unsigned>>
untaggedDeviceHelpers(const ScanResult &Scan, const HostSliceResult &Slice);

} // namespace metacu

#endif
