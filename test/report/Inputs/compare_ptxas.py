"""Checks that metacu report's resource figures are what nvcc -cubin
-Xptxas -v prints for the same generated file.

    compare_ptxas.py REPORT.json SM_XX.log...

Each log is named after its target (sm_75.log); every entry ptxas lists
must be in the report for that target with the same registers, barriers,
stack frame, spills, shared memory and constant banks, and the other way
round."""
import json
import os
import re
import sys


def read_log(path):
    kernels, current, frame_of = {}, None, None
    for line in open(path):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            kernels[current] = {"constant_bytes": 0}
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            frame_of = m.group(1)
            continue
        m = re.match(
            r"\s+(\d+) bytes stack frame, (\d+) bytes spill stores, "
            r"(\d+) bytes spill loads",
            line,
        )
        if m:
            if frame_of in kernels:
                k = kernels[frame_of]
                k["stack_bytes"], k["spill_store_bytes"], k["spill_load_bytes"] = (
                    int(g) for g in m.groups()
                )
            continue
        m = re.search(r"Used (\d+) registers, used (\d+) barriers(.*)", line)
        if m:
            k = kernels[current]
            k["registers"], k["barriers"] = int(m.group(1)), int(m.group(2))
            rest = m.group(3)
            smem = re.search(r"(\d+) bytes smem", rest)
            k["static_shared_bytes"] = int(smem.group(1)) if smem else 0
            k["constant_bytes"] = sum(
                int(n) for n in re.findall(r"(\d+) bytes cmem\[\d+\]", rest)
            )
    return kernels


def main():
    report = json.load(open(sys.argv[1]))["kernels"]
    failures = 0
    for log in sys.argv[2:]:
        target = os.path.splitext(os.path.basename(log))[0]
        expected = read_log(log)
        rows = {r["mangled"]: r for r in report if r["target"] == target}
        if set(rows) != set(expected):
            print(f"{target}: report lists {sorted(rows)}, ptxas {sorted(expected)}")
            failures += 1
        for name, figures in expected.items():
            for field, value in figures.items():
                got = rows.get(name, {}).get(field)
                if got != value:
                    print(f"{target} {name} {field}: report {got}, ptxas {value}")
                    failures += 1
        print(f"{target}: {len(expected)} kernels compared")
    sys.exit(1 if failures else 0)


main()
