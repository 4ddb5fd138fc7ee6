// RUN: %check-golden %s -- --arch 75,90a
// No meta construct: the output is the input after a prelude that needs no
// header, with __nvvm_arch defined per architecture for the value uses.
template <nvvm_arch_t A> struct tile { static constexpr int n = (int)A / 5; };

__global__ void k(int* out) {
  constexpr int cc = (int)__nvvm_arch;
  out[0] = cc + tile<__nvvm_arch>::n;
  switch (__nvvm_arch) {
  case nvvm_arch_t::sm_90a: out[1] = 1; break;
  default: break;
  }
}
