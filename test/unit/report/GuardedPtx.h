//===- GuardedPtx.h - A kernel whose instructions thread guards select ----===//
//
// nvcc's shapes of guards on the thread's place: an if on the lane, an if on
// the first warp holding an if on thread 0 (both ending at one label), an
// if-else on threadIdx.x < 64, a load predicated on threadIdx.x + 256 < 300,
// and a store predicated on a loaded value, which the thread's place does
// not decide. Read by PtxCountsTest (what is counted apart) and
// BlockCountsTest (what a block executes), with entryWith(), which reads a
// small kernel of their own.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TEST_UNIT_REPORT_GUARDEDPTX_H
#define METACU_TEST_UNIT_REPORT_GUARDEDPTX_H

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

#endif
