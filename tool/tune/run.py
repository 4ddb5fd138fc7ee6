#!/usr/bin/env python3
# run.py - builds and times a `metacu tune` bundle with nvcc alone.
#
# Written by metacu into every bundle (docs/tune.md). Compiles the batches
# listed in manifest.json in parallel over the cores, a batch split into
# shards that each compile only their candidates' kernels (plan()), and as
# each is built runs it on a GPU: the harness (metacu/tune.h) prints one JSON
# line per candidate. A compile that fails is retried per candidate, so that
# only the candidates nvcc refuses are recorded as compile failures. A
# candidate that kills the harness (illegal address, a hang past --timeout)
# is recorded with the reason and the harness is restarted after it. Every
# result is appended to results.jsonl as it comes, and a rerun skips the
# candidates already there, so a stopped run resumes.
#
#   python3 run.py [--gpus all | --gpus 0,1] [--jobs N] [--shards N]
#                  [--nvcc PATH] [--timeout SECONDS] [--compile-only]
#                  [--dry-run]
import argparse
import concurrent.futures
import datetime
import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(" ")


def load_done(path):
    done = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    done.add(json.loads(line)["config"])
                except (ValueError, KeyError):
                    pass  # a line torn by a killed run
    return done


class Results:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.f = open(path, "a")

    def add(self, record):
        record.setdefault("timestamp", now())
        with self.lock:
            self.f.write(json.dumps(record) + "\n")
            self.f.flush()


def gpu_list(spec):
    if spec != "all":
        return [g for g in spec.split(",") if g != ""]
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
        n = sum(1 for line in out.splitlines() if line.startswith("GPU "))
    except OSError:
        n = 0
    return [str(i) for i in range(max(n, 1))]


def compute_capability(gpu):
    """The device's architecture number, for a compute_N image ("90")."""
    out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader",
                          "-i", gpu], capture_output=True, text=True).stdout.strip()
    return out.replace(".", "") if out else None


# Candidates per shard by default. Each shard costs a fixed share whatever it
# holds (its nvcc still compiles the host code and parses the rest: a shard
# of 2 convolution candidates took 5.5 to 7.2 s on the H100 machine; its
# harness process sets the problem up, 0.5 s, one after another on a GPU),
# so a shard is worth it only for enough candidates: 30 candidates in one
# batch took 11.3 s as one nvcc, 9.4 s in 4 shards, 10.7 s in 8 and 16.4 s
# in 16 (docs/tune.md).
SHARD_CANDIDATES = 8


