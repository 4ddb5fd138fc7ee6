//===- HostCopy.h - The host pass sees what device-only branches return ---===//
//
// nvcc compiles a __device__ function in its host pass too, only to throw
// the code away; there it still deduces an 'auto' return type. An 'if
// codegen' chain that returns a value in every device branch and has no
// branch for the host left the host pass with no 'return' at all, so it
// deduced 'void' and 'nvcc -c' failed where '-ptx' passed. For such a chain
// in a device-only function the host pass gets every emitted branch under
// 'if (false)': it deduces the return type the branches agree on (or nvcc
// reports, at the user's line, that they return different types), and the
// host pass still runs none of it.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_HOSTCOPY_H
#define METACU_EXPAND_HOSTCOPY_H

#include "expand/Execute.h"

#include "llvm/ADT/ArrayRef.h"

namespace metacu {

/// Adds, after each chain of \p Chains (by the input offset of its 'if
/// codegen') that the host pass takes no branch of, a
/// '#if !defined(__CUDA_ARCH__)' block with the chain's branches under
/// 'if (false)'.
void addHostCopies(Expansion &X, llvm::ArrayRef<unsigned> Chains);

} // namespace metacu

#endif
