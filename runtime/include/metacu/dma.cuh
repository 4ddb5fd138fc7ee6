// metacu/dma.cuh: copies from global to shared memory, described once at
// generation time and lowered per architecture (docs/dma.md).
//
//   @meta auto stage = metacu::dma::plan({.bytes = 8192, .threads = 256, .align = 16});
//   using stage_t = @(stage.type());
//   __shared__ metacu::dma::barrier bar;
//   stage_t dma(bar);
//   dma.copy(tile, src);               // or dma.start(tile, src); ...; dma.wait();
//
// The description (spec) and its lowering per architecture (lower) are
// ordinary code: meta code checks and prints them at generation time, and
// the copier's host diagnose() prints the same text at run time. The
// lowering decided at generation time reaches the device code as template
// arguments, and `if codegen` picks the mechanism of each architecture.
#pragma once
#include <metacu/dma/plan.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace metacu::dma {

/// The shared state of a copy (the mbarrier of bulk copies).
struct barrier {
  unsigned long long word;
};

/// A 2D array in global memory, for copier::start_window: `height` rows of
/// `width` bytes of data, `pitch` bytes from one row to the next. The plan's
/// `align` must hold for `data`, `pitch` and the window's x.
struct image {
  const void *data;
  int pitch;
  int width;
  int height;
};

/// An image with the tensor map (TMA descriptor) of one window shape, built
/// on the host by map_image() or copier::map() and passed to the kernel as a
/// `const __grid_constant__` parameter, for copier::start_window. Where the
/// map could not be encoded (an address, pitch or width that the copy
/// engine does not take) or was made for another window shape, or on
/// architectures without tensor copies, start_window copies from `img`.
struct image_map {
  CUtensorMap map;
  image img;
  int box_bytes, box_rows;
  bool encoded;
};

