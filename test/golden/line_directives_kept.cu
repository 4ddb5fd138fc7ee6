// RUN: %check-golden %s -- --arch 75,80,90
// Only a `#line N` the preprocessor keeps renumbers the lines after it,
// for nvcc and so for the `#line` directives the expansion writes: not
// one in a block comment, in a raw string or in a branch nvcc's host pass
// skips, which a reading of the text line by line would take for one.
/*
#line 200
*/
const char *text = R"(
#line 300
)";
#if 0
#line 400
#endif
__global__ void lines(int *p) {
  if codegen ((int)__nvvm_arch >= 80) { p[0] = __LINE__; } else { p[0] = -__LINE__; }
  p[1] = __LINE__;
}
