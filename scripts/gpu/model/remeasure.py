#!/usr/bin/env python3
"""Measures compiled `metacu tune` bundles again, their candidates interleaved.

A bundle's run.py times each candidate once, its timed runs back to back,
in the order of its shards: a configuration timed while the GPU ran slow
(a clock, another tenant, a slowdown that lasts seconds) keeps that time,
and its neighbours in that order share it. Here every candidate of every
bundle given is timed in each of ROUNDS rounds, each round in an order of
its own (shuffled, the round's number the seed), so that a slow spell of
the GPU falls on different configurations in each round; a configuration's
time is then the median over all its rounds' timed runs, and the rounds
tell the measurement's own ceiling (odd rounds against even ones,
docs/report.md).

  on the GPU machine, the bundles compiled (run.py --compile-only --jobs J):
    python3 remeasure.py --jobs J --rounds 20 --seconds 120 OUT.jsonl BUNDLE...
  here, one bundle's lines as a Kernel Tuner cache (model-vs-measured,
  metacu tune --replay):
    python3 remeasure.py --to-cache OUT.jsonl BUNDLE TEMPLATE.json[.gz] CACHE.json

Each line of OUT.jsonl is one candidate in one round: the bundle's folder
name, the configuration, the round, its place in the round's order, the
status and the timed runs (milliseconds). The harnesses are the bundles'
own (metacu/tune.h's --serve: one checked run, --warmup runs, --repeat timed
runs); one harness process per batch stays up for every round, and each
candidate is loaded from its shard's cubin for its own turn. --seconds
stops before a round that would not end in time (the rounds so far are
kept whole). Which shard holds a candidate is run.py's plan() for --jobs,
so --jobs must be the one the bundle was compiled with. A compute_N
image's bundle compiled away from the GPU needs the GPU's architecture in
its manifest's gencode first (`{gpu}` replaced by 90 for an H100), which
run.py otherwise asks nvidia-smi for. A candidate costs about 88 ms on an
H100 (its shard's cubin loaded for its own turn, the checked run): 864
candidates took 72-80 s a round (docs/data/remeasure-h100.log).
"""
import argparse
import gzip
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time


def load_run_py(bundle):
    spec = importlib.util.spec_from_file_location("run_" + os.path.basename(bundle),
                                                  os.path.join(bundle, "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Harness:
    """The bundle's harness for one batch, serving one candidate at a time."""

    def __init__(self, bundle, m, batch, warmup, repeat):
        exe = os.path.join(bundle, "bin", os.path.splitext(os.path.basename(batch["source"]))[0])
        cmd = [exe, "--serve", "--tolerance", repr(m["tolerance"]),
               "--warmup", str(warmup), "--repeat", str(repeat)]
        if m["size"]:
            cmd += ["--size", ",".join(str(n) for n in m["size"])]
        self.batch = batch
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd=bundle)

    def measure(self, cubin, i):
        self.p.stdin.write("%s\t%d:%s\n" % (cubin, i, self.batch["candidates"][i]["name"]))
        self.p.stdin.flush()
        result = None
        for line in self.p.stdout:
            rec = json.loads(line)
            if rec.get("done"):
                return result
            if "candidate" in rec:
                result = rec
        sys.exit("remeasure: the harness of %s ended (exit status %s)" %
                 (self.batch["source"], self.p.wait()))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def measure(a):
    candidates, harnesses = [], []
    for bundle in a.bundles:
        bundle = os.path.abspath(bundle)
        with open(os.path.join(bundle, "manifest.json")) as f:
            m = json.load(f)
        for job in load_run_py(bundle).plan(m, set(), a.jobs):
            if job["kind"] != "shard":
                continue
            cubin = os.path.join(bundle, "bin", job["name"] + ".cubin")
            if not os.path.exists(cubin):
                sys.exit("remeasure: %s is not built (run.py --compile-only --jobs %d)" %
                         (cubin, a.jobs))
            h = next((h for h in harnesses if h.batch is job["batch"]), None)
            if h is None:
                h = Harness(bundle, m, job["batch"], a.warmup, a.repeat)
                harnesses.append(h)
            for i in job["candidates"]:
                c = job["batch"]["candidates"][i]
                candidates.append((os.path.basename(bundle), c["config"], c["params"], h, cubin, i))
    started = time.time()
    with open(a.out, "w") as out:
        for r in range(a.rounds):
            t = time.time()
            order = list(candidates)
            random.Random(r).shuffle(order)
            for k, (name, config, params, h, cubin, i) in enumerate(order):
                rec = h.measure(cubin, i) or {"status": "runtime", "reason": "no result"}
                out.write(json.dumps({"bundle": name, "config": config, "params": params,
                                      "round": r, "order": k, "status": rec["status"],
                                      "times": rec.get("times", []),
                                      "reason": rec.get("reason")}) + "\n")
            out.flush()
            took = time.time() - t
            print("round %d: %d candidates in %.1f s" % (r, len(order), took), flush=True)
            if time.time() - started + took > a.seconds:
                break
    for h in harnesses:
        h.close()


def to_cache(lines_path, bundle, template_path, out_path):
    """The lines of one bundle as a Kernel Tuner cache like TEMPLATE (its
    keys and objective): `times` every timed run, round after round,
    `rounds` each round's, `time` their median and the metric from it."""
    name = os.path.basename(os.path.abspath(bundle))
    with open(os.path.join(bundle, "manifest.json")) as f:
        m = json.load(f)
    opener = gzip.open if template_path.endswith(".gz") else open
    with opener(template_path, "rt") as f:
        template = json.load(f)
    keys, metric = template["tune_params_keys"], template["objective"]
    runs = {}
    with open(lines_path) as f:
        for line in f:
            rec = json.loads(line)
            if rec["bundle"] == name and rec["status"] == "correct":
                runs.setdefault(rec["config"], (rec["params"], {}))[1][rec["round"]] = rec["times"]
    cache = {}
    for config, (params, rounds) in sorted(runs.items()):
        times = [t for r in sorted(rounds) for t in rounds[r]]
        median = statistics.median(times)
        entry = dict(params, times=times, rounds=[rounds[r] for r in sorted(rounds)], time=median)
        if metric != "time":
            entry[metric] = m["declared"]["work"] / (median / 1000)
        cache[",".join(str(params[k]) for k in keys)] = entry
    with open(out_path, "w") as f:
        json.dump(dict(template, cache=cache), f)
    print("%s: %d configurations, %d rounds" %
          (out_path, len(cache), max((len(r) for _, r in runs.values()), default=0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--to-cache", nargs=4, metavar=("LINES", "BUNDLE", "TEMPLATE", "CACHE"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("out", nargs="?")
    ap.add_argument("bundles", nargs="*")
    a = ap.parse_args()
    if a.to_cache:
        to_cache(*a.to_cache)
    elif a.out and a.bundles:
        measure(a)
    else:
        ap.error("give OUT.jsonl BUNDLE... or --to-cache")


if __name__ == "__main__":
    main()