/// Builds the image_map of windows of box_rows rows of box_bytes bytes of
/// img (host code): a tiled tensor map of 4-byte elements, zero outside the
/// image. Throws std::runtime_error if the driver refuses a map whose sizes
/// and alignment are valid.
inline image_map map_image(image img, int box_bytes, int box_rows) {
  image_map m{};
  m.img = img;
  m.box_bytes = box_bytes;
  m.box_rows = box_rows;
  const bool fits =
      reinterpret_cast<uintptr_t>(img.data) % 16 == 0 && img.pitch % 16 == 0 &&
      img.width % 4 == 0 && img.width > 0 && img.height > 0 &&
      img.pitch >= img.width && box_bytes % 16 == 0 && box_bytes > 0 &&
      box_bytes / 4 <= tensor_box_limit && box_rows > 0 &&
      box_rows <= tensor_box_limit;
  if (!fits)
    return m;
  // The driver's encoder, through the runtime (no link with libcuda).
  using encode_t = CUresult (*)(
      CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
      const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
      const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
      CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static encode_t encode = [] {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                         cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<encode_t>(fn);
  }();
  if (!encode)
    throw std::runtime_error(
        "metacu::dma::map_image: the driver has no cuTensorMapEncodeTiled");
  const cuuint64_t dims[2] = {cuuint64_t(img.width / 4), cuuint64_t(img.height)};
  const cuuint64_t strides[1] = {cuuint64_t(img.pitch)};
  const cuuint32_t box[2] = {cuuint32_t(box_bytes / 4), cuuint32_t(box_rows)};
  const cuuint32_t steps[2] = {1, 1};
  const CUresult r = encode(
      &m.map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, const_cast<void *>(img.data),
      dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(
        "metacu::dma::map_image: cuTensorMapEncodeTiled failed (CUresult " +
        std::to_string(int(r)) + ")");
  m.encoded = true;
  return m;
}

namespace detail {

template <int W> struct vec_of;
template <> struct vec_of<16> { using type = uint4; };
template <> struct vec_of<8> { using type = uint2; };
template <> struct vec_of<4> { using type = unsigned; };
template <> struct vec_of<2> { using type = unsigned short; };
template <> struct vec_of<1> { using type = unsigned char; };

/// The thread's rank in its block, x fastest (threadIdx.x in a 1D block):
/// the numbering of first_thread and of the copying threads.
__device__ inline int thread_rank() {
  return int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

__device__ inline unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// One global read of W bytes with the cache hint C.
template <int W, cache C>
__device__ inline typename vec_of<W>::type load(const void *p) {
  using T = typename vec_of<W>::type;
  if constexpr (C == cache::non_coherent || C == cache::no_allocate)
    return __ldg(static_cast<const T *>(p));
  else if constexpr (C == cache::evict_first)
    return __ldcs(static_cast<const T *>(p));
  else if constexpr (C == cache::evict_last)
    return __ldca(static_cast<const T *>(p));
  else
    return *static_cast<const T *>(p);
}

/// The first n bytes at p followed by zeros (0 < n < W), for an access cut by
/// the edge of the data when staging in registers: byte loads shifted into
/// 32-bit words, so no access reads past the data.
template <int W>
__device__ inline typename vec_of<W>::type partial(const char *p, int n) {
  constexpr int words = W >= 4 ? W / 4 : 1;
  unsigned w[words] = {};
#pragma unroll
  for (int j = 0; j < W; ++j)
    if (j < n)
      w[j / 4] |= unsigned(static_cast<unsigned char>(p[j])) << (8 * (j % 4));
  typename vec_of<W>::type v;
  memcpy(&v, w, W);
  return v;
}

} // namespace detail

/// The copy of one spec; the lowering of each architecture tier (below
/// sm_80, sm_80-89, sm_90+) is decided at generation time (plan::type()).
template <pattern K, int Bytes, int Rows, int SrcPitch, int DstPitch,
          int Align, int Threads, int First, int Block, int BarrierId,
          int InFlight, cache C, mechanism Force>
class copier {
  static constexpr bool specialized = Block != Threads;
  static constexpr int total = K == pattern::sequential ? Bytes : Bytes * Rows;

public:
  static constexpr spec description() {
    spec s;
    s.kind = K;
    s.bytes = Bytes;
    s.rows = Rows;
    s.src_pitch = SrcPitch;
    s.dst_pitch = DstPitch;
    s.align = Align;
    s.threads = Threads;
    s.first_thread = First;
    s.block_threads = Block;
    s.barrier_id = BarrierId;
    s.bytes_in_flight = InFlight;
    s.hint = C;
    s.force = Force;
    return s;
  }

  /// The lowering of each tier, by the function the plan used.
  static constexpr lowering L0 = lower(description(), 75);
  static constexpr lowering L1 = lower(description(), 80);
  static constexpr lowering L2 = lower(description(), 90);
  static constexpr mechanism M0 = L0.mech, M1 = L1.mech, M2 = L2.mech;
  static constexpr int W0 = L0.width, W1 = L1.width, W2 = L2.width;

  /// Every thread of the block constructs it (it may synchronize the block).
  __device__ explicit copier(barrier &bar) : bar_(bar) {
    if codegen ((int)__nvvm_arch >= 90) {
      if constexpr (M2 == mechanism::bulk || L2.tensor) {
        if (detail::thread_rank() == First) {
          asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
                           detail::smem_addr(&bar_.word))
                       : "memory");
          asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        }
        __syncthreads();
      }
    }
  }

  /// True for the threads that copy.
  __device__ static bool producer() {
    return !specialized ||
           unsigned(detail::thread_rank() - First) < unsigned(Threads);
  }

  /// Starts the copy of src to dst (shared memory); copying threads only.
  __device__ void start(void *dst, const void *src) {
    static_assert(K != pattern::indirect,
                  "metacu::dma: an indirect copy (a gather) takes its index "
                  "array: start(dst, src, idx)");
    start_at(dst, src, SrcPitch);
  }

  /// Indirect copies: starts the gather of element e of dst from row idx[e]
  /// of src (src + idx[e] * src_pitch), for e < rows. idx may be in global
  /// or shared memory; it must stay unchanged until wait() returns.
  __device__ void start(void *dst, const void *src, const int *idx) {
    static_assert(K == pattern::indirect,
                  "metacu::dma: an index array is for indirect copies "
                  "(pattern::indirect)");
    start_at(dst, src, SrcPitch, idx);
  }

  /// start() for a tile cut short at run time (the edge of the data):
  /// sequential, only the first `valid` bytes of the block exist; strided,
  /// only the first `valid` bytes of each row and the first `valid_rows`
  /// rows. The rest of the tile is zero-filled: by cp.async's source size
  /// (sm_80 and newer; also on sm_90, as the bulk copy engine cannot
  /// zero-fill), or by registers holding zeros (register staging). Each
  /// access computes its valid bytes: the one copy with a run-time guard.
  /// wait() completes it as any other.
  __device__ void start_edge(void *dst, const void *src, int valid,
                             int valid_rows = Rows) {
    static_assert(K != pattern::indirect,
                  "metacu::dma: start_edge is for sequential and strided "
                  "copies");
    edge(dst, static_cast<const char *>(src), SrcPitch, 0, 0, valid,
         valid_rows);
  }

  /// Strided copies: the window of Rows rows of Bytes bytes whose first
  /// byte is at byte x of row y of img (x and y may be negative). Bytes of
  /// the window outside the image are zero in the tile (a halo at the
  /// image's border). A window wholly inside the image is copied as start()
  /// does with img.pitch as the source pitch (bulk copies on sm_90); one
  /// that crosses a border as start_edge() does. The test is uniform over
  /// the block.
  __device__ void start_window(void *dst, image img, int x, int y) {
    static_assert(K == pattern::strided,
                  "metacu::dma: start_window is for strided copies");
    const char *base = static_cast<const char *>(img.data);
    if (x >= 0 && y >= 0 && x + Bytes <= img.width && y + Rows <= img.height)
      start_at(dst, base + ptrdiff_t(y) * img.pitch + x, img.pitch);
    else
      edge(dst, base, img.pitch, x, y, img.width, img.height);
  }

  /// start_window() through a tensor map: on sm_90, where the plan allows
  /// it (diagnose() says), one thread issues one cp.async.bulk.tensor for
  /// the whole window and the copy engine zero-fills what lies outside the
  /// image. `m` must be the kernel's `const __grid_constant__` parameter and
  /// dst 128-byte aligned; otherwise, or with a map of another window
  /// shape, this is start_window(dst, m.img, x, y).
  __device__ void start_window(void *dst, const image_map &m, int x, int y) {
    static_assert(K == pattern::strided,
                  "metacu::dma: start_window is for strided copies");
    if codegen ((int)__nvvm_arch >= 90) {
      if constexpr (L2.tensor) {
        const unsigned to = detail::smem_addr(dst);
        if (m.encoded && m.box_bytes == Bytes && m.box_rows == Rows &&
            to % 128 == 0) {
          const unsigned bar = detail::smem_addr(&bar_.word);
          if (detail::thread_rank() == First) {
            asm volatile(
                "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                    bar),
                "n"(total)
                : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                         "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
                         "[%4];" ::"r"(to),
                         "l"(&m.map), "r"(x / 4), "r"(y), "r"(bar)
                         : "memory");
          }
          tensor_ = true;
          return;
        }
      }
    }
    start_window(dst, m.img, x, y);
  }

  /// The image_map of this copy's window shape (host code).
  static image_map map(image img) { return map_image(img, Bytes, Rows); }

  /// Waits until this thread's part of the copy has landed; then the
  /// copying threads (all-threads use: the block) synchronize, so every one
  /// of them sees the whole tile. Warp-specialized: producers signal the
  /// consumers (consumer_wait()).
  __device__ void wait() {
    const int t = detail::thread_rank() - First;
    if (tensor_) {
      // start_window() issued one tensor copy: sm_90 only.
      tensor_ = false;
      if codegen ((int)__nvvm_arch >= 90) {
        wait_barrier();
      }
    } else if (edge_) {
      // The edge copy used cp.async, or copied through registers already.
      edge_ = false;
      if codegen ((int)__nvvm_arch >= 90) {
        complete_edge<E2>();
      } else if codegen ((int)__nvvm_arch >= 80) {
        complete_edge<E1>();
      }
    } else {
      if codegen ((int)__nvvm_arch >= 90) {
        complete<M2, W2>(t);
      } else if codegen ((int)__nvvm_arch >= 80) {
        complete<M1, W1>(t);
      } else {
        complete<M0, W0>(t);
      }
    }
    if constexpr (specialized)
      asm volatile("bar.arrive %0, %1;" ::"n"(BarrierId), "n"(Block)
                   : "memory");
    else
      __syncthreads();
  }

  /// start() then wait().
  __device__ void copy(void *dst, const void *src) {
    start(dst, src);
    wait();
  }
  __device__ void copy(void *dst, const void *src, const int *idx) {
    start(dst, src, idx);
    wait();
  }

  /// Warp specialization. Consumers: wait until the producers' copy landed,
  /// and say when they no longer read the tile. Producers: wait until the
  /// consumers released the tile before starting the next copy into it.
  __device__ static void consumer_wait() {
    asm volatile("bar.sync %0, %1;" ::"n"(BarrierId), "n"(Block) : "memory");
  }
  __device__ static void consumer_release() {
    asm volatile("bar.arrive %0, %1;" ::"n"(BarrierId + 1), "n"(Block)
                 : "memory");
  }
  __device__ static void producer_wait() {
    asm volatile("bar.sync %0, %1;" ::"n"(BarrierId + 1), "n"(Block)
                 : "memory");
  }

  /// Prints what the copy does on each architecture in archs.
  static void diagnose(FILE *out, std::initializer_list<int> archs) {
    const spec s = description();
    describe_header(out, s);
    for (int a : archs)
      describe(out, s, a);
  }

private:
  /// start() with the source pitch given (strided copies: SrcPitch, or
  /// the image's pitch of start_window()).
  __device__ void start_at(void *dst, const void *src, int pitch,
                           const int *idx = nullptr) {
    const int t = detail::thread_rank() - First;
    if codegen ((int)__nvvm_arch >= 90) {
      issue<M2, W2>(t, dst, src, idx, pitch);
    } else if codegen ((int)__nvvm_arch >= 80) {
      issue<M1, W1>(t, dst, src, idx, pitch);
    } else {
      issue<M0, W0>(t, dst, src, idx, pitch);
    }
  }

  /// Byte offset of access k in the source: row k / per_row of a strided
  /// copy is `pitch` bytes after the previous one; that of a gather is row
  /// idx[row] of the source.
  template <int W>
  __device__ static ptrdiff_t src_offset(int k, const int *idx, int pitch) {
    if constexpr (K == pattern::sequential) {
      return ptrdiff_t(k) * W;
    } else {
      constexpr int per_row = Bytes / W;
      const int row = k / per_row, col = (k % per_row) * W;
      return (K == pattern::strided ? ptrdiff_t(row) : ptrdiff_t(idx[row])) *
                 pitch +
             col;
    }
  }

  /// Byte offset of access k in the destination (no index read: the stores
  /// of register staging need only this).
  template <int W> __device__ static int dst_offset(int k) {
    if constexpr (K == pattern::sequential) {
      return k * W;
    } else {
      constexpr int per_row = Bytes / W;
      return k / per_row * DstPitch + (k % per_row) * W;
    }
  }

  template <mechanism M, int W>
  __device__ void issue(int t, void *dst, const void *src, const int *idx,
                        int pitch) {
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    if constexpr (M == mechanism::bulk) {
      // Strided and indirect: one bulk copy per row; sequential: per chunk.
      constexpr int n = K != pattern::sequential ? Rows : (total + W - 1) / W;
      const unsigned bar = detail::smem_addr(&bar_.word);
      if (t == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::
                         "r"(bar),
                     "n"(total)
                     : "memory");
#pragma unroll
      for (int i = 0; i < (n + Threads - 1) / Threads; ++i) {
        const int c = t + i * Threads;
        if ((n % Threads == 0 || c < n)) {
          ptrdiff_t from;
          int to, size = W;
          if constexpr (K != pattern::sequential) {
            from = (K == pattern::strided ? ptrdiff_t(c) : ptrdiff_t(idx[c])) *
                   pitch;
            to = c * DstPitch;
          } else {
            from = to = c * W;
            if constexpr (total % W != 0)
              size = c == n - 1 ? total - (n - 1) * W : W;
          }
          copy_bulk(d + to, s + from, size, bar);
        }
      }
    } else {
      constexpr int vecs = total / W;
      constexpr int rounds = (vecs + Threads - 1) / Threads;
      if constexpr (M == mechanism::cp_async) {
#pragma unroll
        for (int i = 0; i < rounds; ++i) {
          const int k = t + i * Threads;
          if (vecs % Threads == 0 || i < rounds - 1 || k < vecs)
            copy_async<W>(d + dst_offset<W>(k),
                          s + src_offset<W>(k, idx, pitch));
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
      } else {
        // Registers: the first batch is loaded now (it is in flight during
        // the caller's other work); wait() stores it and copies the rest.
        dst_ = d;
        src_ = s;
        idx_ = idx;
        pitch_ = pitch;
        load_batch<W>(t, 0);
      }
    }
  }

  /// The mechanisms of a copy with an edge: the plan's, with cp.async for
  /// bulk (the bulk copy engine cannot zero-fill).
  static constexpr mechanism E0 = M0;
  static constexpr mechanism E1 = M1;
  static constexpr mechanism E2 =
      M2 == mechanism::bulk ? mechanism::cp_async : M2;

  /// The tile read from a window of a 2D array: access k's bytes come from
  /// byte x + col of row y + row of `base` (sequential copies: one row), and
  /// those outside [0, width) x [0, height) are zero.
  struct window {
    const char *base;
    int pitch, x, y, width, height;
  };

  __device__ void edge(void *dst, const char *base, int pitch, int x, int y,
                       int width, int height) {
    const int t = detail::thread_rank() - First;
    const window win{base, pitch, x, y, width, height};
    edge_ = true;
    if codegen ((int)__nvvm_arch >= 90) {
      issue_edge<E2>(t, static_cast<char *>(dst), win);
    } else if codegen ((int)__nvvm_arch >= 80) {
      issue_edge<E1>(t, static_cast<char *>(dst), win);
    } else {
      issue_edge<E0>(t, static_cast<char *>(dst), win);
    }
  }

  /// Access k of the tile in a window: its bytes that exist (0 to WR, a
  /// prefix of the access: x is a multiple of WR, so an access left of the
  /// image lies wholly left of it), where they are, and where they go.
  __device__ static int locate(int k, const window &win, const char **from,
                               int *to) {
    int row = 0, col = k * WR;
    if constexpr (K != pattern::sequential) {
      constexpr int per_row = Bytes / WR;
      row = k / per_row;
      col = (k % per_row) * WR;
    }
    *to = row * DstPitch + col;
    const int gx = win.x + col, gy = win.y + row;
    int n = win.width - gx;
    n = n > WR ? WR : n;
    if (gx < 0 || gy < 0 || gy >= win.height || n < 0)
      n = 0;
    // A source size of 0 reads nothing: the base stands in for an address
    // that may lie outside the array.
    *from = n ? win.base + ptrdiff_t(gy) * win.pitch + gx : win.base;
    return n;
  }

  template <mechanism M>
  __device__ void issue_edge(int t, char *d, const window &win) {
    constexpr int vecs = total / WR;
    if constexpr (M == mechanism::cp_async) {
#pragma unroll
      for (int i = 0; i < rounds_r; ++i) {
        const int k = t + i * Threads;
        if (vecs % Threads == 0 || i < rounds_r - 1 || k < vecs) {
          const char *p;
          int to;
          const int n = locate(k, win, &p, &to);
          if constexpr (WR == 16)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(
                             detail::smem_addr(d + to)),
                         "l"(p), "r"(n)
                         : "memory");
          else
            asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(
                             detail::smem_addr(d + to)),
                         "l"(p), "n"(WR), "r"(n)
                         : "memory");
        }
      }
      asm volatile("cp.async.commit_group;" ::: "memory");
    } else {
      // Registers: batches of loads, then their stores, as wait() does for
      // a whole tile; a partial access is assembled byte by byte, a missing
      // one is zero.
      using T = typename detail::vec_of<WR>::type;
#pragma unroll
      for (int b = 0; b < rounds_r; b += batch) {
        T v[batch];
        int to[batch];
#pragma unroll
        for (int j = 0; j < batch; ++j) {
          const int k = t + (b + j) * Threads;
          if (b + j < rounds_r && (vecs % Threads == 0 || k < vecs)) {
            const char *p;
            const int n = locate(k, win, &p, &to[j]);
            v[j] = n == WR ? detail::load<WR, C>(p) : detail::partial<WR>(p, n);
          }
        }
#pragma unroll
        for (int j = 0; j < batch; ++j) {
          const int k = t + (b + j) * Threads;
          if (b + j < rounds_r && (vecs % Threads == 0 || k < vecs))
            *reinterpret_cast<T *>(d + to[j]) = v[j];
        }
      }
    }
  }

  template <mechanism M> __device__ static void complete_edge() {
    if constexpr (M == mechanism::cp_async)
      asm volatile("cp.async.wait_group 0;" ::: "memory");
  }

  /// Waits for the mbarrier's current phase (bulk and tensor copies).
  __device__ void wait_barrier() {
    const unsigned bar = detail::smem_addr(&bar_.word);
    asm volatile("{\n\t.reg .pred done;\n"
                 "wait_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra wait_%=;\n}" ::"r"(bar),
                 "r"(phase_)
                 : "memory");
    phase_ ^= 1u;
  }

  template <mechanism M, int W> __device__ void complete(int t) {
    if constexpr (M == mechanism::bulk) {
      wait_barrier();
    } else if constexpr (M == mechanism::cp_async) {
      asm volatile("cp.async.wait_group 0;" ::: "memory");
    } else {
      constexpr int vecs = total / W;
      constexpr int rounds = (vecs + Threads - 1) / Threads;
      store_batch<W>(t, 0);
#pragma unroll
      for (int b = batch; b < rounds; b += batch) {
        load_batch<W>(t, b);
        store_batch<W>(t, b);
      }
    }
  }

  /// Register staging uses the widest access the spec allows on every
  /// architecture; batch: the accesses one thread holds at a time.
  static constexpr int WR = widest(description());
  static constexpr int rounds_r = (total / WR + Threads - 1) / Threads;
  static constexpr int batch =
      InFlight / WR < rounds_r ? InFlight / WR : rounds_r;

  /// Loads (then stores) the accesses of rounds [b, b + batch) of thread t.
  template <int W> __device__ void load_batch(int t, int b) {
    constexpr int vecs = total / W;
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      const int k = t + (b + j) * Threads;
      if (vecs % Threads == 0 || k < vecs)
        staged_[j] = detail::load<W, C>(src_ + src_offset<W>(k, idx_, pitch_));
    }
  }
  template <int W> __device__ void store_batch(int t, int b) {
    constexpr int vecs = total / W;
    using T = typename detail::vec_of<W>::type;
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      const int k = t + (b + j) * Threads;
      if (vecs % Threads == 0 || k < vecs)
        *reinterpret_cast<T *>(dst_ + dst_offset<W>(k)) = staged_[j];
    }
  }

  template <int W> __device__ static void copy_async(char *d, const char *s) {
    const unsigned to = detail::smem_addr(d);
    if constexpr (W == 16 && (C == cache::evict_first || C == cache::evict_last)) {
      unsigned long long pol;
      if constexpr (C == cache::evict_first)
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                     : "=l"(pol));
      else
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;"
                     : "=l"(pol));
      asm volatile(
          "cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(
              to),
          "l"(s), "l"(pol)
          : "memory");
    } else if constexpr (W == 16) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to),
                   "l"(s)
                   : "memory");
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to),
                   "l"(s), "n"(W)
                   : "memory");
    }
  }

  __device__ static void copy_bulk(char *d, const char *s, int size,
                                   unsigned bar) {
    if constexpr (C == cache::evict_first || C == cache::evict_last) {
      unsigned long long pol;
      if constexpr (C == cache::evict_first)
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                     : "=l"(pol));
      else
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;"
                     : "=l"(pol));
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_"
                   "tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
                       detail::smem_addr(d)),
                   "l"(s), "r"(size), "r"(bar), "l"(pol)
                   : "memory");
    } else {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_"
                   "tx::bytes [%0], [%1], %2, [%3];" ::"r"(detail::smem_addr(d)),
                   "l"(s), "r"(size), "r"(bar)
                   : "memory");
    }
  }

  barrier &bar_;
  unsigned phase_ = 0;
  bool edge_ = false;
  bool tensor_ = false;
  char *dst_ = nullptr;
  const char *src_ = nullptr;
  const int *idx_ = nullptr;
  int pitch_ = SrcPitch;
  typename detail::vec_of<WR>::type staged_[batch > 0 ? batch : 1];
};

} // namespace metacu::dma

