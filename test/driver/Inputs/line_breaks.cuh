// A dialect header that test/driver/dialect_header_line_breaks.cu writes
// with CRLF and CR line breaks and with a byte order mark.
#pragma once
@meta int header_count = 3;
inline __device__ int twice(int v) { return 2 * v; }
