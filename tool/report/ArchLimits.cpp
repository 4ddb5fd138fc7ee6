//===- ArchLimits.cpp -----------------------------------------------------===//
//
// Limits: CUDA 13.0's cuda_occupancy.h (allocation units, carve-outs, block
// and barrier limits) and the CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability" (warps, shared memory per SM and
// per block). Devices: the vendors' datasheets; latencies are rounded
// microbenchmark figures, the model's least certain inputs.
//
//===----------------------------------------------------------------------===//
#include "report/ArchLimits.h"

#include "llvm/ADT/STLExtras.h"

namespace metacu::report {

static constexpr unsigned KiB = 1024;

// The carve-outs the occupancy rules round a shared-memory preference up to.
static constexpr unsigned TuringCarveouts[] = {32, 64};
static constexpr unsigned GA10xCarveouts[] = {0, 8, 16, 32, 64, 100};
static constexpr unsigned GA100Carveouts[] = {0, 8, 16, 32, 64, 100, 132, 164};
static constexpr unsigned HopperCarveouts[] = {0,   8,   16,  32,  64,
                                               100, 132, 164, 196, 228};

// Fields: CC, threads/block, warps/SM, blocks/SM, registers/SM,
// registers/block, registers/thread, register unit, sub-partitions, shared
// /SM, carve-outs, shared/block, shared/block opt-in, shared unit, reserved
// shared/block, barriers per block slot, L1 and shared memory /SM, device.
static const ArchLimits Table[] = {
    {75,
     1024,
     32,
     16,
     65536,
     65536,
     255,
     256,
     4,
     64 * KiB,
     TuringCarveouts,
     48 * KiB,
     64 * KiB,
     256,
     0,
     0,
     96 * KiB,
     {"Tesla T4", 40, 1.59, 320, 4u << 20, 64, 2, 64, 32, 600}},
    {80,
     1024,
     64,
     32,
     65536,
     65536,
     255,
     256,
     4,
     164 * KiB,
     GA100Carveouts,
     48 * KiB,
     163 * KiB,
     128,
     1 * KiB,
     0,
     192 * KiB,
     {"A100 SXM4 80GB", 108, 1.41, 2039, 40u << 20, 64, 32, 128, 64, 560}},
    {86,
     1024,
     48,
     16,
     65536,
     65536,
     255,
     256,
     4,
     100 * KiB,
     GA10xCarveouts,
     48 * KiB,
     99 * KiB,
     128,
     1 * KiB,
     0,
     128 * KiB,
     {"GeForce RTX 3090", 82, 1.695, 936, 6u << 20, 128, 2, 128, 32, 550}},
    {87,
     1024,
     48,
     16,
     65536,
     65536,
     255,
     256,
     4,
     164 * KiB,
     GA100Carveouts,
     48 * KiB,
     163 * KiB,
     128,
     1 * KiB,
     0,
     192 * KiB,
     {"Jetson AGX Orin 64GB", 16, 1.3, 204.8, 4u << 20, 128, 2, 128, 32, 500}},
    {89,
     1024,
     48,
     24,
     65536,
     65536,
     255,
     256,
     4,
     100 * KiB,
     GA10xCarveouts,
     48 * KiB,
     99 * KiB,
     128,
     1 * KiB,
     0,
     128 * KiB,
     {"L40S", 142, 2.52, 864, 96u << 20, 128, 2, 128, 32, 600}},
    {90,
     1024,
     64,
     32,
     65536,
     65536,
     255,
     256,
     4,
     228 * KiB,
     HopperCarveouts,
     48 * KiB,
     227 * KiB,
     128,
     1 * KiB,
     2,
     256 * KiB,
     // H200: the same SM and clock, 4800 GB/s of HBM3e.
     {"H100 SXM5 80GB", 132, 1.98, 3350, 50u << 20, 128, 64, 128, 64, 700}},
    {100,
     1024,
     64,
     32,
     65536,
     65536,
     255,
     256,
     4,
     228 * KiB,
     HopperCarveouts,
     48 * KiB,
     227 * KiB,
     128,
     1 * KiB,
     2,
     256 * KiB,
     {"B200", 148, 1.965, 8000, 126u << 20, 128, 64, 128, 64, 700}},
    {120,
     1024,
     48,
     24,
     65536,
     65536,
     255,
     256,
     4,
     100 * KiB,
     GA10xCarveouts,
     48 * KiB,
     99 * KiB,
     128,
     1 * KiB,
     1,
     128 * KiB,
     {"GeForce RTX 5090", 170, 2.407, 1792, 96u << 20, 128, 2, 128, 32, 650}},
};

const ArchLimits *archLimits(unsigned CC) {
  const ArchLimits *It =
      llvm::find_if(Table, [&](const ArchLimits &L) { return L.CC == CC; });
  return It == std::end(Table) ? nullptr : It;
}

llvm::ArrayRef<ArchLimits> allArchLimits() { return Table; }

} // namespace metacu::report
