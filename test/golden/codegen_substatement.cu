// RUN: %check-golden %s -- --arch 75,80,90
// An 'if codegen' chain that is the body of an 'if', an 'else' or a loop
// stays a statement in every pass: a pass that takes none of its branches
// gets an empty block, or the statement after the chain would become the
// body ('if (c) p[1] = 2;' on sm_75 below).

__global__ void body_of_if(int *p, int c) {
  if (c)
    if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
      p[0] = 1;
    }
  p[1] = 2;
}

// No pass takes the branch: the empty block is all there is.
__global__ void body_of_loop(int *p, int n) {
  for (int i = 0; i < n; ++i)
    if codegen ((int)__nvvm_arch > 90) {
      p[i] = 1;
    }
  p[0] = 2;
}

// Every pass takes a branch: nothing is added.
__global__ void after_else(int *p, int c) {
  if (c)
    p[0] = 1;
  else if codegen (__nvvm_arch == nvvm_arch_t::sm_75) {
    p[0] = 2;
  } else {
    p[0] = 3;
  }
  p[1] = 4;
}

// A statement of a block needs nothing in the passes it leaves out.
__global__ void in_block(int *p) {
  if codegen (__nvvm_arch == nvvm_arch_t::sm_90) {
    p[0] = 1;
  }
  p[1] = 2;
}

// Each copy of a meta construct's unbraced body stands where the construct
// stands, a statement of the block: no empty block.
__global__ void after_meta_heads(int *p) {
  @meta for (int i = 0; i < 2; ++i)
    if codegen (__nvvm_arch == nvvm_arch_t::sm_90) {
      p[i] = 1;
    }
  @meta for enum (nvvm_arch_t a : nvvm_arch_t)
#pragma nounroll
    if codegen (__nvvm_arch == a && (int)a == 90) {
      p[2] = 1;
    }
  @meta if (sizeof(int) == 4)
    if codegen (__nvvm_arch == nvvm_arch_t::sm_80) {
      p[3] = 1;
    }
  p[4] = 2;
}
