#!/usr/bin/env python3
"""scripts/nvcc_module_id.py: one module id for two compilations.

The same file, copied to two directories: nvcc's own -ptx names its
anonymous namespace's function after each copy's path (so a comparison by
path would see two different modules), while compile() given one id file
makes byte-identical PTX of both, with that id in the names; with -c and
generate, cudafe++ writes nvcc's id for the file (the CRC-32 of its
absolute path first) to the caller's file; a file that does not compile is
a failure with nvcc's message.

usage: nvcc_module_id_test.py NVCC
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = """namespace {
__device__ __noinline__ int twice(int x) { return 2 * x; }
}
__global__ void kernel(int* p) { p[0] = twice(p[1]); }
"""


def module():
    spec = importlib.util.spec_from_file_location(
        "nvcc_module_id", os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                       "scripts", "nvcc_module_id.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def main():
    nvcc = sys.argv[1]
    mid = module()
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for d in ("one", "two"):
            os.makedirs(os.path.join(tmp, d))
            copies.append(os.path.join(tmp, d, "k.cu"))
            with open(copies[-1], "w") as f:
                f.write(SOURCE)

        def ptx(path):
            return "".join(l for l in open(path) if not l.startswith("//"))

        own = []
        for n, c in enumerate(copies):
            out = os.path.join(tmp, "own%d.ptx" % n)
            subprocess.run([nvcc, "-ptx", "-arch=sm_75", "-o", out, c], check=True)
            own.append(ptx(out))
        if own[0] == own[1]:
            errors.append("nvcc's own PTX of the two copies is the same: the "
                          "premise (names follow the path) no longer holds")

        id_file = mid.write_module_id(os.path.join(tmp, "id"), "k.cu", "k.cu")
        shared = []
        for n, c in enumerate(copies):
            out = os.path.join(tmp, "shared%d.ptx" % n)
            rc, log = mid.compile(nvcc, ["-ptx", "-arch=sm_75", "-o", out, c], id_file)
            if rc:
                errors.append("compile() failed: " + log)
                break
            shared.append(ptx(out))
        if len(shared) == 2:
            if shared[0] != shared[1]:
                errors.append("one module id, yet the copies' PTX differs")
            if mid.module_id("k.cu", "k.cu") not in shared[0]:
                errors.append("the given module id is not in the names")

        generated = os.path.join(tmp, "generated")
        rc, log = mid.compile(nvcc, ["-c", "-arch=sm_75", "-o", os.path.join(tmp, "k.o"),
                                     copies[0]], generated, generate=True)
        if rc:
            errors.append("compile(generate=True) failed: " + log)
        elif not os.path.exists(generated):
            errors.append("compile(generate=True) wrote no module id")
        elif not open(generated).read().startswith(
                "_%08x_4_k_cu_" % zlib.crc32(copies[0].encode())):
            errors.append("cudafe++ did not write nvcc's id: " + open(generated).read())

        bad = os.path.join(tmp, "bad.cu")
        with open(bad, "w") as f:
            f.write("__global__ void k() { undeclared(); }\n")
        rc, log = mid.compile(nvcc, ["-ptx", "-arch=sm_75", "-o", bad + ".ptx", bad], id_file)
        if rc == 0 or "undeclared" not in log:
            errors.append("a file that does not compile: rc %d, %r" % (rc, log[-300:]))
    for e in errors:
        print(e)
    print("nvcc_module_id: %s" % ("FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
