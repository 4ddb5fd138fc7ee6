// RUN: %check-golden %s -- --arch 75,80,90
// Meta code inside macros works at each use, as in Circle: a #define whose
// body holds '@meta', 'if codegen' or '@(...)' is expanded by metacu where
// ordinary code uses it (the article's SM_DISPATCH), and a macro whose body
// names a meta variable gets the variable's value at the use. Other macros
// in the body or the arguments stay for nvcc.
#include <map>

struct params_t {
  int nt, vt;
};
const std::map<int, params_t> kernel_config{
    {75, {128, 4}}, {80, {256, 8}}, {90, {256, 12}}};

template <int nt, int vt>
__device__ void body(float *y, const float *x) {
  @meta for (int i = 0; i < vt; ++i)
    y[threadIdx.x + i * nt] += x[threadIdx.x + i * nt];
}

// One branch per target architecture, each calling F with that
// architecture's parameters as template arguments.
#define SM_DISPATCH(F, ...)                                                    \
  @meta for enum (auto sm : nvvm_arch_t)                                       \
    if codegen (__nvvm_arch == sm) {                                           \
      @meta params_t p = kernel_config.at((int)sm);                            \
      F<p.nt, p.vt>(__VA_ARGS__);                                              \
    }

__global__ void add(float *y, const float *x) { SM_DISPATCH(body, y, x); }

// A macro naming a meta variable, and one using that macro.
@meta int w = 3;
#define SCALE(x) ((x) * w)
#define TWICE_SCALED(x) (2 * SCALE(x))
// A splice in a macro, and the stringified argument left as written.
#define LOAD(i) float @("v" + std::to_string(i)) = p[i]; /* #i */ (void)#i
#define HALF 2

__global__ void k(int *out, const float *p) {
  out[0] = SCALE(HALF);
  out[1] = TWICE_SCALED(4);
  @meta for (int i = 0; i < 2; ++i) {
    LOAD(i);
  }
}
