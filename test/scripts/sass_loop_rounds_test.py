#!/usr/bin/env python3
"""scripts/gpu/model/sass_loop_rounds.py: the rounds of loads in a loop.

A loop whose first loads go out together and whose use of one of them
comes before the rest (two rounds), a loop whose second load's address
is the first's value (a pointer chase: two rounds), code outside loops
(not counted), and gemv.cu's kernel written out for one configuration with
no meta construct left.

usage: sass_loop_rounds_test.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "gpu", "model"))
import sass_loop_rounds as s  # noqa: E402

SASS = """
        Function : two_rounds
        /*0000*/                   LDG.E R9, desc[UR4][R2.64] ;
        /*0010*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0020*/                   LDG.E R10, desc[UR4][R2.64+0x80] ;
        /*0030*/                   FFMA R12, R4, R10, R12 ;
        /*0040*/                   LDG.E R11, desc[UR4][R2.64+0x100] ;
        /*0050*/                   LDG.E R13, desc[UR4][R2.64+0x180] ;
        /*0060*/                   FFMA R12, R7, R11, R12 ;
        /*0070*/                   IADD3 R2, P0, R2, 0x200, RZ ;
        /*0080*/                   ISETP.GE.AND P0, PT, R2, 0xf80, PT ;
        /*0090*/              @!P0 BRA 0x10 ;
        /*00a0*/                   EXIT ;
        Function : chase
        /*0000*/                   LDG.E.64 R4, desc[UR4][R2.64] ;
        /*0010*/                   LDG.E R6, desc[UR4][R4.64] ;
        /*0020*/                   MOV R2, R4 ;
        /*0030*/                   ISETP.NE.AND P0, PT, R6, RZ, PT ;
        /*0040*/               @P0 BRA 0x0 ;
        /*0050*/                   EXIT ;
"""


def main():
    lines = s.report(SASS)
    want = [
        "two_rounds loop 0010-0090: 2 rounds, LDGs [2, 2] (4)",
        "chase loop 0000-0040: 2 rounds, LDGs [1, 1] (2)",
    ]
    if lines != want:
        sys.exit("got %r, want %r" % (lines, want))
    src = s.gemv_kernel(32, 4, 4, 2)
    for token in ("@", "tune_space", "float2 ", "constexpr int rpt = 4;"):
        present = token in src
        if present != (token in ("float2 ", "constexpr int rpt = 4;")):
            sys.exit("gemv kernel: %r %s" % (token, "present" if present else "missing"))
    print("ok")


if __name__ == "__main__":
    main()
