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

#include <cstdint>
#include <initializer_list>

namespace metacu::dma {

/// The shared state of a copy (the mbarrier of bulk copies).
struct barrier {
  unsigned long long word;
};

namespace detail {

template <int W> struct vec_of;
template <> struct vec_of<16> { using type = uint4; };
template <> struct vec_of<8> { using type = uint2; };
template <> struct vec_of<4> { using type = unsigned; };
template <> struct vec_of<2> { using type = unsigned short; };
template <> struct vec_of<1> { using type = unsigned char; };

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
      if constexpr (M2 == mechanism::bulk) {
        if (threadIdx.x == First) {
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
           threadIdx.x - unsigned(First) < unsigned(Threads);
  }

  /// Starts the copy of src to dst (shared memory); copying threads only.
  /// idx: the element indices of an indirect copy.
  __device__ void start(void *dst, const void *src, const int *idx = nullptr) {
    const int t = int(threadIdx.x) - First;
    if codegen ((int)__nvvm_arch >= 90) {
      issue<M2, W2>(t, dst, src, idx);
    } else if codegen ((int)__nvvm_arch >= 80) {
      issue<M1, W1>(t, dst, src, idx);
    } else {
      issue<M0, W0>(t, dst, src, idx);
    }
  }

  /// start() for a tile cut short at run time (the edge of the data):
  /// sequential, only the first `valid` bytes of the block exist; strided,
  /// only the first `valid` bytes of each row and the first `valid_rows`
  /// rows. The rest of the tile is zero-filled through cp.async's source
  /// size, so it needs sm_80 or newer and 4-byte alignment (a compile error
  /// otherwise). Each access computes its valid bytes: the one copy with a
  /// run-time guard. The bulk copy engine cannot zero-fill, so sm_90 takes
  /// cp.async here. wait() completes it as any other.
  __device__ void start_edge(void *dst, const void *src, int valid,
                             int valid_rows = Rows) {
    static_assert(K != pattern::indirect,
                  "metacu::dma: start_edge is for sequential and strided "
                  "copies");
    const int t = int(threadIdx.x) - First;
    edge_ = true;
    if codegen ((int)__nvvm_arch >= 90) {
      issue_edge<E2>(t, dst, src, valid, valid_rows);
    } else if codegen ((int)__nvvm_arch >= 80) {
      issue_edge<E1>(t, dst, src, valid, valid_rows);
    } else if codegen ((int)__nvvm_arch != 0) {
      // The host pass (0) compiles no device code, nor this instantiation.
      issue_edge<E0>(t, dst, src, valid, valid_rows);
    }
  }

  /// Waits until this thread's part of the copy has landed; then the
  /// copying threads (all-threads use: the block) synchronize, so every one
  /// of them sees the whole tile. Warp-specialized: producers signal the
  /// consumers (consumer_wait()).
  __device__ void wait() {
    const int t = int(threadIdx.x) - First;
    if (edge_) {
      // start_edge() used cp.async, or copied through registers already.
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
  __device__ void copy(void *dst, const void *src, const int *idx = nullptr) {
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
  /// Byte offsets of access k in the source and the destination.
  template <int W> __device__ static void offsets(int k, int *from, int *to,
                                                  const int *idx) {
    if constexpr (K == pattern::sequential) {
      *from = *to = k * W;
    } else {
      constexpr int per_row = Bytes / W;
      const int row = k / per_row, col = (k % per_row) * W;
      if constexpr (K == pattern::strided)
        *from = row * SrcPitch + col;
      else
        *from = idx[row] * Bytes + col;
      *to = row * (K == pattern::strided ? DstPitch : Bytes) + col;
    }
  }

  template <mechanism M, int W>
  __device__ void issue(int t, void *dst, const void *src, const int *idx) {
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    if constexpr (M == mechanism::bulk) {
      constexpr int n = K == pattern::strided ? Rows : (total + W - 1) / W;
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
          int from, to, size = W;
          if constexpr (K == pattern::strided) {
            from = c * SrcPitch;
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
          if (vecs % Threads == 0 || i < rounds - 1 || k < vecs) {
            int from, to;
            offsets<W>(k, &from, &to, idx);
            copy_async<W>(d + to, s + from);
          }
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
      } else {
        // Registers: the first batch is loaded now (it is in flight during
        // the caller's other work); wait() stores it and copies the rest.
        dst_ = d;
        src_ = s;
        idx_ = idx;
        load_batch<W>(t, 0);
      }
    }
  }

  /// The mechanisms of start_edge(): the plan's, with cp.async for bulk.
  static constexpr mechanism E0 = M0;
  static constexpr mechanism E1 = M1;
  static constexpr mechanism E2 =
      M2 == mechanism::bulk ? mechanism::cp_async : M2;

  /// Bytes of access k (of WR bytes) that exist, 0 to WR.
  __device__ static int available(int k, int valid, int valid_rows) {
    int left;
    if constexpr (K == pattern::sequential) {
      left = valid - k * WR;
    } else {
      constexpr int per_row = Bytes / WR;
      left = k / per_row < valid_rows ? valid - (k % per_row) * WR : 0;
    }
    return left < 0 ? 0 : left > WR ? WR : left;
  }

  template <mechanism M>
  __device__ void issue_edge(int t, void *dst, const void *src, int valid,
                             int valid_rows) {
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    constexpr int vecs = total / WR;
#pragma unroll
    for (int i = 0; i < rounds_r; ++i) {
      const int k = t + i * Threads;
      if (vecs % Threads == 0 || i < rounds_r - 1 || k < vecs) {
        int from, to;
        offsets<WR>(k, &from, &to, nullptr);
        const int n = available(k, valid, valid_rows);
        if constexpr (M == mechanism::cp_async) {
          // A source size of 0 reads nothing: the base stands in for an
          // address that may lie past the data.
          const char *p = n ? s + from : s;
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
        } else {
          // Register staging has no zero-filling form here: a byte-wise
          // version gave wrong bytes past the edge when run (compute_75 PTX
          // on an H100, 2026-11-23) and the cause is not known yet.
          static_assert(M == mechanism::cp_async,
                        "metacu::dma: start_edge needs cp.async (sm_80 or "
                        "newer, 4-byte alignment); guard it with if codegen "
                        "(__nvvm_arch >= 80)");
        }
      }
    }
    if constexpr (M == mechanism::cp_async)
      asm volatile("cp.async.commit_group;" ::: "memory");
  }

  template <mechanism M> __device__ static void complete_edge() {
    if constexpr (M == mechanism::cp_async)
      asm volatile("cp.async.wait_group 0;" ::: "memory");
  }

  template <mechanism M, int W> __device__ void complete(int t) {
    if constexpr (M == mechanism::bulk) {
      const unsigned bar = detail::smem_addr(&bar_.word);
      asm volatile("{\n\t.reg .pred done;\n"
                   "wait_%=:\n\t"
                   "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                   "@!done bra wait_%=;\n}" ::"r"(bar),
                   "r"(phase_)
                   : "memory");
      phase_ ^= 1u;
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
      if (vecs % Threads == 0 || k < vecs) {
        int from, to;
        offsets<W>(k, &from, &to, idx_);
        staged_[j] = detail::load<W, C>(src_ + from);
      }
    }
  }
  template <int W> __device__ void store_batch(int t, int b) {
    constexpr int vecs = total / W;
    using T = typename detail::vec_of<W>::type;
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      const int k = t + (b + j) * Threads;
      if (vecs % Threads == 0 || k < vecs) {
        int from, to;
        offsets<W>(k, &from, &to, idx_);
        *reinterpret_cast<T *>(dst_ + to) = staged_[j];
      }
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
  char *dst_ = nullptr;
  const char *src_ = nullptr;
  const int *idx_ = nullptr;
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
