// Plain CUDA: thrust from host code, a device lambda-free functor.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float sum_of_squares(const thrust::device_vector<float>& v) {
  thrust::device_vector<float> sq(v.size());
  thrust::transform(v.begin(), v.end(), sq.begin(), square());
  return thrust::reduce(sq.begin(), sq.end(), 0.0f);
}
