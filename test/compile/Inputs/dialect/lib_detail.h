#pragma once
template <typename T> __device__ T detail_zero() { return T(0); }
