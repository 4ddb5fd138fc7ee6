// RUN: %metacu %s -o %t.gen.cu --arch 75,80
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 %t.gen.cu -o %t.o
// RUN: %metacu %s -o %t.vendor.gen.cu --arch 75,80 -DSOME_VENDOR_FEATURE
// RUN: %nvcc -DSOME_VENDOR_FEATURE -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 %t.vendor.gen.cu -o %t.vendor.o
// A block opened differently in each branch of a conditional, inside a
// meta construct and out of one: braces pair as in the text the
// preprocessor keeps for the flags given, so the function's own '{' is
// closed where it is.
__global__ void k(int *o, int n) {
  int i = threadIdx.x;
#if defined(SOME_VENDOR_FEATURE)
  if (i < n) {
#else
  {
#endif
    @meta int twice = 2;
    o[i] = @(twice);
  }
  if codegen ((int)__nvvm_arch >= 80) {
#if defined(SOME_VENDOR_FEATURE)
    if (i < n) {
#else
    {
#endif
      o[i] += 1;
    }
  } else {
    o[i] += 2;
  }
}
