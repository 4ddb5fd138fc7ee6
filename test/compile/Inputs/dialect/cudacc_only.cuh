#pragma once
// Included only where __CUDACC__ is defined.
@meta constexpr int cudacc_width = 3;
__device__ inline int cudacc_lanes() { return @(cudacc_width); }
