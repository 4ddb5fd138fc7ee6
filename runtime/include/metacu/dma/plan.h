// metacu/dma/plan.h: the description of a metacu::dma copy and its
// lowering per architecture. Plain C++17 (no CUDA): metacu's generator
// program compiles it for dma.cuh's meta code, and host code calls
// describe() at run time, so both print the same diagnosis.
#pragma once
#include <cstdio>

namespace metacu::dma {

enum class pattern : int { sequential, strided, indirect };
/// How the bytes move: through registers (LDG/STS), cp.async, or the bulk
/// copy engine (cp.async.bulk with an mbarrier; tensor: one
/// cp.async.bulk.tensor for a strided window, with a tensor map).
enum class mechanism : int { automatic, registers, cp_async, bulk, tensor };
/// Cache hints on the global reads.
enum class cache : int {
  normal,
  non_coherent, // read-only path (ld.global.nc)
  evict_first,  // L2 evict-first (streaming data)
  evict_last,   // L2 evict-last (data read again)
  no_allocate   // no L1 allocation
};

/// One copy, every size a generation-time constant. Fields in declaration
/// order, for designated initializers.
struct spec {
  pattern kind = pattern::sequential;
  /// sequential: bytes of the block; strided: bytes of one row; indirect:
  /// bytes of one gathered element (a row of the table).
  int bytes = 0;
  /// strided: rows of the tile; indirect: elements gathered.
  int rows = 1;
  /// strided: bytes between source rows, and between destination rows
  /// (0: rows are packed). indirect: bytes from one row of the table to the
  /// next (element e is read from src + idx[e] * src_pitch), and between
  /// the gathered elements in shared memory.
  int src_pitch = 0;
  int dst_pitch = 0;
  /// Alignment in bytes guaranteed for the source and destination addresses
  /// (and pitches): the widest access the copy may use.
  int align = 4;
  /// Threads copying, from first_thread on; block_threads is the block's
  /// size (0: the same as threads). block_threads > threads is warp
  /// specialization: the copying threads are producers, the others
  /// consumers, and they meet at named barriers barrier_id and barrier_id+1.
  int threads = 128;
  int first_thread = 0;
  int block_threads = 0;
  int barrier_id = 1;
  /// Shared memory available to the destination, in bytes.
  int smem_bytes = 48 * 1024;
  /// Bytes one thread may hold in registers at a time (register staging).
  int bytes_in_flight = 64;
  cache hint = cache::normal;
  /// Forces one mechanism on every architecture that has it (measurement).
  mechanism force = mechanism::automatic;
};

/// What the copy does on one architecture.
struct lowering {
  mechanism mech = mechanism::registers;
  int width = 4;        // bytes per instruction (per bulk copy: chunk)
  int insts = 0;        // copy instructions per copying thread (at most)
  int in_flight = 0;    // bytes in flight per thread
  int regs = 0;         // 32-bit registers holding data
  bool guarded = false; // the last round is guarded (a ragged edge)
  const char *why = "";
  /// Strided copies: start_window() with an image_map issues one tensor
  /// copy (cp.async.bulk.tensor) for the whole window; why_not if not.
  bool tensor = false;
  const char *why_not_tensor = "";
};

constexpr const char *name(mechanism m) {
  return m == mechanism::registers  ? "registers (LDG/STS)"
         : m == mechanism::cp_async ? "cp.async"
         : m == mechanism::bulk     ? "cp.async.bulk + mbarrier"
         : m == mechanism::tensor   ? "cp.async.bulk.tensor + mbarrier"
                                    : "automatic";
}

constexpr int total_bytes(const spec &s) {
  return s.kind == pattern::sequential ? s.bytes : s.bytes * s.rows;
}
constexpr int src_pitch(const spec &s) {
  return s.src_pitch ? s.src_pitch : s.bytes;
}
constexpr int dst_pitch(const spec &s) {
  return s.dst_pitch ? s.dst_pitch : s.bytes;
}
/// Bytes of shared memory the destination spans.
constexpr int footprint(const spec &s) {
  return s.kind != pattern::sequential ? (s.rows - 1) * dst_pitch(s) + s.bytes
                                       : total_bytes(s);
}
constexpr bool divides(int w, int n) { return n % w == 0; }
/// The widest access (16, 8, 4, 2 or 1 bytes) that the alignment allows and
/// that divides every size and pitch of the copy.
constexpr int widest(const spec &s) {
  for (int w = 16; w > 1; w /= 2)
    if (s.align % w == 0 && divides(w, s.bytes) &&
        (s.kind == pattern::sequential ||
         (divides(w, src_pitch(s)) && divides(w, dst_pitch(s)))))
      return w;
  return 1;
}

/// Strided rows shorter than this take cp.async on sm_90 rather than one
/// bulk or tensor copy per row or window: on an H100, 160-byte rows staged
/// by bulk copies took 1.38x the time of cp.async, by a tensor copy 1.07x;
/// from 288 bytes on the tensor copy was the faster (docs/dma.md).
constexpr int bulk_row_min = 256;

/// Largest box dimension of a tensor map, in elements (4-byte elements for
/// metacu::dma's maps).
constexpr int tensor_box_limit = 256;

/// Why a strided window cannot be one tensor copy on sm_90 (empty: it can).
/// The tensor map describes the image as 4-byte elements, and the copy
/// engine writes the box densely into shared memory.
constexpr const char *tensor_refusal(const spec &s) {
  if (s.kind != pattern::strided)
    return "tensor-map copies are for strided copies";
  if (widest(s) < 16)
    return "a tensor map needs 16-byte alignment of the image, its pitch, "
           "the window's x and the row";
  if (dst_pitch(s) != s.bytes)
    return "the copy engine writes the window's rows packed: dst_pitch must "
           "equal bytes";
  if (s.bytes / 4 > tensor_box_limit || s.rows > tensor_box_limit)
    return "a tensor map's box is at most 256 elements (1024 bytes) wide and "
           "256 rows high";
  return "";
}

/// The tier of an architecture: 0 below sm_80, 1 sm_80 to sm_89 (cp.async),
/// 2 from sm_90 (bulk copies).
constexpr int tier_of(int arch) { return arch >= 90 ? 2 : arch >= 80 ? 1 : 0; }

/// An error in the description (empty: none). The checks that do not depend
/// on the architecture.
constexpr const char *invalid(const spec &s) {
  if (s.bytes <= 0 || s.rows <= 0)
    return "the copy has no bytes (bytes and rows must be positive)";
  if (s.align <= 0 || (s.align & (s.align - 1)))
    return "align must be a power of two";
  if (s.threads <= 0 || s.threads > 1024)
    return "threads must be between 1 and 1024";
  const int block = s.block_threads ? s.block_threads : s.threads;
  if (s.first_thread < 0 || s.first_thread + s.threads > block || block > 1024)
    return "the copying threads do not fit in block_threads (at most 1024)";
  if (block != s.threads && (s.threads % 32 || s.first_thread % 32))
    return "warp specialization needs whole producer warps (threads and "
           "first_thread multiples of 32)";
  if (block != s.threads && block % 32)
    return "named barriers count whole warps: block_threads must be a "
           "multiple of 32";
  if (block != s.threads && (s.barrier_id < 1 || s.barrier_id > 14))
    return "barrier_id must be between 1 and 14 (0 is __syncthreads)";
  if (s.kind != pattern::sequential &&
      (src_pitch(s) < s.bytes || dst_pitch(s) < s.bytes))
    return "a pitch is smaller than the row";
  if (footprint(s) > s.smem_bytes)
    return "the tile does not fit in the shared memory given (smem_bytes)";
  if (s.bytes_in_flight < widest(s))
    return "bytes_in_flight is smaller than one access of the copy";
  return "";
}

/// Why the forced mechanism cannot run where it is forced (empty: it can).
constexpr const char *refused(const spec &s, int tier) {
  if (s.force == mechanism::cp_async && tier >= 1 && widest(s) < 4)
    return "cp.async needs 4-byte alignment of every address, size and pitch "
           "(align or sizes too small)";
  if (s.force == mechanism::bulk && tier == 2) {
    if (widest(s) < 16)
      return "cp.async.bulk needs 16-byte alignment of every address, size "
             "and pitch (align or sizes too small)";
  }
  if (s.force == mechanism::tensor && tier == 2)
    return tensor_refusal(s);
  return "";
}

/// The lowering on one architecture.
constexpr lowering lower(const spec &s, int arch) {
  lowering l;
  const int tier = tier_of(arch);
  const int w = widest(s);
  const int total = total_bytes(s);
  mechanism m = s.force;
  if (tier == 2 && s.kind == pattern::strided) {
    // Only a window with a tensor map can take the tensor copy; forcing
    // another mechanism keeps it off, for measurement.
    const char *no = tensor_refusal(s);
    if (!*no && m == mechanism::automatic && s.bytes < bulk_row_min)
      no = "rows under 256 bytes: cp.async";
    l.tensor = (m == mechanism::automatic || m == mechanism::tensor) && !*no;
    l.why_not_tensor = *no ? no : l.tensor ? "" : "another mechanism is forced";
  }
  // A plain start() has no tensor map: a forced tensor copy is a bulk one.
  if (m == mechanism::tensor)
    m = tier == 2 ? mechanism::bulk : mechanism::automatic;
  if (m == mechanism::bulk && tier < 2)
    m = mechanism::automatic;
  if (m == mechanism::cp_async && tier < 1)
    m = mechanism::automatic;
  if (m == mechanism::automatic) {
    if (tier == 2 && w >= 16 && s.kind != pattern::indirect &&
        (s.kind == pattern::sequential || s.bytes >= bulk_row_min)) {
      m = mechanism::bulk;
      l.why = "sm_90+: 16-byte aligned sizes and addresses, the bulk copy "
              "engine moves the tile without registers";
    } else if (tier >= 1 && w >= 4) {
      m = mechanism::cp_async;
      l.why = tier == 1 ? "sm_80-89: cp.async, no registers staged"
              : w < 16  ? "sm_90+: not 16-byte aligned, so no bulk copy; "
                          "cp.async"
              : s.kind == pattern::indirect
                  ? "sm_90+: a gather; cp.async (one bulk copy per element "
                    "measured no faster on an H100, 128-byte to 1 KiB "
                    "elements)"
                  : "sm_90+: rows under 256 bytes; cp.async";
    } else {
      m = mechanism::registers;
      l.why = tier == 0 ? "sm_75: no asynchronous copy; loads staged in "
                          "registers"
                        : "under 4-byte alignment cp.async cannot be used; "
                          "loads staged in registers";
    }
  } else {
    l.why = "forced by the spec";
  }
  l.mech = m;
  const int copiers = s.threads;
  if (m == mechanism::bulk) {
    // One bulk copy per row (strided), per element (indirect) or per chunk
    // of the block, spread over the copying threads.
    const bool per_row = s.kind != pattern::sequential;
    const int chunks = per_row                   ? s.rows
                       : total >= 4096 * copiers ? copiers
                       : total / 4096 > 0        ? total / 4096
                                                 : 1;
    l.width = per_row ? s.bytes : ((total / chunks + 15) / 16) * 16;
    const int n = per_row ? s.rows : (total + l.width - 1) / l.width;
    l.insts = (n + copiers - 1) / copiers;
    l.guarded = n % copiers != 0;
    l.in_flight = l.insts * l.width;
    l.regs = 0;
    return l;
  }
  l.width = w;
  const int vecs = total / w;
  const int per_thread = (vecs + copiers - 1) / copiers;
  l.insts = per_thread;
  l.guarded = vecs % copiers != 0;
  if (m == mechanism::registers) {
    const int per_round = s.bytes_in_flight / w;
    const int held = per_round < per_thread ? per_round : per_thread;
    l.in_flight = held * w;
    l.regs = held * w / 4 > 0 ? held * w / 4 : 1;
  } else {
    l.in_flight = per_thread * w;
    l.regs = 0;
  }
  return l;
}

inline const char *cache_name(cache c) {
  return c == cache::non_coherent  ? "non_coherent"
         : c == cache::evict_first ? "evict_first"
         : c == cache::evict_last  ? "evict_last"
         : c == cache::no_allocate ? "no_allocate"
                                   : "normal";
}
/// The enumerator's name, as it is spelled in code.
inline const char *mechanism_name(mechanism m) {
  return m == mechanism::registers  ? "registers"
         : m == mechanism::cp_async ? "cp_async"
         : m == mechanism::bulk     ? "bulk"
         : m == mechanism::tensor   ? "tensor"
                                    : "automatic";
}

inline const char *pattern_name(pattern p) {
  return p == pattern::sequential ? "sequential"
         : p == pattern::strided  ? "strided"
                                  : "indirect";
}

/// Prints what the copy does on one architecture.
inline void describe(FILE *out, const spec &s, int arch) {
  const lowering l = lower(s, arch);
  std::fprintf(out,
               "  sm_%d: %s, %d-byte %s, %d per thread, %d bytes in flight "
               "per thread, %d data registers, edge %s; %s\n",
               arch, name(l.mech), l.width,
               l.mech == mechanism::bulk ? "copies" : "accesses", l.insts,
               l.in_flight, l.regs,
               l.guarded ? "guarded (the threads do not divide the work evenly)"
                         : "unguarded",
               l.why);
  if (s.kind == pattern::strided && tier_of(arch) == 2) {
    if (l.tensor)
      std::fprintf(out, "    start_window with an image_map: one "
                        "cp.async.bulk.tensor for the window, zero fill "
                        "outside the image by the copy engine\n");
    else
      std::fprintf(out,
                   "    start_window with an image_map: no tensor copy (%s)\n",
                   l.why_not_tensor);
  }
}

inline void describe_header(FILE *out, const spec &s) {
  std::fprintf(out,
               "metacu::dma %s copy: %d bytes x %d, pitch %d -> %d, align "
               "%d, %d of %d threads from %d\n",
               pattern_name(s.kind), s.bytes, s.rows, src_pitch(s),
               dst_pitch(s), s.align, s.threads,
               s.block_threads ? s.block_threads : s.threads, s.first_thread);
}

} // namespace metacu::dma
