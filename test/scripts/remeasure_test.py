#!/usr/bin/env python3
"""scripts/gpu/model/remeasure.py and model-vs-measured's rounds.

A bundle of two batches whose harness is a stand-in speaking --serve's
protocol (it logs what it is asked to time and answers times that follow
the candidate): every candidate is timed once a round, each round in an
order of its own, across the batches; --to-cache writes a Kernel Tuner
cache whose times are every round's runs and whose metric follows their
median; model-vs-measured reads the rounds back as a ceiling (odd rounds
against even ones) and says nothing of rounds for a cache without them.

usage: remeasure_test.py
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REMEASURE = os.path.join(ROOT, "scripts", "gpu", "model", "remeasure.py")
MODEL_VS_MEASURED = os.path.join(ROOT, "scripts", "model-vs-measured")

# The harness: one line of --serve (a cubin and one candidate), one result.
# Candidate i of batch b takes (10 b + i + 1) / 1000 ms, plus the round's
# drift in its second run, so the rounds differ and their medians do not.
HARNESS = """#!/usr/bin/env python3
import json, os, sys
batch = int(os.path.basename(sys.argv[0]).split("_")[1])
args = sys.argv[1:]
repeat = int(args[args.index("--repeat") + 1])
print(json.dumps({"device": "stand-in", "driver": "0.0", "cc": 90}), flush=True)
print(json.dumps({"setup_ms": 1.0}), flush=True)
served = 0
for line in sys.stdin:
    cubin, member = line.rstrip("\\n").split("\\t")
    i = int(member.split(":")[0])
    with open(os.path.join(os.path.dirname(sys.argv[0]), "..", "served.log"), "a") as log:
        log.write("%d %d\\n" % (batch, i))
    t = (10 * batch + i + 1) / 1000
    times = [t] * repeat
    times[1] += served * 1e-6
    served += 1
    print(json.dumps({"start": i}), flush=True)
    print(json.dumps({"candidate": i, "status": "correct", "times": times}), flush=True)
    print(json.dumps({"done": True}), flush=True)
"""


def fail(message):
    sys.exit("remeasure_test: " + message)


def make_bundle(folder):
    batches = []
    for b, n in ((0, 3), (1, 2)):
        batches.append({"source": "k/batch_%d.cu" % b, "candidates": [
            {"config": 3 * b + i, "name": "k_tune_%d" % (3 * b + i),
             "params": {"x": 3 * b + i, "y": 1}, "shard_macro": "M%d" % (3 * b + i),
             "weight": 1} for i in range(n)]})
    manifest = {"batches": batches, "tolerance": 0, "size": [16], "warmup": 1,
                "repeat": 3, "declared": {"work": 0.001}}
    os.makedirs(os.path.join(folder, "bin"))
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    shutil.copy(os.path.join(ROOT, "tool", "tune", "run.py"), folder)
    for b in (0, 1):
        exe = os.path.join(folder, "bin", "batch_%d" % b)
        with open(exe, "w") as f:
            f.write(HARNESS)
        os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR)
        open(os.path.join(folder, "bin", "batch_%d_shard_0.cubin" % b), "w").close()
    return manifest


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "k-sm90")
        make_bundle(bundle)
        lines = os.path.join(tmp, "lines.jsonl")
        run = subprocess.run([sys.executable, REMEASURE, "--jobs", "1", "--rounds", "4",
                              "--seconds", "600", "--repeat", "3", lines, bundle],
                             capture_output=True, text=True)
        if run.returncode:
            fail("remeasure failed: " + run.stderr)
        with open(os.path.join(bundle, "served.log")) as f:
            served = [tuple(map(int, line.split())) for line in f]
        rounds = [served[5 * r:5 * r + 5] for r in range(4)]
        everyone = sorted((b, i) for b, n in ((0, 3), (1, 2)) for i in range(n))
        if len(served) != 20 or any(sorted(r) != everyone for r in rounds):
            fail("each round must time every candidate once: %s" % served)
        if len({tuple(r) for r in rounds}) < 2:
            fail("the rounds must not all take one order: %s" % rounds)
        with open(lines) as f:
            recs = [json.loads(line) for line in f]
        if sorted({r["round"] for r in recs}) != [0, 1, 2, 3] or len(recs) != 20:
            fail("four rounds of five lines expected: %s" % recs)
        if any(r["bundle"] != "k-sm90" or len(r["times"]) != 3 for r in recs):
            fail("each line names its bundle and holds --repeat's runs: %s" % recs[0])

        template = os.path.join(tmp, "template.json")
        with open(template, "w") as f:
            json.dump({"tune_params_keys": ["x", "y"], "objective": "GB/s", "cache": {}}, f)
        cache_path = os.path.join(tmp, "cache.json")
        run = subprocess.run([sys.executable, REMEASURE, "--to-cache", lines, bundle, template,
                              cache_path], capture_output=True, text=True)
        if run.returncode:
            fail("--to-cache failed: " + run.stderr)
        with open(cache_path) as f:
            cache = json.load(f)["cache"]
        if sorted(cache) != ["%d,1" % x for x in range(5)]:
            fail("the cache's keys are the template's parameters: %s" % sorted(cache))
        e = cache["4,1"]  # batch 1, candidate 1: 12 / 1000 ms
        if len(e["rounds"]) != 4 or len(e["times"]) != 12 or e["time"] != 0.012:
            fail("times are the rounds' runs, time their median: %s" % e)
        if abs(e["GB/s"] - 0.001 / 0.012e-3) > 1e-6:
            fail("the metric follows the median: %s" % e["GB/s"])

        predictions = os.path.join(tmp, "predictions.json")
        with open(predictions, "w") as f:
            json.dump({"configurations": [{"params": {"x": x, "y": 1},
                                           "predicted_time_us": float(x)} for x in range(5)]}, f)
        out = subprocess.run([sys.executable, MODEL_VS_MEASURED, cache_path, predictions],
                             capture_output=True, text=True)
        if out.returncode or "ceiling, odd against even rounds: 1.000 (4 rounds or more)" \
                not in out.stdout or "spearman: 1.000" not in out.stdout:
            fail("model-vs-measured on rounds:\n" + out.stdout + out.stderr)
        for e in cache.values():
            del e["rounds"]
        with open(cache_path, "w") as f:
            json.dump({"tune_params_keys": ["x", "y"], "objective": "GB/s", "cache": cache}, f)
        out = subprocess.run([sys.executable, MODEL_VS_MEASURED, cache_path, predictions],
                             capture_output=True, text=True)
        if out.returncode or "rounds" in out.stdout:
            fail("a cache without rounds has no rounds' ceiling:\n" + out.stdout + out.stderr)
    print("remeasure_test: passed")


if __name__ == "__main__":
    main()