// The meta part: names of metacu/dma/plan.h are qualified (dma::), as the
// host slice finds the declarations meta code uses by their qualified names.
namespace metacu::dma {
@meta struct plan_t {
  dma::spec s;
  /// The spelling of the copier type for this spec, with the mechanism of
  /// each architecture tier decided here.
  std::string type() const {
    std::string t = "metacu::dma::copier<metacu::dma::pattern::";
    t += dma::pattern_name(s.kind);
    for (int v : {s.bytes, s.rows, dma::src_pitch(s), dma::dst_pitch(s), s.align,
                  s.threads, s.first_thread,
                  s.block_threads ? s.block_threads : s.threads, s.barrier_id,
                  s.bytes_in_flight})
      t += ", " + std::to_string(v);
    return t + ", metacu::dma::cache::" + dma::cache_name(s.hint) +
           ", metacu::dma::mechanism::" + dma::mechanism_name(s.force) + ">";
  }
  /// What the copy does on each --arch target, to stderr.
  void diagnose() const {
    dma::describe_header(stderr, s);
    for (auto a : metacu::enum_values<nvvm_arch_t>())
      dma::describe(stderr, s, int(a));
  }
};
@meta plan_t plan(dma::spec s) {
  if (const char *e = dma::invalid(s); *e)
    throw metacu::error(std::string("metacu::dma: ") + e);
  for (auto a : metacu::enum_values<nvvm_arch_t>())
    if (const char *e = dma::refused(s, dma::tier_of(int(a))); *e)
      throw metacu::error("metacu::dma: on sm_" + std::to_string(int(a)) +
                          ": " + e);
  return plan_t{s};
}
}
