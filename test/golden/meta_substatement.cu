// RUN: %check-golden %s -- --arch 75,80
// A meta construct that is the body of an ordinary 'if', 'else' or loop
// makes one statement, however many copies it makes (none included):
// otherwise the body would be the first copy ('while (c--) { p[0] += c; }
// { p[1] += c; }'), or the statement after the construct.

__global__ void bodies(int *p, int c) {
  while (c--)
    @meta for (int i = 0; i < 2; ++i)
      p[i] += c;
  if (c)
    @meta if (sizeof(int) == 8) p[5] = 1;
  p[6] = 2;
  for (int j = 0; j < c; ++j) @meta for (int i = 0; i < 2; ++i) p[i] += j;
  if (c) p[7] = 0; else @meta for (int i = 0; i < 2; ++i) p[i] = 0;
  do @meta for (int i = 0; i < 2; ++i) p[i]--; while (c--);
}

// A statement of a block, a case's among them, needs nothing.
__global__ void statements(int *p, int c) {
  switch (c) {
  case 1:
    @meta for (int i = 0; i < 2; ++i)
      p[i] += 1;
    break;
  default:
    if codegen (__nvvm_arch == nvvm_arch_t::sm_80) {
      p[2] = 1;
    }
  }
  @meta for (int i = 0; i < 2; ++i)
    @meta for (int j = 0; j < 2; ++j)
      p[2 * i + j] *= 2;
}
