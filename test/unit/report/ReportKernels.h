//===- ReportKernels.h - Small kernels' PTX for the report's tests --------===//
//
// GuardedKernelPtx: nvcc's shapes of guards on the thread's place: an if on
// the lane, an if on the first warp holding an if on thread 0 (both ending
// at one label), an if-else on threadIdx.x < 64, a load predicated on
// threadIdx.x + 256 < 300, and a store predicated on a loaded value, which
// the thread's place does not decide. ColumnStencilPtx: a 32 x 8 block's
// threads each load a float and the ones a row above and below it, from a
// pitch parameter, so blocks one row of blocks apart load two rows alike.
// tileMovePtx(): a block of 16 x R threads moves a 16 x R tile of an 8192
// x 8192 float matrix, read row by row, written where a transpose puts it
// (rows of 64 bytes that the blocks beside it do not continue) or where a
// copy does. sharedRead(): a shared load at an index of the thread's place,
// for bank conflicts. countingTo(): a loop's trip count from 0 to a limit. Read
// by PtxCountsTest, BlockCountsTest, ModelTest and DiagnoseTest, with
// entryWith(), which reads a small kernel of their own.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TEST_UNIT_REPORT_REPORTKERNELS_H
#define METACU_TEST_UNIT_REPORT_REPORTKERNELS_H

#include "report/PtxCounts.h"

#include <gtest/gtest.h>
#include <string>

inline constexpr const char *GuardedKernelPtx = R"(
.visible .entry guarded(
	.param .u64 guarded_param_0
)
{
	mov.u32 	%r1, %tid.x;
	ld.global.u32 	%r2, [%rd1];
	and.b32  	%r3, %r1, 31;
	setp.ne.s32 	%p1, %r3, 0;
	@%p1 bra 	$L__BB0_2;
	st.shared.u32 	[%r4], %r2;
$L__BB0_2:
	bar.sync 	0;
	setp.gt.u32 	%p2, %r1, 31;
	@%p2 bra 	$L__BB0_4;
	ld.shared.u32 	%r5, [%r6];
	setp.ne.s32 	%p3, %r1, 0;
	@%p3 bra 	$L__BB0_4;
	st.global.u32 	[%rd2], %r5;
$L__BB0_4:
	setp.lt.u32 	%p4, %r1, 64;
	@%p4 bra 	$L__BB0_6;
	st.global.f32 	[%rd1], %f1;
	bra.uni 	$L__BB0_7;
$L__BB0_6:
	st.global.v2.f32 	[%rd1], {%f1, %f2};
$L__BB0_7:
	add.s32 	%r7, %r1, 256;
	setp.lt.u32 	%p5, %r7, 300;
	@%p5 ld.global.f32 	%f3, [%rd3];
	setp.eq.s32 	%p6, %r2, 0;
	@%p6 st.global.f32 	[%rd1], %f3;
	ret;
}
)";

inline constexpr const char *ColumnStencilPtx = R"(
.visible .entry column(
	.param .u64 column_param_0,
	.param .u32 column_param_1
)
{
	ld.param.u64 	%rd1, [column_param_0];
	ld.param.u32 	%r1, [column_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %ctaid.y;
	mov.u32 	%r3, %tid.y;
	shl.b32 	%r4, %r2, 3;
	add.s32 	%r5, %r4, %r3;
	mov.u32 	%r6, %ctaid.x;
	mov.u32 	%r7, %tid.x;
	shl.b32 	%r8, %r6, 5;
	add.s32 	%r9, %r8, %r7;
	mad.lo.s32 	%r10, %r5, %r1, %r9;
	mul.wide.s32 	%rd3, %r10, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mul.wide.s32 	%rd5, %r1, 4;
	sub.s64 	%rd6, %rd4, %rd5;
	add.s64 	%rd7, %rd4, %rd5;
	ld.global.nc.f32 	%f1, [%rd6];
	ld.global.nc.f32 	%f2, [%rd4];
	ld.global.nc.f32 	%f3, [%rd7];
	add.f32 	%f4, %f1, %f2;
	add.f32 	%f5, %f4, %f3;
	st.global.f32 	[%rd4], %f5;
	ret;
}
)";

