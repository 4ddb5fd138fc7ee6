#!/usr/bin/env python3
"""same_body.py PTX KERNEL_A KERNEL_B: the two kernels' PTX bodies are the
same instruction for instruction once their names are masked."""
import re
import sys


def body(ptx, name):
    m = re.search(r"\.entry\s+(\S*%s\S*)\(" % re.escape(name), ptx)
    if not m:
        sys.exit("same_body: no kernel named like %s" % name)
    start = ptx.index("{", m.end())
    end = ptx.index("\n}", start)
    return ptx[start:end].replace(m.group(1), "KERNEL").splitlines()


def main():
    ptx = open(sys.argv[1]).read()
    a, b = body(ptx, sys.argv[2]), body(ptx, sys.argv[3])
    if a != b:
        import difflib
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(a, b, sys.argv[2], sys.argv[3]))
        sys.exit("same_body: the kernels differ")
    print("same_body: %d identical lines" % len(a))


main()
