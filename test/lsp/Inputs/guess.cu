// An edit above the first meta statement, guessed (test/lsp/test_guess.py):
// a directive added above it changes nothing but the lines after it; VT,
// defined again, changes the meta value meta code makes of it.
#define VT 4

__constant__ float scale = 2.0f;

@meta int vt = VT;
@meta int twice = 2 * vt;

__global__ void fill(float* out) {
  out[threadIdx.x] = scale * @(twice);
}
