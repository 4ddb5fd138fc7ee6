// RUN: %check-golden %s -- --arch 75,80,90
// Inside a function, a branch of 'if codegen' keeps its braces only where
// dropping them could change what the code means. They are a scope nvcc
// sees: a block around '__restrict__' locals changes which loads nvcc
// makes 'ld.global.nc', so '#if' code migrated to 'if codegen' compiled to
// other PTX. Lines stay the user's without '#line' where nothing moved.

// The last statement of the body, declaring names the function has not
// declared: no braces (what migrate makes of a kernel's '#if' body).
__global__ void last(const float *__restrict__ in_ptr, float *out_ptr) {
  int i = threadIdx.x;
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    const float *__restrict__ in = in_ptr;
    float *__restrict__ out = out_ptr;
    out[i] = in[i] * 2.0f;
  } else {
    out_ptr[i] = 0.0f;
  }
}

// Not last, and declaring: braces, or 'v' would be declared twice.
__global__ void not_last(float *out) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    float v = 3.0f;
    out[0] = v;
  }
  float v = 1.0f;
  out[1] = v;
}

// Declaring nothing: no braces, wherever the chain stands.
__global__ void statements(float *out) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    out[0] = 9.0f;
  } else if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    out[0] = 8.0f;
  }
  out[1] = 1.0f;
}

// The branch declares a name the function declared before: braces.
__global__ void clash(float *out) {
  float t = 1.0f;
  out[1] = t;
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    float t = 2.0f;
    out[0] = t;
  }
}

// The body of an ordinary 'if': braces, or only the first statement would
// be conditional.
__global__ void substatement(float *out, bool c) {
  if (c)
    if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
      out[0] = 1.0f;
      out[1] = 2.0f;
    } else {
      out[0] = 0.0f;
      out[1] = 0.0f;
    }
}

// An unscoped enumeration declares its enumerators outside its braces:
// braces.
__global__ void enumeration(int *out) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    enum { a = 1, b = 2 };
    out[0] = a + b;
  }
}

// A device function whose branches return: the device passes' branches
// lose their braces too (the host pass's copy of a chain it takes no branch
// of has blocks of its own), as llama.cpp's migrated warp_reduce_sum.
template <int width = 32> __device__ int reduce(int x) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    return __reduce_add_sync(0xffffffffu, x);
  } else {
    for (int offset = width / 2; offset > 0; offset >>= 1)
      x += __shfl_xor_sync(0xffffffffu, x, offset, width);
    return x;
  }
}

// A call with addresses of array elements as arguments declares nothing
// ('&a[i]' after a '(' that holds a ',' is no parenthesized declarator),
// as in llama.cpp's migrated fattn-tile kernels.
__device__ void copy2(int *dst, const int *src);
__global__ void gather(int *a, const int *b) {
  for (int i = 0; i < 4; ++i) {
    const int j = i * 2;
    if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
      copy2(&a[i / (2 * 3)], &b[j]);
    } else {
      copy2(&a[i / (2 * 3)], &b[j + 1]);
    }
  }
  a[0] = reduce(a[1]);
}
