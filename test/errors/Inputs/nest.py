"""Writes a kernel whose body nests N levels deep, in one of three ways.

    nest.py KIND N OUT    KIND: braces | meta-if | meta-for
"""
import sys

kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "braces":
    body = "{\n" * n + "x[0] = 1;\n" + "}\n" * n
elif kind == "meta-if":
    body = "@meta if (true) {\n" * n + "x[0] = 1;\n" + "}\n" * n
else:
    body = "".join("@meta for (int i%d = 0; i%d < 1; ++i%d)\n" % (i, i, i)
                   for i in range(n)) + "x[0] = 1;\n"
with open(out, "w") as f:
    f.write("__global__ void k(int* x) {\n" + body + "}\n")
