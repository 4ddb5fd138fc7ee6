#!/usr/bin/env python3
# A stand-in for Clang's CUDA front end as run.py's --clang runs it on the
# bundle's harness (tool/tune/run.py, clang_harness), for the tests with
# Inputs/fake-nvcc.py: its host-side object is what fake-nvcc.py's -c
# writes (the source's path, which fake-nvcc.py's link makes a harness
# of), and its device side's PTX has an entry per __global__ function of
# the source and one for a harness table's slot.
#
# Each compile is logged to FAKE_CLANG_LOG ("host" or "device");
# FAKE_CLANG_PTX adds its text to the PTX (a kernel or a variable of the
# harness's own); FAKE_CLANG_FAIL makes the host side fail with an error.
import os
import re
import sys

args = sys.argv[1:]
out, source = args[args.index("-o") + 1], args[-1]
side = "host" if "--cuda-host-only" in args else "device"
with open(os.environ.get("FAKE_CLANG_LOG", os.devnull), "a") as log:
    log.write(side + "\n")
if side == "host":
    if os.environ.get("FAKE_CLANG_FAIL"):
        print("%s:3:1: error: unknown type name 'texture'" % source, file=sys.stderr)
        sys.exit(1)
    open(out, "w").write(os.path.abspath(source))
    sys.exit(0)
kernels = re.findall(r"__global__\s+void\s+(\w+)\s*\(", open(source).read())
with open(out, "w") as f:
    f.write("".join(".visible .entry _Z%d%sPfi(\n" % (len(k), k) for k in kernels))
    f.write(".weak .entry _ZN6metacu6detail9tune_slotIJPfiEEEvDpT_(\n")
    f.write(os.environ.get("FAKE_CLANG_PTX", ""))
