// A tuning space with one candidate nvcc refuses (factor 3 names an
// undeclared variable; metacu's expansion does not compile device code), for
// the test that a failed compile is retried per candidate and only that one
// is recorded as a compile failure.
#include <cuda_runtime.h>
#include <metacu/runtime.h>

@meta metacu::tune_space space =
    metacu::tune_space("broken")
        .param("factor", {1, 2, 3, 4})
        .problem_size({256})
        .tolerance(0);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* x) {
  x[threadIdx.x] *= @(c.params["factor"].as_int() == 3 ? "undeclared_factor" : std::to_string(c.params["factor"].as_int()));
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>
void (*const kernels[])(float*) = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    @(c.name),
  }
};

struct broken_problem {
  explicit broken_problem(const std::vector<long long>&) {}
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() {}
  void launch(size_t) {}
  double error() { return 0; }
};
METACU_TUNE_MAIN(broken_problem)
#endif
