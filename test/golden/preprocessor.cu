// RUN: %check-golden %s -- --arch 80 -DUSE_WIDE -DWIDTH=8
// -D flags decide which regions are live: a meta construct in a region the
// preprocessor skips is left as written (nvcc skips it too), and meta code
// sees the file's macros.
#define TWICE(x) (2 * (x))

__global__ void k(int* out) {
#ifdef USE_WIDE
  @meta for (int i = 0; i < TWICE(WIDTH) / 8; ++i)
    out[i] = i;
#else
  @meta for (int i = 0; i < 100; ++i)
    out[i] = i;
#endif
#if 0
  @meta this is not even C++
#endif
}
