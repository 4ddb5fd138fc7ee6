#!/usr/bin/env python3
"""Kernel Tuner's side of the metacu tune comparison (docs/tune.md).

Runs Kernel Tuner (its cupy backend) on scripts/kt/convolution_kt.cu over the
same space as the convolution sample's declared space (block 16..128 step 16
x 1,2,4,8,16, tiles 1..4 x 1..4, padding 0/1, read-only loads; at most 1024
threads, the staged tile within 48 KiB), N random configurations, and prints
the wall-clock time per evaluated configuration, compilation included.

  compare.py [--configs 30] [--size 4096] [--seed 1]
"""
import argparse
import json
import os
import random
import time

import numpy as np
import kernel_tuner

RADIUS = 8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--configs", type=int, default=30)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    n = a.size
    rng = np.random.default_rng(a.seed)
    # Kernel Tuner draws its sample from Python's and NumPy's global generators.
    random.seed(a.seed)
    np.random.seed(a.seed)
    image = rng.standard_normal((n, n)).astype(np.float32)
    out = np.zeros_like(image)
    taps = 2 * RADIUS + 1
    filt = (rng.standard_normal(taps * taps) / taps).astype(np.float32)
    params = {
        "block_size_x": [16 * i for i in range(1, 9)],
        "block_size_y": [1, 2, 4, 8, 16],
        "tile_size_x": [1, 2, 3, 4],
        "tile_size_y": [1, 2, 3, 4],
        "use_padding": [0, 1],
        "read_only": [0, 1],
    }
    restrictions = [
        "block_size_x*block_size_y<=1024",
        "(block_size_y*tile_size_y+16)*(block_size_x*tile_size_x+16+use_padding)*4<=49152",
    ]
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "convolution_kt.cu")
    start = time.perf_counter()
    results, env = kernel_tuner.tune_kernel(
        "convolution_kernel", source, (n, n), [out, image, np.int32(n), np.int32(n)], params,
        grid_div_x=["block_size_x", "tile_size_x"], grid_div_y=["block_size_y", "tile_size_y"],
        restrictions=restrictions, cmem_args={"d_filter": filt}, lang="cupy",
        strategy="random_sample", strategy_options={"max_fevals": a.configs},
        iterations=11, verbose=False, quiet=True)
    wall = time.perf_counter() - start
    valid = [r for r in results if isinstance(r.get("time"), float)]
    compile_ms = sum(r.get("compile_time", 0) for r in results)
    best = min(valid, key=lambda r: r["time"]) if valid else None
    summary = {
        "kernel_tuner": kernel_tuner.__version__,
        "device": env.get("device_name"),
        "configurations": len(results),
        "valid": len(valid),
        "wall_s": round(wall, 2),
        "per_configuration_s": round(wall / max(len(results), 1), 3),
        "compile_share": round(compile_ms / 1000 / wall, 3),
        "best_gflops": round(2 * taps * taps * n * n / (best["time"] * 1e-3) / 1e9, 1) if best else None,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
