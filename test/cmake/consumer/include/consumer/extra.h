constexpr int extra_offset = 1000;
