// scripts/gpu/model/stencil3d.cu's kernel (one Jacobi step of the 7-point
// Laplacian on 512 x 512 x 256 floats with a ghost layer, each thread
// marching down a chunk of z) written as Kernel Tuner expects a kernel: its
// parameters block_x, block_y and z_chunk are macros it defines. Used by
// scripts/kt/proof.py, Kernel Tuner's side of the time-to-optimum proof.
#define NX 512
#define NY 512
#define NZ 256
#define PX (NX + 2)
#define PY (NY + 2)

extern "C" __global__ void stencil3d(float* __restrict__ out, const float* __restrict__ in) {
  const int x = blockIdx.x * block_x + threadIdx.x, y = blockIdx.y * block_y + threadIdx.y;
  const int z0 = blockIdx.z * z_chunk;
  const float* p = in + ((size_t)(z0 + 1) * PY + y + 1) * PX + x + 1;
  float* q = out + ((size_t)z0 * NY + y) * NX + x;
  float below = p[-PX * PY], centre = p[0];
  for (int z = 0; z < z_chunk; ++z) {
    float above = p[PX * PY];
    *q = 0.5f * centre + (1.0f / 12) * (below + above + p[-1] + p[1] + p[-PX] + p[PX]);
    below = centre;
    centre = above;
    p += PX * PY;
    q += NX * NY;
  }
}
