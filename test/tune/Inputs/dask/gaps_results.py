#!/usr/bin/env python3
# Writes the results of a made-up two-GPU run of a bundle for
# scripts/dask-gaps (tune/dask-gaps.test), from run.py --dry-run's shards on
# stdin: worker A times batches 0 and 1, worker B batch 2 from 0.3 s on;
# each candidate 10 ms (2 ms checking, 8 ms timing) right after the one
# before, 50 ms more at each change of shard and 200 ms at each change of
# batch.
#   run.py --dry-run --shards N | gaps_results.py RESULTS.jsonl
import datetime
import json
import sys

shards = [json.loads(l) for l in sys.stdin if '"shard"' in l]
start = datetime.datetime(2026, 11, 27, tzinfo=datetime.timezone.utc).timestamp()
clock = {"A": start, "B": start + 0.3}
last = {}
with open(sys.argv[1], "w") as out:
    for s in shards:
        batch = s["shard"].split("_shard_")[0]
        w = "B" if batch.endswith("batch_2") else "A"
        if w in last:
            clock[w] += 0.2 if last[w] != batch else 0.05
        last[w] = batch
        for c in s["configs"]:
            clock[w] += 0.01
            out.write(json.dumps({
                "config": c, "status": "correct", "verification_ms": 2.0, "benchmark_ms": 8.0,
                "worker": w, "timestamp": datetime.datetime.fromtimestamp(
                    clock[w], datetime.timezone.utc).isoformat(" ")}) + "\n")
