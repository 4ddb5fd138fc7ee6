#!/usr/bin/env python3
"""Lists a tune space's candidates for occupancy_check, from what the tuner
itself predicted of them: for scripts/gpu-occupancy --space.

  occupancy_space.py PREDICTIONS.json[.gz] BUILD_CACHE OUT_DIR

PREDICTIONS is what `metacu tune KERNEL.cu --arch N [--image compute_M]
--predict PREDICTIONS --build-cache BUILD_CACHE` wrote: per configuration
the candidate's entry function, ptxas's registers, the launch the space's
.launch(...) gives and the blocks per SM metacu computed for it. BUILD_CACHE
holds each batch's PTX and ptxas log (docs/tune.md); the candidate's cubin
is that PTX assembled for the predictions' arch, as metacu assembled it.

Writes OUT_DIR/expected.tsv, one line per candidate that builds, in
occupancy_check's format ("cubins/ENTRY.cubin MANGLED THREADS DYNAMIC_SMEM
OPT_IN BLOCKS_PER_SM REGISTERS"; a tune launch never opts in to more shared
memory), and OUT_DIR/entries.txt, the cache entries whose PTX to assemble;
prints the arch to assemble for ("sm_90").
A candidate found in no entry, or in two (a cache shared by runs with other
batches: give --predict a fresh folder), is an error.
"""
import gzip
import json
import os
import re
import sys


def fail(message):
    sys.exit(f"occupancy_space: {message}")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")


def entries_by_kernel(cache, arch):
    """mangled name -> the cache entries whose ptxas log compiled it."""
    found = {}
    for entry in sorted(os.listdir(cache)):
        log = os.path.join(cache, entry, f"{arch}.ptxas.log")
        if not os.path.isfile(log):
            continue
        with open(log) as f:
            for name in re.findall(r"Compiling entry function '([^']+)'", f.read()):
                found.setdefault(name, []).append(entry)
    return found


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    predictions, cache, out = sys.argv[1:]
    p = load(predictions)
    arch = p.get("arch")
    if not isinstance(arch, str) or not re.fullmatch(r"sm_\d+", arch):
        fail(f"{predictions}: no \"arch\" (sm_N)")
    found = entries_by_kernel(cache, arch)

    lines, used, unbuilt = [], set(), 0
    for i, rec in enumerate(p.get("configurations", [])):
        if "error" in rec:
            unbuilt += 1
            continue
        if "mangled" not in rec:
            fail(f"{predictions}: configurations[{i}] names no kernel (\"mangled\"): "
                 "predict again with this metacu")
        name = rec["mangled"]
        where = found.get(name, [])
        if len(where) != 1:
            fail(f"{predictions}: {name} is in {len(where)} builds of {cache}"
                 + (": give --predict a fresh --build-cache" if where else ""))
        x, y, z = rec["block"]
        lines.append(f"cubins/{where[0]}.cubin {name} {x * y * z} {rec['dynamic_shared_bytes']} 0 "
                     f"{rec['blocks_per_sm']} {rec['registers']}\n")
        used.add(where[0])

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "expected.tsv"), "w") as f:
        f.writelines(lines)
    with open(os.path.join(out, "entries.txt"), "w") as f:
        f.writelines(e + "\n" for e in sorted(used))
    print(f"occupancy_space: {len(lines)} candidates in {len(used)} builds for {arch}"
          + (f" ({unbuilt} do not build)" if unbuilt else ""), file=sys.stderr)
    print(arch)


if __name__ == "__main__":
    main()