def plan(m, done, jobs, shards=0):
    """The compiles that build the candidates not yet done.

    Each batch is one expansion; its pending candidates are split into
    shards (``shards`` per batch, or by default one per SHARD_CANDIDATES
    candidates, as far as ``jobs`` cores go round the batches), each shard
    compiling only its candidates' kernels (metacu's guards:
    -DMETACU_TUNE_SHARD and the candidates' shard_macro). Candidates go
    heaviest first (the tokens of their guarded bodies, the manifest's weight) to the
    lightest shard, so the shards take about as long. A batch compiled whole
    needs no shard symbols.
    """
    pending = []
    for b in m["batches"]:
        todo = [i for i, c in enumerate(b["candidates"]) if c["config"] not in done]
        if todo:
            pending.append((b, todo))
    cores = max(1, -(-jobs // max(1, len(pending))))
    out = []
    for b, todo in pending:
        n = min(shards or min(cores, -(-len(todo) // SHARD_CANDIDATES)), len(todo))
        load = [[0, []] for _ in range(n)]
        for i in sorted(todo, key=lambda i: -b["candidates"][i].get("weight", 0)):
            lightest = min(load, key=lambda s: s[0])
            lightest[0] += b["candidates"][i].get("weight", 0)
            lightest[1].append(i)
        whole = n == 1 and len(todo) == len(b["candidates"])
        for k, (_, members) in enumerate(load):
            out.append(dict(batch=b, shard=None if whole else k, candidates=sorted(members)))
    return out


def nvcc_command(m, job, nvcc, split):
    b = job["batch"]
    stem = os.path.splitext(os.path.basename(b["source"]))[0]
    exe = os.path.join(HERE, "bin", stem)
    cmd = [nvcc, "-O3", "-std=c++17", "-DMETACU_TUNE", "-I", os.path.join(HERE, "include"),
           "--split-compile", str(split), "-gencode", m["gencode"], *m["nvcc_flags"]]
    if job["shard"] is not None:
        exe += "_shard_%d" % job["shard"]
        if job.get("alone"):
            exe += "_c%d" % job["candidates"][0]
        cmd.append("-DMETACU_TUNE_SHARD=%d" % job["shard"])
        cmd += ["-D" + b["candidates"][i]["shard_macro"] for i in job["candidates"]]
    return cmd + ["-o", exe, os.path.join(HERE, "src", b["source"])], exe


def compile_job(m, job, nvcc, split):
    cmd, exe = nvcc_command(m, job, nvcc, split)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    ms = (time.time() - t) * 1000
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if "error" in l] or p.stderr.splitlines() or ["nvcc failed"]
        return None, ms, lines[0].strip()
    return exe, ms, None


class Stats:
    """What the run's processes cost, for its last line."""

    def __init__(self):
        self.lock = threading.Lock()
        self.compiles = self.harnesses = 0
        self.setup_ms = 0.0

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)


def run_job(m, job, exe, compile_ms, gpu, timeout, results, done, stats):
    cands = job["batch"]["candidates"]
    per_compile = compile_ms / len(job["candidates"])
    todo = [i for i in job["candidates"] if cands[i]["config"] not in done]
    info = {}
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=gpu)
    while todo:
        cmd = [exe, "--candidates", ",".join(str(i) for i in todo), "--tolerance",
               repr(m["tolerance"]), "--warmup", str(m["warmup"]), "--repeat", str(m["repeat"])]
        if m["size"]:
            cmd += ["--size", ",".join(str(n) for n in m["size"])]
        stats.add(harnesses=1)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in p.stdout] + [lines.put(None)],
                         daemon=True).start()
        running, started = None, time.time()
        while True:
            try:
                line = lines.get(timeout=max(0.1, timeout - (time.time() - started)))
            except queue.Empty:
                p.kill()
                line, why = None, "timeout"
                break
            if line is None:
                why = "exit"
                break
            rec = json.loads(line)
            if "device" in rec:
                info = {"device": rec["device"], "driver": rec["driver"]}
            elif "setup_ms" in rec:
                stats.add(setup_ms=rec["setup_ms"])
            elif "start" in rec:
                running, started = rec["start"], time.time()
            else:
                i = rec.pop("candidate")
                running = None
                c = cands[i]
                if c["config"] not in done:
                    rec.update(config=c["config"], compile_ms=per_compile, gpu=gpu, **info)
                    results.add(rec)
                    done.add(c["config"])
        p.wait()
        if running is not None and cands[running]["config"] not in done:
            if why == "timeout":
                status, reason = "timeout", "no result within %g s" % timeout
            else:
                status = "runtime"
                err = p.stderr.read().strip().splitlines()
                reason = "the harness died (exit status %d)%s" % (
                    p.returncode, ": " + err[-1] if err else "")
            results.add(dict(config=cands[running]["config"], status=status, reason=reason,
                             compile_ms=per_compile, gpu=gpu, **info))
            done.add(cands[running]["config"])
        elif p.returncode not in (0, 3):
            err = p.stderr.read().strip()
            sys.exit("run.py: %s failed (exit status %d) outside any candidate:\n%s"
                     % (exe, p.returncode, err))
        left = [i for i in todo if cands[i]["config"] not in done]
        if left == todo:
            # The harness exited without any of them: not worth a restart.
            for i in left:
                results.add(dict(config=cands[i]["config"], status="runtime",
                                 reason="the harness exited without a result",
                                 compile_ms=per_compile, gpu=gpu, **info))
                done.add(cands[i]["config"])
        todo = [i for i in left if cands[i]["config"] not in done]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", default="0")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--shards", type=int, default=0,
                    help="compiles per batch (default: one per %d candidates, "
                    "as far as the cores go)" % SHARD_CANDIDATES)
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the compiles (one JSON line each) and stop")
    a = ap.parse_args()
    with open(os.path.join(HERE, "manifest.json")) as f:
        m = json.load(f)
    path = os.path.join(HERE, "results.jsonl")
    done = load_done(path)
    failed = [f for f in m["failed"] if f["config"] not in done]
    done.update(f["config"] for f in failed)
    jobs = plan(m, done, a.jobs, a.shards)
    if a.dry_run:
        for job in jobs:
            cmd, exe = nvcc_command(m, job, a.nvcc, 1)
            print(json.dumps(dict(exe=os.path.relpath(exe, HERE),
                                  configs=[job["batch"]["candidates"][i]["config"]
                                           for i in job["candidates"]],
                                  defines=[c for c in cmd if c.startswith("-DMETACU_TUNE_")])))
        return
    results = Results(path)
    for f in failed:
        results.add(dict(config=f["config"], status="compile", reason=f["reason"]))
    gpu_ids = gpu_list(a.gpus)
    if "{gpu}" in m["gencode"]:
        cc = compute_capability(gpu_ids[0])
        if not cc:
            sys.exit("run.py: %s needs the GPU's architecture; nvidia-smi did not say" % m["image"])
        m["gencode"] = m["gencode"].replace("{gpu}", cc)
    # nvcc's own threads for what the cores have left over.
    split = max(1, a.jobs // max(1, len(jobs)))
    gpus = queue.Queue()
    for g in gpu_ids:
        gpus.put(g)
    stats = Stats()
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as compilers, \
         concurrent.futures.ThreadPoolExecutor(gpus.qsize()) as runners:
        building = {compilers.submit(compile_job, m, job, a.nvcc, split): job for job in jobs}
        timed = []
        while building:
            finished, _ = concurrent.futures.wait(
                building, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in finished:
                job = building.pop(fut)
                exe, ms, error = fut.result()
                stats.add(compiles=1)
                cands = job["batch"]["candidates"]
                if error is not None and len(job["candidates"]) > 1:
                    # Which candidates nvcc refuses: each compiled alone.
                    shard = job["shard"] if job["shard"] is not None else 0
                    for i in job["candidates"]:
                        one = dict(job, shard=shard, candidates=[i], alone=True)
                        building[compilers.submit(compile_job, m, one, a.nvcc, split)] = one
                    continue
                if error is not None:
                    for i in job["candidates"]:
                        results.add(dict(config=cands[i]["config"], status="compile",
                                         reason=error, compile_ms=ms))
                        done.add(cands[i]["config"])
                    continue
                if a.compile_only:
                    continue

                def work(job=job, exe=exe, ms=ms):
                    g = gpus.get()
                    try:
                        run_job(m, job, exe, ms, g, a.timeout, results, done, stats)
                    finally:
                        gpus.put(g)
                timed.append(runners.submit(work))
        for fut in timed:
            fut.result()
    print("run.py: %d candidates in %.1f s (%d nvcc, %d harness processes, %.1f s of harness setup)"
          % (sum(len(j["candidates"]) for j in jobs), time.time() - t0, stats.compiles,
             stats.harnesses, stats.setup_ms / 1000), file=sys.stderr)


if __name__ == "__main__":
    main()
