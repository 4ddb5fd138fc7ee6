// RUN: %check-golden %s -- --arch 75,90
// An enumeration value that no enumerator has (flags combined, zero, the
// host pass's nvvm_arch_t{}) is a value all the same: it is spelled as a
// cast of its underlying value; one an enumerator has, by that enumerator.
namespace gpu {
enum class access : unsigned char { read = 1, write = 2, cached = 4 };
}
enum plain { p0, p1, p_alias = 1 };

@meta gpu::access rw = gpu::access(unsigned(gpu::access::read) | unsigned(gpu::access::write));
@meta gpu::access none{};
@meta plain one = p_alias;
@meta nvvm_arch_t host_pass{};

__global__ void k(gpu::access* a, plain* p, int* arch) {
  a[0] = rw;
  a[1] = none;
  a[2] = @(gpu::access::cached);
  p[0] = one;
  arch[0] = (int)host_pass;
}
