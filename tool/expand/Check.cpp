//===- Check.cpp ----------------------------------------------------------===//
#include "expand/Check.h"
#include "support/Diagnostic.h"

namespace metacu {

llvm::Error check(const ScanResult &Scan, const HostSliceResult &Slice) {
  if (!Slice.MetaHeaders.empty()) {
    const MetaHeader &H = Slice.MetaHeaders.front();
    return errorAt(H.IncludeOffset,
                   "header '" + H.Path + "' contains meta constructs (at " +
                       H.Path + ":" + llvm::Twine(H.Line) + ":" +
                       llvm::Twine(H.Col) +
                       ") that metacu could not splice into this "
                       "file; include it with #include from a user "
                       "directory");
  }
  llvm::Error Err = llvm::Error::success();
  walkNodes(Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Text)
      return WalkNext::Siblings;
    bool Inactive = anyContains(Slice.Inactive, N.Whole.Begin);
    if (N.Kind == NodeKind::Malformed) {
      if (Inactive)
        return WalkNext::Siblings;
      Err = errorAt(N.ErrorOffset, N.Error);
      return WalkNext::Stop;
    }
    if (anyContains(Slice.ArchConditional, N.Whole.Begin)) {
      Err = errorAt(N.Whole.Begin,
                    "meta construct inside a preprocessor conditional that "
                    "tests __CUDA_ARCH__; metacu sees the file once, not "
                    "once per architecture, so select per-architecture "
                    "code with 'if codegen (__nvvm_arch ...)'");
      return WalkNext::Stop;
    }
    if (anyContains(Slice.CompilerConditional, N.Whole.Begin)) {
      Err = errorAt(N.Whole.Begin,
                    "meta construct inside a preprocessor conditional that "
                    "tests __CUDACC__ or __NVCC__; metacu reads the file as "
                    "a host C++ compiler does, without them, so it cannot "
                    "tell whether nvcc compiles this region: move the "
                    "construct out of the conditional");
      return WalkNext::Stop;
    }
    // What the preprocessor skips is left as written, whatever it holds.
    return Inactive ? WalkNext::Siblings : WalkNext::Children;
  });
  return Err;
}

} // namespace metacu
