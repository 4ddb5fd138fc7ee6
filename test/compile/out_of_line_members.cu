// RUN: %metacu %s -o %t.gen.cu --arch 75,90
// RUN: FileCheck %s --check-prefix=GEN < %t.gen.cu
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// A class that meta code uses brings the definitions of its members written
// outside it, as C++ needs them: constructor, destructor, a virtual
// function, a static data member, a nested class's member, a member
// template and a class template's member. The device-only member is
// nvcc's alone, and so is one whose body holds a meta construct (generated
// code, which meta code cannot call): the declaration in the class serves.
#include <cstdio>

struct Tile {
  int w, h;
  Tile(int w, int h);
  ~Tile();
  int area() const;
  __host__ __device__ int perimeter() const;
  __device__ int lane_offset() const;
  virtual int kind() const;
  static int made;
  struct Edge {
    int len;
    int twice() const;
  };
  template <class T> T scaled(T f) const;
  int unrolled() const;
};
Tile::Tile(int w, int h) : w(w), h(h) { ++made; }
Tile::~Tile() {}
int Tile::area() const { return w * h; }
__host__ __device__ int Tile::perimeter() const { return 2 * (w + h); }
__device__ int Tile::lane_offset() const { return threadIdx.x * w; }
int Tile::kind() const { return 7; }
int Tile::made = 0;
int Tile::Edge::twice() const { return 2 * len; }
template <class T> T Tile::scaled(T f) const { return T(area()) * f; }
int Tile::unrolled() const {
  int r = 0;
  @meta for (int i = 0; i < 3; ++i)
    r += w;
  return r;
}
// GEN: int Tile::unrolled() const {
// GEN-NEXT: int r = 0;
// GEN-NEXT: #line
// GEN-NEXT: { r += w; }

template <int N> struct Grid {
  int cells() const;
};
template <int N> int Grid<N>::cells() const { return N * N; }

// 32 + 24 + 7 + 1 + 6 = 70; 32 * 0.5 = 16; 3 * 3 = 9.
@meta Tile t(4, 8);
@meta int a = t.area() + t.perimeter() + t.kind() + Tile::made + Tile::Edge{3}.twice();
@meta double s = t.scaled(0.5);
@meta int g = Grid<3>{}.cells();

__global__ void k(int* out, const Tile* tile) {
  out[threadIdx.x] = a + g + (int)s + tile->perimeter() + tile->lane_offset();
}
// GEN: out[threadIdx.x] = 70 + 9 + (int)16.0 + tile->perimeter() + tile->lane_offset();
// PTX: .entry _Z1kPiPK4Tile
// PTX: add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 95;
int main() { std::printf("%d %d\n", a, g); }
