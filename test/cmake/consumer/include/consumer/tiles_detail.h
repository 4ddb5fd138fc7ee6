#pragma once
constexpr int tiles_detail_offset = 7;
