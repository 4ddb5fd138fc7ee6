#!/usr/bin/env python3
"""Kernel Tuner's side of the matmul comparison (docs/tune.md).

Runs Kernel Tuner (its cupy backend) on scripts/kt/matmul_kt.cu, Kernel
Tuner's matmul example, over its example's space (block_size_x 16, 32, 64;
block_size_y 1..32; tiles 1..8; block_size_x == block_size_y * tile_size_y,
and Kernel Tuner's own limit of 1024 threads a block: 40 configurations),
brute force, 11 timed runs each, and prints the wall-clock time per
configuration, compilation included. scripts/kt/matmul.cu is metacu's port.

  matmul_kt.py
"""
import json
import os
import time

import numpy as np
import kernel_tuner


def main():
    n = 4096
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    c = np.zeros_like(a)
    params = {
        "block_size_x": [16 * 2**i for i in range(3)],
        "block_size_y": [2**i for i in range(6)],
        "tile_size_x": [2**i for i in range(4)],
        "tile_size_y": [2**i for i in range(4)],
    }
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matmul_kt.cu")
    start = time.perf_counter()
    results, env = kernel_tuner.tune_kernel(
        "matmul_kernel", source, (n, n), [c, a, b], params,
        grid_div_x=["block_size_x", "tile_size_x"], grid_div_y=["block_size_y", "tile_size_y"],
        restrictions=["block_size_x==block_size_y*tile_size_y"], lang="cupy",
        iterations=11, verbose=False, quiet=True)
    wall = time.perf_counter() - start
    valid = [r for r in results if isinstance(r.get("time"), float)]
    best = min(valid, key=lambda r: r["time"]) if valid else None
    print(json.dumps({
        "kernel_tuner": kernel_tuner.__version__,
        "device": env.get("device_name"),
        "configurations": len(results),
        "valid": len(valid),
        "wall_s": round(wall, 2),
        "per_configuration_s": round(wall / max(len(results), 1), 3),
        "best": {k: best[k] for k in params} if best else None,
        "best_gflops": round(2 * n**3 / (best["time"] * 1e-3) / 1e9, 1) if best else None,
    }))


if __name__ == "__main__":
    main()
