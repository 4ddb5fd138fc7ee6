#pragma once
@meta constexpr int pragma_width = 5;
__device__ inline int pragma_lanes() { return @(pragma_width); }
