#pragma once
// Nested in tiles.cuh and included again by the input: '#pragma once'.
@meta constexpr float half = 0.5f;
__device__ inline float halve(float x) { return x * @(half); }
