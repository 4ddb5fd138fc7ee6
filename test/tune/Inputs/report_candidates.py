"""metacu report's view of the candidates in a predictions file of
scale.cu's space, for gpu-occupancy-space.test.

  report_candidates.py request PREDICTIONS REQUEST
      writes REQUEST, the tuning request that makes an expansion of scale.cu
      emit those candidates (what metacu tune hands its expansions through
      METACU_TUNE_REQUEST), and prints a --launch for each: scale.cu's
      .launch(...) runs blocks of "block" threads
  report_candidates.py rows REPORT
      prints, sorted, each kernel of `metacu report --format json` as
      occupancy_check's line without the cubin: "MANGLED THREADS
      DYNAMIC_SMEM 0 BLOCKS_PER_SM REGISTERS"
"""
import json
import re
import sys


def name_of(mangled):
    """scale_tune_7 for _Z12scale_tune_7Pfi."""
    n = re.match(r"_Z(\d+)", mangled)
    return mangled[n.end():n.end() + int(n.group(1))]


if sys.argv[1] == "request":
    records = [r for r in json.load(open(sys.argv[2]))["configurations"] if "mangled" in r]
    cands = [{"name": name_of(r["mangled"]), "params": r["params"]} for r in records]
    with open(sys.argv[3], "w") as f:
        json.dump({"mode": "generate", "kernel": "scale", "candidates": cands}, f)
    print(" ".join(f"--launch {c['name']}:{c['params']['block']}" for c in cands))
else:
    rows = [f"{k['mangled']} {k['threads_per_block']} {k['dynamic_shared_bytes']} 0 "
            f"{k['blocks_per_sm']} {k['registers']}" for k in json.load(open(sys.argv[2]))["kernels"]]
    print("\n".join(sorted(rows)))