inline std::string tileMovePtx(bool Transposed) {
  return std::string(R"(
.visible .entry tilemove(
	.param .u64 tilemove_param_0,
	.param .u64 tilemove_param_1
)
{
	ld.param.u64 	%rd1, [tilemove_param_0];
	ld.param.u64 	%rd2, [tilemove_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ctaid.y;
	mov.u32 	%r3, %tid.x;
	mov.u32 	%r4, %tid.y;
	shl.b32 	%r5, %r1, 4;
	shl.b32 	%r6, %r2, 4;
	add.s32 	%r7, %r6, %r4;
	add.s32 	%r8, %r5, %r3;
	mad.lo.s32 	%r9, %r7, 8192, %r8;
	mul.wide.s32 	%rd5, %r9, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.nc.f32 	%f1, [%rd6];
	add.s32 	%r10, %r5, %r4;
	add.s32 	%r11, %r6, %r3;
	mad.lo.s32 	%r12, %r10, 8192, %r11;
	mul.wide.s32 	%rd7, )") +
         (Transposed ? "%r12" : "%r9") + R"(, 4;
	add.s64 	%rd8, %rd3, %rd7;
	st.global.f32 	[%rd8], %f1;
	ret;
}
)";
}

/// A softmax's shape: each block of 32 threads walks its own row of 2048
/// floats (8 KiB, rows 8 KiB apart by %ctaid.x) twice, in two loops of 64
/// passes, one float a thread a pass; the second walk finds in L1 what the
/// first loaded, or not.
inline constexpr const char *TwoWalksPtx = R"(
.visible .entry twice(
	.param .u64 twice_param_0
)
{
	ld.param.u64 	%rd1, [twice_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r4, %ctaid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	mul.wide.u32 	%rd6, %r4, 8192;
	add.s64 	%rd7, %rd3, %rd6;
	add.s64 	%rd4, %rd2, %rd7;
	mov.u32 	%r2, 0;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd4];
	add.s64 	%rd4, %rd4, 128;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 64;
	@%p1 bra 	$L__BB0_1;
	add.s64 	%rd5, %rd2, %rd7;
	mov.u32 	%r3, 0;
$L__BB0_2:
	ld.global.f32 	%f2, [%rd5];
	add.s64 	%rd5, %rd5, 128;
	add.s32 	%r3, %r3, 1;
	setp.lt.s32 	%p2, %r3, 64;
	@%p2 bra 	$L__BB0_2;
	ret;
}
)";

/// The counts of an entry whose instructions are Body (before its 'ret'),
/// read without error.
inline metacu::report::KernelCounts entryWith(const std::string &Body) {
  auto Kernels = metacu::report::countPtx(".visible .entry k()\n{\n" + Body +
                                          "\tret;\n}\n");
  if (!Kernels) {
    ADD_FAILURE() << llvm::toString(Kernels.takeError());
    return {};
  }
  EXPECT_EQ(Kernels->size(), 1u);
  return Kernels->front();
}

// A kernel that reads its shared array at Index (a PTX expression of %r1,
// threadIdx.x, and %r2, threadIdx.y, into %r3) times Bytes bytes, Bytes a
// lane.
inline metacu::report::KernelCounts sharedRead(const std::string &Index, unsigned Bytes) {
  std::string Type = Bytes == 4 ? "f32" : Bytes == 8 ? "v2.f32" : "v4.f32";
  std::string Dest = Bytes == 4   ? "%f1"
                     : Bytes == 8 ? "{%f1, %f2}"
                                  : "{%f1, %f2, %f3, %f4}";
  return entryWith("\t.shared .align 16 .b8 smem[32768];\n"
                   "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n" +
                   Index + "\tmul.lo.s32 %r4, %r3, " + std::to_string(Bytes) +
                   ";\n\tmov.u32 %r5, smem;\n\tadd.s32 %r6, %r5, %r4;\n" +
                   "\tld.shared." + Type + " " + Dest + ", [%r6+" +
                   std::to_string(Bytes) + "];\n");
}

/// A node of \p Values holding the 32-bit constant \p C.
inline unsigned constantNode(metacu::report::ThreadValues &Values, int64_t C) {
  metacu::report::ValueNode N{metacu::report::ValueOp::Constant, 32};
  N.Constant = C;
  return Values.add(N);
}

/// The trip count of 'for (int i = 0; i < Limit; ++i)', Limit a node of
/// \p Values.
inline metacu::report::TripCount
countingTo(metacu::report::ThreadValues &Values, unsigned Limit) {
  return {constantNode(Values, 0),
          constantNode(Values, 1),
          Limit,
          metacu::report::ValueOp::Less,
          32,
          true,
          true,
          false};
}

#endif
