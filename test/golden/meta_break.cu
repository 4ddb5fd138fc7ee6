// RUN: %check-golden %s -- --arch 75,90
// '@meta break' and '@meta continue' leave a meta loop at generation time:
// every output block the iteration had opened (the loop body's braces, an
// ordinary block, an 'if codegen' branch and its #if) is still closed.
// A branch of meta statements only leaves no line behind.
__global__ void odd_below_eight(int* out) {
  @meta int i = 0;
  @meta while (true) {
    @meta ++i;
    @meta if (i % 2 == 0) @meta continue;
    @meta if (i > 7) @meta break;
    out[@(i)] = i;
  }
}

__global__ void first_three(int* out) {
  @meta for (int i = 0; i < 10; ++i) {
    out[i] = 1;
    @meta if (i == 2) { @meta break; }
    out[i] += 2;
  }
}

__global__ void inside_a_block(int* out) {
  @meta for (int i = 0; i < 4; ++i) {
    if (out[0] > i) {
      out[i] = 1;
      @meta if (i == 2) @meta break;
      out[i] = 2;
    }
  }
}

__global__ void triangle(int* out) {
  @meta for (int i = 0; i < 3; ++i)
    @meta for (int j = 0; j < 3; ++j) {
      @meta if (j > i) @meta break;
      out[@(i * 3 + j)] = 1;
    }
}

__global__ void inside_codegen(int* out) {
  @meta for (int i = 0; i < 4; ++i) {
    if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
      out[i] = 9;
      @meta if (i == 1) @meta break;
    } else {
      out[i] = 7;
    }
  }
}
