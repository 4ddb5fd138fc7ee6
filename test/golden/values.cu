// RUN: %check-golden %s -- --arch 80
// Meta values in ordinary code become literals of their exact type.
#include <climits>
#include <string>

enum class rounding_t { fast, exact };
enum color { red, green };
struct tile_t { int rows; unsigned cols; rounding_t mode; };

@meta int i = -42;
@meta int imin = INT_MIN;
@meta unsigned u = 4096u;
@meta long long ll = 1ll << 40;
@meta unsigned long long ull = ~0ull;
@meta short sh = 7;
@meta float f = 0.1f;
@meta double d = -1.0 / 3.0;
@meta bool b = true;
@meta char c = '\'';
@meta std::string s = "say \"hi\"\n";
@meta rounding_t m = rounding_t::exact;
@meta color col = green;
@meta tile_t tile { 16, 32u, rounding_t::fast };

__global__ void k(long long* out, double* dout) {
  out[0] = i;
  out[1] = imin;
  out[2] = u;
  out[3] = ll;
  out[4] = ull;
  out[5] = sh;
  dout[0] = f;
  dout[1] = d;
  out[6] = b;
  out[7] = c;
  const char* msg = s;
  rounding_t mm = m;
  color cc = col;
  tile_t t = tile;
  out[8] = tile.rows * tile.cols + (mm == rounding_t::exact) + cc + (t.mode == rounding_t::fast) + msg[0];
  out[9] = 10-i;
}
