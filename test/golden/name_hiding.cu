// RUN: %check-golden %s -- --arch 80
// An ordinary declaration hides a meta name as C++ hides an outer name:
// inside the hiding scope the name is the ordinary one.
@meta int n = 4;

struct counter_t {
  int n;
  __device__ int twice() const { return 2 * n; }
};

__device__ int scaled(int n) { return n * 3; }

__global__ void k(int* out, counter_t obj) {
  out[0] = n;
  {
    int n = out[1];
    out[2] = n + 1;
  }
  out[3] = n + obj.n + obj.twice();
  for (int n = 0; n < 2; ++n)
    out[4 + n] = n;
  out[6] = scaled(n);
  auto add = [](int n) { return n + 1; };
  out[7] = add(n);
  // An init-capture is a name of the lambda's body; its initializer still
  // sees the meta name.
  auto shift = [n = n + 1, &out](int x) { return x * n; };
  out[8] = shift(n);
}
