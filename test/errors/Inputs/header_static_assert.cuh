#pragma once
// A library header in the dialect that checks its parameters.
@meta constexpr int tile_limit = 64;
@meta static_assert(tile_limit % 48 == 0, "tile_limit must be a multiple of 48");
