#!/usr/bin/env python3
# run.py - builds and times a `metacu tune` bundle with nvcc alone.
#
# Written by metacu into every bundle (docs/tune.md). Compiles the batches
# listed in manifest.json in parallel over the cores, and as each is built
# runs it on a GPU: the harness (metacu/tune.h) prints one JSON line per
# candidate. A candidate that kills the harness (illegal address, a hang
# past --timeout) is recorded with the reason and the harness is restarted
# after it. Every result is appended to results.jsonl as it comes, and a
# rerun skips the candidates already there, so a stopped run resumes.
#
#   python3 run.py [--gpus all | --gpus 0,1] [--jobs N] [--nvcc PATH]
#                  [--timeout SECONDS]
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


def compile_batch(m, batch, nvcc):
    exe = os.path.join(HERE, "bin", os.path.splitext(os.path.basename(batch["source"]))[0])
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [nvcc, "-O3", "-std=c++17", "-DMETACU_TUNE", "-I", os.path.join(HERE, "include"),
           "--split-compile", "0", "-gencode", m["gencode"], *m["nvcc_flags"], "-o", exe,
           os.path.join(HERE, "src", batch["source"])]
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    ms = (time.time() - t) * 1000
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if "error" in l] or p.stderr.splitlines() or ["nvcc failed"]
        return None, ms, lines[0].strip()
    return exe, ms, None


def run_batch(m, batch, exe, compile_ms, gpu, timeout, results, done):
    cands = batch["candidates"]
    per_compile = compile_ms / len(cands)
    first = 0
    info = {}
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=gpu)
    while first < len(cands):
        if all(c["config"] in done for c in cands[first:]):
            return
        cmd = [exe, "--first", str(first), "--tolerance", repr(m["tolerance"]),
               "--warmup", str(m["warmup"]), "--repeat", str(m["repeat"])]
        if m["size"]:
            cmd += ["--size", ",".join(str(n) for n in m["size"])]
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
                first = i + 1
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
            first = running + 1
        elif p.returncode not in (0, 3):
            err = p.stderr.read().strip()
            sys.exit("run.py: %s failed (exit status %d) outside any candidate:\n%s"
                     % (exe, p.returncode, err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", default="0")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--compile-only", action="store_true")
    a = ap.parse_args()
    with open(os.path.join(HERE, "manifest.json")) as f:
        m = json.load(f)
    path = os.path.join(HERE, "results.jsonl")
    done = load_done(path)
    results = Results(path)
    for fail in m["failed"]:
        if fail["config"] not in done:
            results.add(dict(config=fail["config"], status="compile", reason=fail["reason"]))
            done.add(fail["config"])
    gpu_ids = gpu_list(a.gpus)
    if "{gpu}" in m["gencode"]:
        cc = compute_capability(gpu_ids[0])
        if not cc:
            sys.exit("run.py: %s needs the GPU's architecture; nvidia-smi did not say" % m["image"])
        m["gencode"] = m["gencode"].replace("{gpu}", cc)
    todo = [b for b in m["batches"] if any(c["config"] not in done for c in b["candidates"])]
    gpus = queue.Queue()
    for g in gpu_ids:
        gpus.put(g)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as compilers, \
         concurrent.futures.ThreadPoolExecutor(gpus.qsize()) as runners:
        built = {compilers.submit(compile_batch, m, b, a.nvcc): b for b in todo}
        timed = []
        for fut in concurrent.futures.as_completed(built):
            b = built[fut]
            exe, ms, error = fut.result()
            if error is not None:
                for c in b["candidates"]:
                    results.add(dict(config=c["config"], status="compile", reason=error,
                                     compile_ms=ms / len(b["candidates"])))
                continue
            if a.compile_only:
                continue

            def work(b=b, exe=exe, ms=ms):
                g = gpus.get()
                try:
                    run_batch(m, b, exe, ms, g, a.timeout, results, done)
                finally:
                    gpus.put(g)
            timed.append(runners.submit(work))
        for fut in timed:
            fut.result()
    print("run.py: %d candidates in %.1f s" % (sum(len(b["candidates"]) for b in todo),
                                              time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
