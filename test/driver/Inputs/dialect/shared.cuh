#ifndef SHARED_CUH
#define SHARED_CUH
#include "shared_plain.h"
#include "nested.cuh"
@meta constexpr int shared_items = nested_base + 2;
#endif
