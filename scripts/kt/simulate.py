#!/usr/bin/env python3
"""Kernel Tuner's own strategy on a brute-forced space, in its simulation mode.

    python3 scripts/kt/simulate.py SPACE.T1.json CACHE.json STRATEGY SEED

SPACE.T1.json is the space in the T1 input format (../shared/tuning-data),
CACHE.json the decompressed Kernel Tuner cache of its brute force; Kernel
Tuner answers every configuration from the cache. Prints one JSON line: the
unique configurations evaluated (budget 1,000) and after how many of them
the best so far was within 1% and 2% of the cache's best time (null: never),
counted as `metacu tune --replay` counts them. Needs kernel_tuner (1.5.0
was used: pip install kernel_tuner==1.5.0) and a file at the T1's
KernelFile path (its contents are never compiled).
"""
import json
import random
import sys
import tempfile
from pathlib import Path

import numpy as np
from kernel_tuner import interface


def main():
    t1, cache, strategy, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    random.seed(seed)
    np.random.seed(seed)
    recorded = json.load(open(cache))
    spec = json.load(open(t1))
    # tune_kernel_T1 looks the device up in the T1 file; the cache names it.
    spec["KernelSpecification"]["Device"] = {"Name": recorded["device_name"]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=Path(t1).parent) as f:
        json.dump(spec, f)
        f.flush()
        results, _ = interface.tune_kernel_T1(
            Path(f.name), Path(cache), simulation_mode=True, output_T4=False,
            strategy=strategy, strategy_options=dict(max_fevals=1000))
    best = min(v["time"] for v in recorded["cache"].values()
               if isinstance(v.get("time"), (int, float)))
    keys = recorded["tune_params_keys"]
    seen, reached, so_far = set(), {}, float("inf")
    for r in results:
        key = tuple(r[k] for k in keys)
        if key in seen:
            continue
        seen.add(key)
        if isinstance(r.get("time"), (int, float)):
            so_far = min(so_far, r["time"])
        for percent in (1, 2):
            if percent not in reached and so_far <= best * (1 + percent / 100):
                reached[percent] = len(seen)
    print(json.dumps({"evaluations": len(seen), "to1": reached.get(1),
                      "to2": reached.get(2)}))


if __name__ == "__main__":
    main()
