#pragma once
@meta constexpr int copy_width = 16;
__device__ inline int width() { return @(copy_width); }
