constexpr int local_offset = 100;
