// RUN: %metacu %s -o %t.gen.cu --arch 75,90 --verify
// RUN: rm -f %t.bad.gen.cu
// RUN: not %metacu %S/Inputs/verify_error.cu -o %t.bad.gen.cu --arch 75,90 --verify 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad.gen.cu
// --verify parses the output with Clang for the host and each
// architecture; a correct file passes, and an error only one pass sees is
// reported at the user's line, naming the pass, with nothing written.
@meta int n = 4;
__global__ void k(float* x) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    @meta for (int i = 0; i < n; ++i)
      x[i] *= 2.0f;
  } else {
    x[0] = 1.0f;
  }
}
// A launch in host code parses in the device passes too.
int main() {
  k<<<1, 32>>>(nullptr);
  return 0;
}
// BAD: verify_error.cu:8:7: error: use of undeclared identifier 'undefined_thing' [--verify: sm_90]
// BAD-NEXT: {{^}}      undefined_thing[i] = 0;{{$}}
// BAD-NOT: error:
