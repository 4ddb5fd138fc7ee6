#!/usr/bin/env python3
# run.py - builds and times a `metacu tune` bundle with nvcc alone.
#
# Written by metacu into every bundle (docs/tune.md). For each batch (one
# expansion of the kernel's file) it compiles, in parallel over the cores,
# one harness executable (the batch's host code and the problem, every
# candidate's kernel left empty) and the candidates' device code as cubins,
# a batch split into shards (plan()). One harness process per GPU makes the
# problem once and takes the shards' cubins as they are built, loading each
# through the CUDA driver API and timing its candidates (metacu/tune.h,
# --serve), so the GPU works while the cores compile. A shard nvcc refuses
# is split: the candidates its errors name (ptxas), or whose kernel bodies
# hold them (locate()), are compile failures and the rest compile again
# (from the shard's PTX, ptxas alone, where ptxas named them);
# failing both, the shard is halved until the failing candidate is alone. A candidate that kills the harness (illegal
# address, a hang past --timeout) is recorded with the reason and the
# harness is started again for the rest. Every result is appended to
# results.jsonl as it comes, and a rerun skips the candidates already there,
# so a stopped run resumes.
#
#   python3 run.py [--gpus all | --gpus 0,1] [--jobs N] [--shards N]
#                  [--nvcc PATH] [--clang PATH] [--timeout SECONDS] [--compile-only]
#                  [--dry-run] [--scheduler ADDRESS | --scheduler local]
#                  [--rounds [--early KEY]] [--cutoff F]
#
# With --rounds (metacu tune's live run) it measures what stdin asks for,
# a round at a time, and keeps each batch's harness, compiled once, and its
# processes, the problem made once per GPU, for every round (Run.serve()),
# and the shards' cubins in the cache for later runs of the same text
# (KeptCubins). With --early it is started before metacu writes the bundle
# and starts the harness the last run of the same kernel recorded at once
# (start_early()), for the bundle's harness if it is the same.
#
# With --scheduler the same compiles and harnesses run on a Dask cluster
# (dask_runner.py, beside this file; docs/distributed-tuning.md); without
# it nothing here needs more than Python's standard library.
import argparse
import concurrent.futures
import datetime
import fcntl
import hashlib
import importlib.util
import itertools
import json
import os
import queue
import re
import shutil
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


def cut_torn_line(path):
    """Drops a last line that a killed run left unfinished (no newline, not
    JSON), so that the lines appended after it stay lines of their own; a
    whole last line without its newline gets one."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as f:
        data = f.read()
        if not data or data.endswith(b"\n"):
            return
        start = data.rfind(b"\n") + 1
        try:
            json.loads(data[start:])
            f.write(b"\n")
        except ValueError:
            f.truncate(start)


class Results:
    def __init__(self, path):
        self.lock = threading.Lock()
        cut_torn_line(path)
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


# Candidates per shard by default. A shard's compile costs a fixed share
# whatever it holds (its nvcc still parses the whole translation unit), so a
# shard is worth it only for enough candidates: 30 convolution candidates in
# one batch took 11.3 s as one nvcc, 9.4 s in 4 shards, 10.7 s in 8 and
# 16.4 s in 16 on the H100 machine when each shard was an executable with its
# own harness (docs/tune.md).
SHARD_CANDIDATES = 8


# --rounds' default --cutoff (metacu/tune.h, harness_options::cutoff): a
# candidate twice 25% slower than the best so far is not the best, and a
# local search waits for the GPU's timing of it. Plain runs time every
# candidate in full (their results are a space's record).
ROUNDS_CUTOFF = 1.25


def plan(m, done, jobs, shards=0, wanted=None, built=()):
    """The compiles that build the candidates not yet done (of those whose
    configurations are in ``wanted``, when given: a round of --rounds).

    Per batch with candidates left: its harness (``kind`` "harness": the
    executable, every candidate's kernel empty; not for the batches in
    ``built``, whose harness an earlier round compiled) and its shards (``kind``
    "shard": a cubin of the candidates' kernels, ``shards`` per batch, or
    by default one per SHARD_CANDIDATES candidates, as far as ``jobs`` cores
    go round the batches; metacu's guards: -DMETACU_TUNE_SHARD and the
    candidates' shard_macro). Candidates go heaviest first (the tokens of
    their guarded bodies, the manifest's weight) to the lightest shard, so
    the shards take about as long.
    """
    pending, harnesses = [], set(built)
    for b in m["batches"]:
        todo = [i for i, c in enumerate(b["candidates"])
                if c["config"] not in done and (wanted is None or c["config"] in wanted)]
        if todo:
            pending.append((b, todo))
    cores = max(1, -(-jobs // max(1, len(pending))))
    out = []
    for b, todo in pending:
        if harness_key(m, b) not in harnesses:
            harnesses.add(harness_key(m, b))
            if m.get("harness"):
                # The bundle's one harness: its failure fails each shard's
                # candidates as they come (Run.shard_ended).
                out.append(dict(kind="harness", batch=b, name="harness", candidates=[],
                                shared=True, source=m["harness"]))
            else:
                out.append(dict(kind="harness", batch=b, name=stem(b), candidates=todo))
        n = min(shards or min(cores, -(-len(todo) // SHARD_CANDIDATES)), len(todo))
        load = [[0, []] for _ in range(n)]
        for i in sorted(todo, key=lambda i: -b["candidates"][i].get("weight", 0)):
            lightest = min(load, key=lambda s: s[0])
            lightest[0] += b["candidates"][i].get("weight", 0)
            lightest[1].append(i)
        for k, (_, members) in enumerate(load):
            out.append(dict(kind="shard", batch=b, name="%s_shard_%d" % (stem(b), k),
                            candidates=sorted(members)))
    return out


def stem(batch):
    return os.path.splitext(os.path.basename(batch["source"]))[0]


def harness_key(m, batch):
    """The harness that runs ``batch``'s candidates: the bundle's one (its
    source, the manifest's ``harness``: the kernel's host code without the
    candidates, whose table the harness fills as it is handed them,
    metacu/tuned.h), or the batch's own translation unit."""
    return m.get("harness") or batch["source"]


# metacu/tune.h: shards loaded through the driver API, the problem's
# launches of their kernels sent there. __NV_LEGACY_LAUNCH makes nvcc's
# <<<...>>> call cudaLaunchKernel, which the link wraps; the host compiler
# takes it too, since nvcc compiles its stubs with its own flags.
HARNESS_DEFINES = ["-DMETACU_TUNE_MODULES", "-D__NV_LEGACY_LAUNCH",
                   "-Xcompiler=-D__NV_LEGACY_LAUNCH"]
HARNESS_LINK = ["-Xlinker", "--wrap=cudaLaunchKernel", "-Xlinker", "--wrap=cudaFuncSetAttribute",
                "-lcuda"]


def nvcc_command(m, job, nvcc, split):
    """The compile of ``job`` and what the job writes (relative to the
    bundle). A harness's compile is its batch's host code alone, to an
    object (``out`` + ".o"), with metacu/tune.h's machinery left to the
    object machinery_object() keeps; compile_job() links the two."""
    b = job["batch"]
    cmd = [nvcc, "-O3", "-std=c++17", "-DMETACU_TUNE", "-I", os.path.join(HERE, "include"),
           "--split-compile", str(split), "-gencode", m["gencode"], *m["nvcc_flags"],
           "-DMETACU_TUNE_SHARD"]
    if job["kind"] == "harness":
        out = os.path.join("bin", job["name"])
        cmd += HARNESS_DEFINES + ["-DMETACU_TUNE_PREBUILT", "-c"]
        target = out + ".o"
    else:
        out = target = os.path.join("bin", job["name"] + ".cubin")
        ptx = job.get("ptx") and os.path.join(HERE, job["ptx"])
        if job["kind"] == "shard" and ptx and os.path.exists(ptx):
            # The rest of a shard ptxas refused: its PTX assembled again
            # without the refused kernels (refused()), ptxas alone.
            entries = ["-Xptxas=--entry=" + e for e in assembled_entries(job, ptx)]
            return [nvcc, "-O3", "-gencode", m["gencode"], *m["nvcc_flags"], "-cubin",
                    *entries, "-o", os.path.join(HERE, target), ptx], out
        cmd += ["-cubin"] + ["-D" + b["candidates"][i]["shard_macro"] for i in job["candidates"]]
    source = os.path.join(HERE, "src", job.get("source", b["source"]))
    if job["kind"] == "locate":
        # The shard again, from its batch without #line (locate()).
        source = os.path.join(os.path.dirname(source), job["name"] + ".cu")
    return cmd + ["-o", os.path.join(HERE, target), source], out


def assembled_entries(job, ptx):
    """The entry functions of a refused shard's PTX that its rest
    assembles: every one but the kernels of the shard's members that are
    not in ``job`` (those ptxas refused, or the other half's)."""
    with open(ptx) as f:
        entries = re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", f.read())
    cands = job["batch"]["candidates"]
    gone = [cands[i]["name"] for i in job["shard_of"] if i not in job["candidates"]]
    return [e for e in entries if not any(names_candidate(e, n) for n in gone)]


def kept_ptx(job):
    """Where a shard's PTX is kept when ptxas refuses it (compile_job),
    relative to the bundle."""
    return os.path.join("bin", job["name"] + ".ptx")


def cache_dir():
    """Where compiled harness machinery is kept between runs:
    $METACU_TUNE_CACHE, else metacu/ in $XDG_CACHE_HOME or ~/.cache."""
    d = os.environ.get("METACU_TUNE_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "metacu", "tune")
    return d


def writable_cache_dir():
    """cache_dir(), made if missing; where it cannot be written, this
    bundle's own bin/, which keeps a build for this run only."""
    d = cache_dir()
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        pass
    if not os.access(d, os.W_OK):
        d = os.path.join(HERE, "bin")
        os.makedirs(d, exist_ok=True)
    return d


def tree_files(base, top):
    """The files under ``base``/``top`` in a fixed order, each as its path
    and its name relative to ``base``."""
    for root, dirs, files in os.walk(os.path.join(base, top)):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            yield path, os.path.relpath(path, base)


def cache_key(nvcc, flags, files):
    """The name a cached build is kept under: a hash of everything that
    decides it, the compile's ``flags``, nvcc's version and ``files`` (path
    and name pairs) by name and content. Returns it and None, or None and
    why nvcc could not be asked its version."""
    h = hashlib.sha256(json.dumps(flags).encode())
    try:
        version = subprocess.run([nvcc, "--version"], capture_output=True, text=True)
        h.update(version.stdout.encode())
    except OSError as e:
        return None, "cannot run %s: %s" % (nvcc, e)
    for path, name in files:
        h.update(name.encode() + b"\0")
        with open(path, "rb") as data:
            h.update(data.read() + b"\0")
    return h.hexdigest()[:24], None


MACHINERY_LOCK = threading.Lock()
# shared_harness()'s, beside its lock file (which orders processes, not a
# process's threads).
SHARED_LOCK = threading.Lock()
# What machinery_object() found, per nvcc and flags: once per process.
MACHINERY = {}


def machinery_object(m, nvcc, include=None):
    """metacu/tune.h's harness machinery (options, checking and timing,
    loading shards), which no problem changes, compiled once into an object
    (METACU_TUNE_HARNESS_OBJECT) and kept in cache_dir() under a hash of
    the runtime headers, nvcc's version and the compile's flags (the
    bundle's nvcc_flags among them), so that a
    harness's compile on the critical path is its batch's host code alone.
    Returns the object's path and None, or None and nvcc's error lines.
    One compile at a time in this process (harnesses of several batches
    wait for the first), and one at a time per cache entry (a lock file),
    so that a process that needs it waits for one that began it (--early's
    precompile). ``include``: the runtime headers, the bundle's own by
    default (a copy of metacu's, so the same object)."""
    include = include or os.path.join(HERE, "include")
    # Host code only: no -gencode, so that one object serves every
    # architecture.
    flags = ["-O3", "-std=c++17", "-DMETACU_TUNE", *m["nvcc_flags"],
             *HARNESS_DEFINES, "-DMETACU_TUNE_HARNESS_OBJECT", "-x", "c++", "-c"]
    with MACHINERY_LOCK:
        known = MACHINERY.get((nvcc, json.dumps(flags)))
        if known:
            return known
        MACHINERY[(nvcc, json.dumps(flags))] = found = build_machinery(nvcc, flags, include)
        return found


def build_machinery(nvcc, flags, include):
    """machinery_object()'s look in the cache, and compile on a miss."""
    key, error = cache_key(nvcc, flags, tree_files(include, "metacu"))
    if error:
        return None, [error]
    obj = os.path.join(writable_cache_dir(), "harness-%s.o" % key)
    with open(obj + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(obj):
            return obj, None
        return compile_machinery(nvcc, flags, include, obj)


def compile_machinery(nvcc, flags, include, obj):
    """build_machinery()'s compile into ``obj``."""
    tmp = "%s.%d.tmp" % (obj, os.getpid())
    source = tmp + ".cpp"
    with open(source, "w") as f:
        f.write("#include <metacu/tune.h>\n")
    p = subprocess.run([nvcc, *flags, "-I", include, "-o", tmp, source],
                       capture_output=True, text=True)
    os.remove(source)
    if p.returncode != 0:
        if os.path.exists(tmp):
            os.remove(tmp)
        lines = [l.strip() for l in p.stderr.splitlines() if "error" in l]
        return None, lines or [l.strip() for l in p.stderr.splitlines()][:1] or ["nvcc failed"]
    os.replace(tmp, obj)
    return obj, None


# nvcc's flags of a harness's compile that Clang's CUDA front end spells
# the same, and those it needs no spelling of (nvcc's own options; the
# launch through cudaLaunchKernel, which Clang's stubs always make).
CLANG_SAME = re.compile(r"-O\d|-std=\S+|-[DU]\S+|-I\S*$")
CLANG_DROPPED = {"--split-compile", "-gencode", "-D__NV_LEGACY_LAUNCH",
                 "-Xcompiler=-D__NV_LEGACY_LAUNCH", "-c"}


def clang_flags(cmd):
    """The flags of nvcc command ``cmd`` (a harness's compile, less its
    -o, output and source) for Clang, and None; or None and the first flag
    Clang is not given (a bundle's nvcc_flags may hold any)."""
    flags, args = [], iter(cmd[1:-3])
    for c in args:
        if c in CLANG_DROPPED:
            if c in ("--split-compile", "-gencode"):
                next(args)
        elif CLANG_SAME.match(c):
            flags += [c, next(args)] if c == "-I" else [c]
        else:
            return None, c
    return flags, None


def own_device_code(ptx, source):
    """What of the harness's device code (``ptx``, Clang's of the harness's
    ``source``) is its own, not a candidate's: a kernel neither a
    candidate's (its shard macro in the source) nor a harness table's slot
    (metacu/tuned.h), or a device variable, which the host code could
    launch or read; None where there is none."""
    with open(source) as f:
        cands = set(re.findall(r"METACU_TUNE_IN_SHARD_(\w+)", f.read()))
    with open(ptx) as f:
        text = f.read()
    for e in re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", text):
        if "6metacu6detail9tune_slot" not in e and not any(names_candidate(e, c) for c in cands):
            return "its own kernel " + e
    for line in text.splitlines():
        if re.match(r"\s*(\.(visible|weak|extern)\s+)*\.(global|const)\s", line):
            return "a device variable (%s)" % line.strip().rstrip(";")
    return None


def nvcc_instead(why):
    """Says why nvcc compiles the harness, not Clang; False, for
    clang_harness() to return."""
    print("run.py: the harness's host code by nvcc (not by clang: %s)" % why, file=sys.stderr)
    return False


def clang_harness(m, cmd):
    """Compiles a harness's host code (nvcc command ``cmd``, -c) with
    m["clang"] (--clang), Clang's CUDA front end, host side only: one
    process where nvcc's chain is cudafe++, cicc, ptxas and the host
    compiler one after another, about half its time. That builds a harness
    only when its translation unit has no device code of its own (its
    candidates' kernels are empty there, their cubins loaded through the
    driver API, metacu/tune.h), which the device side, compiled beside to
    PTX, shows (own_device_code()). True where the object is written;
    else False, having said why, and nvcc compiles it."""
    t = time.time()
    flags, refused_flag = clang_flags(cmd)
    found = re.search(r"code=(?:sm|compute)_(\w+)", m["gencode"])
    nvcc = shutil.which(cmd[0]) or cmd[0]
    why = None
    if refused_flag:
        why = "nvcc flag %s" % refused_flag
    elif not found:
        why = "no architecture in %s" % m["gencode"]
    if why:
        return nvcc_instead(why)
    target, source = cmd[-2], cmd[-1]
    ptx = target + ".clang.ptx"
    common = [m["clang"], "-x", "cuda", "--cuda-path=" + os.path.dirname(os.path.dirname(nvcc)),
              "-Wno-unknown-cuda-version"]
    try:
        host = subprocess.Popen(common + ["--cuda-host-only"] + flags + ["-c", "-o", target, source],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return nvcc_instead("cannot run %s: %s" % (m["clang"], e.strerror))
    device = subprocess.Popen(common + ["--cuda-device-only", "--cuda-gpu-arch=sm_" + found.group(1)]
                              + [f for f in flags if not f.startswith("-O")]
                              + ["-O0", "-S", "-o", ptx, source],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    errors = [p.communicate()[1] for p in (device, host)]
    failed = [e for p, e in zip((device, host), errors) if p.returncode != 0]
    if failed:
        lines = [l.strip() for l in failed[0].splitlines() if "error" in l] or ["it failed"]
        why = "clang: " + lines[0]
    else:
        why = own_device_code(ptx, source)
    if os.path.exists(ptx):
        os.remove(ptx)
    if why:
        if os.path.exists(target):
            os.remove(target)
        return nvcc_instead(why)
    print("run.py: the harness's host code by clang in %.1f s" % (time.time() - t), file=sys.stderr)
    return True


def compile_job(m, job, nvcc, split, nice=False):
    """Runs the compile of ``job``; ``nice``: at a low priority (one no
    round has asked for yet, Run.speculate()). A harness is its batch's
    host code compiled while machinery_object() is found or compiled, then
    the two linked."""
    cmd, out = nvcc_command(m, job, nvcc, split)
    os.makedirs(os.path.join(HERE, "bin"), exist_ok=True)
    if job["kind"] == "locate":
        return locate(job, cmd)
    if job.get("shared"):
        return shared_harness(m, job, nvcc, split)
    t = time.time()
    machinery = {}
    if job["kind"] == "harness":
        # Beside the batch's compile, not after it: on a cold cache the
        # machinery's compile is off the critical path.
        fetch = threading.Thread(target=lambda: machinery.update(r=machinery_object(m, nvcc)))
        fetch.start()
    keep = None
    if job["kind"] == "shard" and cmd[-1].endswith(".cu"):
        # nvcc's intermediate files, of which the PTX is kept should ptxas
        # refuse a kernel: the rest of the shard is then assembled from it
        # (refused()) instead of compiled again from the source.
        keep = os.path.join(HERE, "bin", job["name"] + ".keep")
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
        if os.path.exists(os.path.join(HERE, kept_ptx(job))):
            os.remove(os.path.join(HERE, kept_ptx(job)))
        cmd = cmd[:-3] + ["--keep", "--keep-dir", keep] + cmd[-3:]
    # Only the bundle's one harness: a batch's own harness finds its
    # candidates' kernels by their stubs' names, which only nvcc's
    # registration of the batch's device code gives (metacu/tune.h).
    if (job["kind"] == "harness" and m.get("clang") and m.get("harness")
            and job.get("source") == m["harness"] and clang_harness(m, cmd)):
        p = subprocess.CompletedProcess(cmd, 0, "", "")
    else:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           preexec_fn=(lambda: os.nice(10)) if nice else None)
    if keep:
        ptx = [f for f in os.listdir(keep) if f.endswith(".ptx")]
        if p.returncode != 0 and len(ptx) == 1:
            os.replace(os.path.join(keep, ptx[0]), os.path.join(HERE, kept_ptx(job)))
        shutil.rmtree(keep, ignore_errors=True)
    if job["kind"] == "harness":
        fetch.join()
    if p.returncode == 0 and job["kind"] == "harness":
        obj, errors = machinery.get("r") or (None, ["the harness's machinery did not build"])
        if errors:
            return None, (time.time() - t) * 1000, errors
        exe = os.path.join(HERE, out)
        p = subprocess.run([nvcc, "-gencode", m["gencode"], exe + ".o", obj, *HARNESS_LINK,
                            "-o", exe], capture_output=True, text=True)
    if job["kind"] == "harness" and os.path.exists(os.path.join(HERE, out + ".o")):
        os.remove(os.path.join(HERE, out + ".o"))
    ms = (time.time() - t) * 1000
    if p.returncode != 0:
        lines = [l.strip() for l in p.stderr.splitlines() if "error" in l]
        return None, ms, lines or [l.strip() for l in p.stderr.splitlines()][:1] or ["nvcc failed"]
    return out, ms, None


def shared_harness(m, job, nvcc, split):
    """The bundle's one harness (the manifest's ``harness``), which does not
    depend on the candidates: kept in cache_dir() under a hash of its
    source, the kernel's headers beside it, the runtime headers, nvcc's
    version and the flags, so that a later round or run of the same kernel
    starts it without compiling anything; compiled as a batch's harness is
    (compile_job) where the cache has none. One compile at a time per
    process and per cache entry (a lock file), so that concurrent runs of
    one kernel wait for the first's."""
    t = time.time()
    cmd, out = nvcc_command(m, job, nvcc, split)
    # The flags but the bundle's own paths and nvcc's threads, which differ
    # between rounds and runs and change nothing built.
    flags = [c.replace(HERE, "@") for k, c in enumerate(cmd[1:-3])
             if "--split-compile" not in (c, cmd[k])]
    # The batches' sources (and their line tables) are the candidates'.
    batches = {os.path.join("src", os.path.normpath(b["source"])) for b in m["batches"]}
    files = [(path, name) for top in ("src", "include")
             for path, name in tree_files(HERE, top)
             if not (name in batches or (name.startswith("src/") and name.endswith("_lines.cu")))]
    key, error = cache_key(nvcc, flags, files)
    if error:
        return None, 0.0, [error]
    exe = os.path.join(writable_cache_dir(), "table-harness-%s" % key)
    with SHARED_LOCK, open(exe + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(exe):
            return exe, (time.time() - t) * 1000, None
        built, ms, errors = compile_job(m, dict(job, shared=False, name="harness"), nvcc, split)
        if errors:
            return None, ms, errors
        os.replace(os.path.join(HERE, built), exe)
    return exe, (time.time() - t) * 1000, None


def names_candidate(kernel, name):
    """Whether ``kernel`` (a name as the compiler spells it, plain or
    Itanium-mangled) is one of candidate ``name``'s kernels: ``name`` or
    ``name_...``, as metacu/tune.h and metacu's Shards.h say."""
    fits = lambda ident: ident == name or ident.startswith(name + "_")
    if fits(kernel):
        return True
    for d in re.finditer(r"(?<![0-9])[0-9]+", kernel):
        if fits(kernel[d.end():d.end() + int(d.group())]):
            return True
    return False


def blamed(errors, batch, members):
    """The members of a failed shard that its error lines name (ptxas names
    the kernel: "Entry function '_Z...' uses too much shared data"), each
    with the first line that names it."""
    out = {}
    for line in errors:
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line):
            for i in members:
                if i not in out and names_candidate(word, batch["candidates"][i]["name"]):
                    out[i] = line
    return out


def locate(job, cmd):
    """The members of a failed shard whose kernel bodies hold its errors,
    for an error that names no kernel (the front end's, at the user's line):
    the shard compiled again from a copy of its batch whose #line
    directives are blank lines, so that nvcc reports the copy's own lines,
    each looked up in the candidates' guards (metacu's Shards.h). Returns
    (None, ms, members) like compile_job; no members when the errors fall
    outside every guard or the copy compiles."""
    b = job["batch"]
    source = os.path.join(HERE, "src", b["source"])
    with open(source) as f:
        lines = f.read().split("\n")
    with open(cmd[-1], "w") as f:
        f.write("\n".join("" if re.match(r"\s*#\s*(line\b|[0-9])", l) else l for l in lines))
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    ms = (time.time() - t) * 1000
    os.remove(cmd[-1])
    errors = set(int(n) for n in re.findall(
        re.escape(os.path.basename(cmd[-1])) + r"\(([0-9]+)\): error", p.stderr))
    # Each guard's lines: from its #if to the #endif that closes it.
    owner = {}
    guard = re.compile(r"#if !defined\(METACU_TUNE_SHARD\) \|\| defined\(METACU_TUNE_IN_SHARD_(\w+)\)")
    by_name = {b["candidates"][i]["name"]: i for i in job["candidates"]}
    for k, line in enumerate(lines):
        g = guard.match(line.strip())
        if not g or g.group(1) not in by_name:
            continue
        depth = 0
        for j in range(k, len(lines)):
            d = lines[j].strip()
            depth += d.startswith("#if") - d.startswith("#endif")
            if depth == 0:
                break
            owner[j + 1] = by_name[g.group(1)]
    found = sorted(set(owner[n] for n in errors if n in owner))
    return None, ms, found if errors and all(n in owner for n in errors) else []


def refused(job, errors):
    """What follows a shard nvcc refused (``errors``, its error lines), or
    the look for whose kernel holds them (a "locate" job; ``errors``, the
    members found): the candidates that fail, each with its line, and the
    compiles to submit next. Which candidates nvcc refuses, without
    compiling the others one by one: those its errors name fail, the rest
    compile again; when it names none, the shard is compiled once more to
    find whose kernel the errors are in, and failing that each half
    compiles alone."""
    members = job["candidates"]
    if job["kind"] == "locate":
        named = {i: job["reason"] for i in errors}
        job = job["shard"]
    else:
        named = blamed(errors, job["batch"], members) if len(members) > 1 else \
            {members[0]: errors[0]}
        if not named and not job.get("located"):
            return {}, [dict(job, kind="locate", name=job["name"] + "_lines",
                             reason=errors[0], shard=dict(job, located=True))]
    rest = [i for i in members if i not in named]
    parts = [rest] if named else [rest[:len(rest) // 2], rest[len(rest) // 2:]]
    # The rest of a shard whose errors name kernels (ptxas's) is its PTX
    # assembled again without them, where compile_job kept it (ptxas alone,
    # not the whole translation unit again; compiled from the source where
    # there is none: a front-end error, another host's compile).
    ptx = (job.get("ptx") or kept_ptx(job)) if named and job["kind"] == "shard" else None
    # After a look that found nothing, halving alone.
    return named, [dict(job, candidates=part, located=bool(job.get("located")) and not named,
                        name="%s_%s" % (job["name"], "r" if named else k), ptx=ptx,
                        shard_of=job.get("shard_of") or members)
                   for k, part in enumerate(p for p in parts if p)]


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


class Ready:
    """Compiled shards waiting for a GPU, each with its batch's harness."""

    def __init__(self):
        self.cv = threading.Condition()
        self.items = []
        self.closed = False

    def put(self, item):
        with self.cv:
            self.items.append(item)
            self.cv.notify_all()

    def close(self):
        with self.cv:
            self.closed = True
            self.cv.notify_all()

    def take(self, key, gpu=None):
        """The next shard, one of a batch of harness ``key`` first (its
        harness is up, harness_key()), or a harness to start on ``gpu`` (an
        item that names it); None when no more will come."""
        with self.cv:
            while True:
                mine = [k for k, it in enumerate(self.items) if it.get("gpu") in (None, gpu)]
                if mine or self.closed:
                    break
                self.cv.wait()
            if not mine:
                return None
            k = next((k for k in mine if self.items[k].get("key") == key), mine[0])
            return self.items.pop(k)


def harness_command(m, exe):
    """The command line of a harness process of ``exe`` for the bundle
    ``m``."""
    cmd = [os.path.join(HERE, exe), "--serve", "--tolerance", repr(m["tolerance"]),
           "--warmup", str(m["warmup"]), "--repeat", str(m["repeat"])]
    if m.get("harness"):
        cmd += ["--table", m["declared"]["kernel"]]
    if m.get("cutoff"):  # --cutoff: a clearly slower candidate's runs cut short
        cmd += ["--cutoff", repr(m["cutoff"])]
    if m.get("sizes"):  # every candidate timed at each (tune_space::sizes)
        cmd += ["--sizes", ";".join(",".join(str(n) for n in s) for s in m["sizes"])]
    elif m["size"]:
        cmd += ["--size", ",".join(str(n) for n in m["size"])]
    return cmd


class Harness:
    """One harness process on one GPU, serving the shards of one batch
    (``key``, harness_key(); None for one started before the bundle was
    written, --early, until a batch takes it)."""

    def __init__(self, cmd, gpu, key=None, shared=False):
        self.cmd, self.key, self.gpu = cmd, key, gpu
        # The bundle's one harness names candidates by configuration (they
        # come from every batch) and is handed their parameters, for its
        # table (metacu/tuned.h's tune_harness_table).
        self.shared = shared
        self.index = {}
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, cwd=HERE,
                                  env=dict(os.environ, CUDA_VISIBLE_DEVICES=gpu))
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(l) for l in self.p.stdout]
                         + [self.lines.put(None)], daemon=True).start()
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.extend(self.p.stderr), daemon=True).start()
        self.info = {}
        self.ready = False  # the problem is set up

    def send(self, batch, cubin, members):
        fields = []
        for i in members:
            c = batch["candidates"][i]
            if self.shared:
                self.index[c["config"]] = i
                fields.append("%d:%s:%s" % (c["config"], c["name"], ",".join(
                    "%s=%d" % (k, int(v)) for k, v in sorted(c["params"].items()))))
            else:
                fields.append("%d:%s" % (i, c["name"]))
        try:
            self.p.stdin.write("\t".join([cubin] + fields) + "\n")
            self.p.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def candidate(self, k):
        """The batch's index of the candidate the harness calls ``k``."""
        return self.index.get(k, k) if self.shared else k

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self):
        self.p.kill()
        self.p.wait()

    def why_it_died(self):
        self.p.wait()
        time.sleep(0.05)  # the stderr reader's last lines
        err = "".join(self.stderr).strip().splitlines()
        return "the harness died (exit status %d)%s" % (self.p.returncode,
                                                         ": " + err[-1] if err else "")


def early_record(key):
    """Where a live run of the kernel ``key`` names (--early) records its
    harness's command line, for the next run's to start before its bundle
    is written."""
    return os.path.join(cache_dir(), "early-%s.json" % re.sub(r"[^\w-]", "_", key))


def record_early(path, cmd):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open(tmp, "w") as f:
            json.dump({"cmd": cmd}, f)
        os.replace(tmp, path)
    except OSError:  # a cache that cannot be written: no early start next time
        pass


def start_early(key, gpu_ids):
    """--early: the harness the last live run of the same kernel recorded
    (early_record()), started on each GPU before the bundle is written, so
    that its CUDA context and problem are made while metacu expands the
    file; a run whose bundle turns out to need another harness ends it
    (GpuWorker.new_harness()). GPU to harness; none where nothing was
    recorded or its executable is gone."""
    try:
        with open(early_record(key)) as f:
            cmd = json.load(f)["cmd"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    if not (isinstance(cmd, list) and cmd and os.path.exists(str(cmd[0]))):
        return {}
    return {g: Harness([str(c) for c in cmd], g) for g in gpu_ids}


class GpuWorker:
    """Times the shards on one GPU, one harness at a time."""

    def __init__(self, m, gpu, timeout, results, done, stats, fatal, early=None):
        self.m, self.gpu, self.timeout = m, gpu, timeout
        self.results, self.done, self.stats, self.fatal = results, done, stats, fatal
        self.harness = None
        # The harness started before the bundle was written (--early), and
        # where the bundle's one harness is recorded for the next run's.
        self.early, self.record_as = early, None

    def loop(self, ready):
        try:
            while not self.fatal:
                item = ready.take(self.harness.key if self.harness else None, self.gpu)
                if item is None:
                    break
                if item.get("start"):
                    self.start(item)
                else:
                    self.run_shard(item)
        finally:
            if self.harness:
                self.harness.close()
            if self.early:
                self.early.kill()

    def new_harness(self, batch, exe):
        """A harness process of ``batch``'s harness ``exe``: the one started
        before the bundle was written where it is the same command (its
        problem made meanwhile), else a new one (the early one ended)."""
        cmd = harness_command(self.m, exe)
        early, self.early = self.early, None
        if early and early.cmd == cmd and early.p.poll() is None:
            print("run.py: the harness started before the bundle serves it", file=sys.stderr)
            early.key, early.shared = harness_key(self.m, batch), bool(self.m.get("harness"))
            return early
        if early:
            early.kill()
            print("run.py: the harness started before the bundle is not its own (ended)",
                  file=sys.stderr)
        self.stats.add(harnesses=1)
        if self.m.get("harness") and self.record_as:
            record_early(self.record_as, cmd)
        return Harness(cmd, self.gpu, harness_key(self.m, batch), bool(self.m.get("harness")))

    def start(self, item):
        """Starts the harness of ``item``'s batch as soon as it is built, so
        that the problem is made while the cores still compile the shards;
        one already serving that batch is kept."""
        if self.harness and self.harness.key == harness_key(self.m, item["batch"]):
            return
        if self.harness:
            self.harness.close()
        self.harness = self.new_harness(item["batch"], item["exe"])

    def record(self, batch, i, item, **rec):
        c = batch["candidates"][i]
        if c["config"] in self.done:
            return
        rec.update(config=c["config"], compile_ms=item["compile_ms"], gpu=self.gpu,
                   **(self.harness.info if self.harness else {}))
        self.results.add(rec)
        self.done.add(c["config"])

    def run_shard(self, item):
        b = item["batch"]
        todo = [i for i in item["candidates"] if b["candidates"][i]["config"] not in self.done]
        fresh = False
        while todo:
            if self.harness and self.harness.key != harness_key(self.m, b):
                self.harness.close()
                self.harness = None
            if not self.harness:
                self.harness = self.new_harness(b, item["exe"])
                fresh = True
            h = self.harness
            sent = h.send(b, item["cubin"], todo)
            if not sent and not fresh:
                # It ended after its last shard: a new one for this.
                h.kill()
                self.harness = None
                continue
            running, why, started, setup = None, "exit", time.time(), False
            while sent:
                try:
                    line = h.lines.get(timeout=max(0.1, self.timeout - (time.time() - started)))
                except queue.Empty:
                    h.kill()
                    why = "timeout"
                    break
                if line is None:
                    break
                started = time.time()
                rec = json.loads(line)
                if "device" in rec:
                    h.info = {"device": rec["device"], "driver": rec["driver"]}
                elif "setup_ms" in rec:
                    h.ready = True
                    self.stats.add(setup_ms=rec["setup_ms"])
                elif "start" in rec:
                    running = h.candidate(rec["start"])
                elif "done" in rec:
                    why = "done"
                    break
                else:
                    i = h.candidate(rec.pop("candidate"))
                    running = None
                    self.record(b, i, item, **rec)
            left = [i for i in todo if b["candidates"][i]["config"] not in self.done]
            if why == "done":
                for i in left:  # the harness skipped none so far; never loop on it
                    self.record(b, i, item, status="runtime",
                                reason="the harness gave no result")
                return
            if why == "timeout":
                reason = "no result within %g s" % self.timeout
            else:
                reason = h.why_it_died()
            self.harness = None
            if running is not None and running in left:
                self.record(b, running, item, status="timeout" if why == "timeout" else "runtime",
                            reason=reason)
            elif not h.ready:
                # It died setting the problem up: another start would fail
                # alike.
                self.fatal.append("run.py: %s failed outside any candidate: %s"
                                  % (item["exe"], reason))
                return
            now_left = [i for i in left if b["candidates"][i]["config"] not in self.done]
            if now_left == todo:
                for i in now_left:
                    self.record(b, i, item, status="runtime",
                                reason="the harness exited without a result")
            todo = [i for i in now_left if b["candidates"][i]["config"] not in self.done]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", default="0",
                    help="the GPUs to time on: 0 (the default), 0,1 or all")
    ap.add_argument("--jobs", type=int, default=None,
                    help="nvcc processes at once (default: every core, or with "
                    "--scheduler every CPU slot of the cluster's compile workers)")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--clang", metavar="PATH",
                    help="compile the bundle's harness with this Clang (its CUDA front end, "
                    "host side only) where its translation unit has no device code of its "
                    "own, else with nvcc (metacu tune gives the Clang it was built with)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds a candidate may run before it counts as hung")
    ap.add_argument("--shards", type=int, default=0,
                    help="compiles per batch (default: one per %d candidates, "
                    "as far as the cores go)" % SHARD_CANDIDATES)
    ap.add_argument("--compile-only", action="store_true",
                    help="compile, record what does not build, time nothing")
    ap.add_argument("--rounds", action="store_true",
                    help="serve rounds: each line on stdin a JSON list of configurations "
                    "to measure, each result told on stdout as it comes and the round when it is done; the "
                    "harnesses stay up between rounds (metacu tune's live run)")
    ap.add_argument("--cutoff", type=float, default=None,
                    help="time no further a candidate whose first two timed runs are both "
                    "slower than F times the best median so far (default: %g with --rounds, "
                    "where the search waits for the GPU; else 0: every run)" % ROUNDS_CUTOFF)
    ap.add_argument("--early", metavar="KEY",
                    help="with --rounds, started before the bundle is written (metacu tune "
                    "starts it before it expands the file): start the harness the last run "
                    "of KEY (the kernel) recorded at once, read the manifest at the first "
                    "round's line, and serve the bundle with that harness where it is the "
                    "bundle's own")
    ap.add_argument("--machinery-include", metavar="DIR",
                    help="with --early, compile the harness's machinery (metacu/tune.h) into "
                    "the cache at once from these runtime headers (metacu's, which the bundle "
                    "copies), so that a cold cache's harness does not wait for it")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the compiles (one JSON line each) and stop")
    ap.add_argument("--harness-only", action="store_true",
                    help="compile the bundle's one harness into the cache and stop "
                    "(metacu tune starts it while it expands the candidates)")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="run on the Dask cluster of this scheduler (an address, a "
                    "scheduler file, or 'local' for one of this host's cores and "
                    "--gpus); see dask_runner.py")
    a = ap.parse_args()
    if a.early and not a.rounds:
        sys.exit("run.py: --early serves rounds (--rounds)")
    if a.rounds and (a.scheduler or a.compile_only or a.dry_run):
        sys.exit("run.py: --rounds times what it compiles, here: not with --scheduler, "
                 "--compile-only or --dry-run")
    if a.scheduler and a.cutoff is not None:
        sys.exit("run.py: --cutoff: the Dask runner times every run (not with --scheduler)")
    if a.scheduler and not a.dry_run:
        # The Dask runner, beside this file: only it needs dask. Not
        # importable by its name (no sys.modules entry), so that its
        # functions are sent to the cluster by value.
        spec = importlib.util.spec_from_file_location(
            "metacu_dask_runner", os.path.join(HERE, "dask_runner.py"))
        dask_runner = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(dask_runner)
        return dask_runner.main(a, sys.modules[__name__])
    a.jobs = a.jobs or os.cpu_count() or 1
    if a.cutoff is None:
        a.cutoff = ROUNDS_CUTOFF if a.rounds else 0.0
    if a.cutoff != 0 and not a.cutoff >= 1:
        sys.exit("run.py: --cutoff %g: 0 (every run) or at least 1" % a.cutoff)
    requests, early = sys.stdin, {}
    if a.early:
        # Started before metacu writes the bundle, which is there once the
        # first round's line comes; none: metacu's run ended before it.
        early = start_early(a.early, gpu_list(a.gpus))
        if a.machinery_include:
            # While metacu expands the file; the bundle's harness compile
            # (this process's or run.py --harness-only's) waits for it. Not
            # a daemon: a run that ends meanwhile leaves no half-made object.
            threading.Thread(target=machinery_object,
                             args=(dict(nvcc_flags=[]), a.nvcc, a.machinery_include)).start()
        first = sys.stdin.readline()
        if not first:
            for h in early.values():
                h.kill()
            return
        requests = itertools.chain([first], sys.stdin)
    with open(os.path.join(HERE, "manifest.json")) as f:
        m = json.load(f)
    m["cutoff"] = a.cutoff
    m["clang"] = a.clang
    path = os.path.join(HERE, "results.jsonl")
    done = load_done(path)
    failed = [f for f in m["failed"] if f["config"] not in done]
    done.update(f["config"] for f in failed)
    jobs = plan(m, done, a.jobs, a.shards)
    if a.dry_run:
        for job in jobs:
            cmd, out = nvcc_command(m, job, a.nvcc, 1)
            print(json.dumps({job["kind"]: out,
                              "configs": [job["batch"]["candidates"][i]["config"]
                                          for i in job["candidates"]],
                              "defines": [c for c in cmd if c.startswith("-DMETACU_TUNE_")]}))
        return
    gpu_ids = gpu_list(a.gpus)
    if "{gpu}" in m["gencode"]:
        cc = compute_capability(gpu_ids[0])
        if not cc:
            sys.exit("run.py: %s needs the GPU's architecture; nvidia-smi did not say" % m["image"])
        m["gencode"] = m["gencode"].replace("{gpu}", cc)
    if a.harness_only:
        if not m.get("harness"):
            sys.exit("run.py: --harness-only: the bundle has no harness of its own "
                     "(its harnesses are its batches')")
        exe, ms, errors = shared_harness(
            m, dict(kind="harness", batch=dict(source=m["harness"], candidates=[]),
                    name="harness", candidates=[], shared=True, source=m["harness"]),
            a.nvcc, a.jobs)
        if errors:
            sys.exit("run.py: the harness does not build: %s" % errors[0])
        print("run.py: harness %s in %.1f s" % (exe, ms / 1000), file=sys.stderr)
        return
    results = Results(path)
    for f in failed:
        results.add(dict(config=f["config"], status="compile", reason=f["reason"]))
    run = Run(m, a, results, done, gpu_ids, early)
    t0 = time.time()
    try:
        if a.rounds:
            served = run.serve(requests, sys.stdout)
        else:
            run.build(jobs)
            served = sum(len(j["candidates"]) for j in jobs if j["kind"] == "shard")
    finally:
        run.close()
    if run.fatal:
        sys.exit(run.fatal[0])
    print("run.py: %d candidates in %.1f s (%d nvcc, %d harness processes, %.1f s of harness setup)"
          % (served, time.time() - t0, run.stats.compiles, run.stats.harnesses,
             run.stats.setup_ms / 1000), file=sys.stderr)


class KeptCubins:
    """The shards' cubins of --rounds runs, kept in cache_dir() under a
    hash of the bundle's sources and headers (its candidates' text), nvcc's
    version and the shard compile's flags, one file per shard named by its
    configurations: a later run of the same kernel text (another seed, a
    strategy's rerun) times a kept candidate without compiling it, as
    Kernel Tuner's cupy reuses its compile cache. A cubin holds its
    shard-mates' kernels too; only the candidates asked for are timed.
    Beside them, each candidate nvcc refused (``CONFIG.refused``, the error
    line that named it), so that a later run fails it without compiling it
    again: the same text and flags are refused alike."""

    def __init__(self, m, nvcc):
        self.m, self.dir = m, None
        if nvcc is None or not m["batches"]:
            return
        b = m["batches"][0]
        cmd, _ = nvcc_command(m, dict(kind="shard", batch=b, name="kept", candidates=[]), nvcc, 1)
        flags = [c.replace(HERE, "@") for k, c in enumerate(cmd[1:-3])
                 if "--split-compile" not in (c, cmd[k])]
        files = [(path, name) for top in ("src", "include") for path, name in tree_files(HERE, top)
                 if not (name.startswith("src/") and name.endswith("_lines.cu"))]
        key, error = cache_key(nvcc, flags, files)
        if not error:
            self.dir = os.path.join(writable_cache_dir(), "cubins-%s" % key)

    def load(self, done):
        """The kept shards of candidates not ``done``, as Run.prebuilt
        holds them: configuration to (shard job, cubin, 0 ms)."""
        out = {}
        if not self.dir or not os.path.isdir(self.dir):
            return out
        where = {c["config"]: (b, i) for b in self.m["batches"]
                 for i, c in enumerate(b["candidates"])}
        for f in sorted(os.listdir(self.dir)):
            stem, ext = os.path.splitext(f)
            if ext != ".cubin" or not re.fullmatch(r"[0-9]+(-[0-9]+)*", stem):
                continue
            configs = [int(c) for c in stem.split("-")]
            if not all(c in where for c in configs):
                continue
            batch = where[configs[0]][0]
            job = dict(kind="shard", batch=batch, name="kept_" + stem,
                       candidates=[where[c][1] for c in configs if where[c][0] is batch])
            for c in configs:
                if c not in done and where[c][0] is batch:
                    out[c] = (job, os.path.join(self.dir, f), 0.0)
        return out

    def refusals(self, done):
        """The candidates not ``done`` that an earlier run's nvcc refused:
        configuration to the error line that named it."""
        out = {}
        if not self.dir or not os.path.isdir(self.dir):
            return out
        configs = {c["config"] for b in self.m["batches"] for c in b["candidates"]}
        for f in sorted(os.listdir(self.dir)):
            stem, ext = os.path.splitext(f)
            if ext == ".refused" and stem.isdigit() and int(stem) in configs - done:
                with open(os.path.join(self.dir, f)) as r:
                    out[int(stem)] = r.read().strip() or "nvcc refused it"
        return out

    def refuse(self, job, i, reason):
        """Records that nvcc refused candidate ``i`` of ``job``'s batch."""
        def fill(tmp):
            with open(tmp, "w") as f:
                f.write(reason + "\n")

        # Only a compiler's diagnostic: an nvcc killed (out of memory, a
        # signal) may build it next time.
        if "error" in reason:
            self.write("%d.refused" % job["batch"]["candidates"][i]["config"], fill)

    def keep(self, job, cubin):
        """Copies the built ``cubin`` of shard ``job`` into the cache."""
        if not self.dir:
            return
        configs = sorted(job["batch"]["candidates"][i]["config"] for i in job["candidates"])
        name = "-".join(map(str, configs)) + ".cubin"
        if len(name) > 200:  # a file name's limit: not kept
            return
        self.write(name, lambda tmp: shutil.copyfile(os.path.join(HERE, cubin), tmp))

    def write(self, name, fill):
        """Puts file ``name`` in the cache whole (``fill`` writes a
        temporary, renamed into place), or not at all."""
        if not self.dir:
            return
        try:
            os.makedirs(self.dir, exist_ok=True)
            tmp = os.path.join(self.dir, "%s.%d.%d.tmp" % (name, os.getpid(), threading.get_ident()))
            fill(tmp)
            os.replace(tmp, os.path.join(self.dir, name))
        except OSError:
            pass


class Run:
    """The compiles over the cores and the GPUs' harnesses of one run.py
    process. Each batch's harness is compiled once and its processes (one
    per GPU) started as soon as it is built; with --rounds they serve every
    round, so that the problem is made once per GPU per run."""

    def __init__(self, m, a, results, done, gpu_ids, early=None):
        self.m, self.a, self.results, self.done = m, a, results, done
        self.stats = Stats()
        self.ready = Ready()
        self.fatal = []
        # Per batch (by source): its harness once built (or its error), the
        # shards built before it, and the harness's compile time shared out.
        self.batches = {}
        early = early or {}
        self.stats.add(harnesses=len(early))
        self.workers = [] if a.compile_only else [
            GpuWorker(m, g, a.timeout, results, done, self.stats, self.fatal, early.get(g))
            for g in gpu_ids]
        for w in self.workers:
            w.record_as = a.early and early_record(a.early)
        self.compilers = concurrent.futures.ThreadPoolExecutor(a.jobs)
        # --rounds: the candidates no round has asked for yet, compiled on
        # the cores the rounds leave idle (speculate()): the built shards
        # by configuration, and the configurations whose shard compiles.
        self.speculative = concurrent.futures.ThreadPoolExecutor(a.jobs)
        self.prebuilt, self.prebuilding = {}, set()
        # Shards built by earlier runs of the same bundle text (KeptCubins):
        # prebuilt from the start.
        self.kept = KeptCubins(m, a.nvcc if a.rounds else None)
        self.prebuilt.update(self.kept.load(done))
        for c, reason in self.kept.refusals(done).items():
            results.add(dict(config=c, status="compile", reason=reason))
            done.add(c)
        self.wanted = set()
        self.names = 0
        # The harness states, the rounds' wants and the prebuilt shards,
        # which the speculative compiles' callbacks update too.
        self.lock = threading.RLock()
        self.runners = concurrent.futures.ThreadPoolExecutor(max(1, len(self.workers)))
        self.timed = [self.runners.submit(w.loop, self.ready) for w in self.workers]

    def close(self):
        try:
            self.speculative.shutdown(cancel_futures=True)
        except TypeError:  # Python before 3.9 runs what is queued
            self.speculative.shutdown()
        self.ready.close()
        for fut in self.timed:
            fut.result()
        self.compilers.shutdown()
        self.runners.shutdown()

    def fail(self, job, i, reason, ms):
        c = job["batch"]["candidates"][i]
        if c["config"] not in self.done:
            self.results.add(dict(config=c["config"], status="compile", reason=reason,
                                  compile_ms=ms))
            self.done.add(c["config"])

    def shard_built(self, job, cubin, ms):
        self.kept.keep(job, cubin)
        with self.lock:
            self.hand_over(job, cubin, ms)

    def hand_over(self, job, cubin, ms):
        item = self.shard_ended(self.batches[harness_key(self.m, job["batch"])], job,
                                dict(batch=job["batch"], key=harness_key(self.m, job["batch"]),
                                     cubin=cubin, candidates=job["candidates"],
                                     compile_ms=ms / len(job["candidates"])), ms, self.fail)
        if item is not None and not self.a.compile_only:
            self.ready.put(item)

    def harness_built(self, job, out, ms, errors):
        with self.lock:
            waiting = self.harness_ended(self.batches[harness_key(self.m, job["batch"])], job, out, ms,
                                         errors, self.fail)
            if errors is None and not self.a.compile_only:
                for w in self.workers:
                    self.ready.put(dict(start=True, batch=job["batch"], exe=out, gpu=w.gpu))
                for item in waiting:
                    self.ready.put(item)

    # A batch's state, which the Dask runner (dask_runner.py) keeps through
    # these same functions: its harness once built (``exe``: a path here, a
    # Dask future there) or the error that stopped it, the shards built
    # before it, and its compile time shared by the candidates it serves.
    @staticmethod
    def batch_state(size):
        return dict(exe=None, error=None, waiting=[], share=0.0, size=max(1, size))

    @staticmethod
    def harness_ended(state, job, exe, ms, errors, fail):
        """The compile of ``job``, a batch's harness, ended: the shards that
        waited for it, each with its share of the compile; ``errors``: the
        batch's host code does not build, so none of its candidates can run
        (``fail(job, i, reason, ms)`` each; shard_ended fails the later
        ones, in later rounds too)."""
        if errors is not None:
            state["error"] = errors[0]
            for i in job["candidates"]:
                fail(job, i, errors[0], ms)
            # The shards that waited (of every batch, for the bundle's one
            # harness) cannot run either.
            for item in state["waiting"]:
                for i in item["candidates"]:
                    fail(item, i, errors[0], ms)
            state["waiting"] = []
            return []
        state.update(exe=exe, share=ms / state["size"])
        waiting, state["waiting"] = state["waiting"], []
        for item in waiting:
            item.update(exe=exe, compile_ms=item["compile_ms"] + state["share"])
        return waiting

    @staticmethod
    def shard_ended(state, job, item, ms, fail):
        """A shard of ``job``'s batch is built (``item``: what the GPUs
        need of it): the item to time now, with its share of the harness's
        compile, or None: it waits for the harness (harness_ended returns
        it), or the harness failed and so do its candidates."""
        if state["error"] is not None:
            for i in job["candidates"]:
                fail(job, i, state["error"], ms)
            return None
        if state["exe"] is None:
            state["waiting"].append(item)
            return None
        item.update(exe=state["exe"], compile_ms=item["compile_ms"] + state["share"])
        return item

    def unique(self, jobs, tag):
        """``jobs`` with names no other compile of this process has (a
        round's shard 0 must not overwrite a speculative one's cubin)."""
        if self.a.rounds:
            self.names += 1
            for j in jobs:
                if j["kind"] == "shard":
                    j["name"] += "_%s%d" % (tag, self.names)
        return jobs

    def register(self, jobs):
        """The state of each batch whose harness is among ``jobs`` (kept
        where a round registered it already, serve())."""
        for job in jobs:
            if job["kind"] == "harness" and harness_key(self.m, job["batch"]) not in self.batches:
                # Its compile time is shared by the candidates it serves:
                # with --rounds, every candidate of its batch.
                if job.get("shared"):
                    n = sum(len(b["candidates"]) for b in self.m["batches"])
                else:
                    n = len(job["batch"]["candidates"]) if self.a.rounds else len(job["candidates"])
                self.batches[harness_key(self.m, job["batch"])] = self.batch_state(n)

    def build(self, jobs, submitted=None):
        """Runs the compiles of ``jobs`` (and those a refused shard leads
        to), handing each built shard to the GPUs; sets the event
        ``submitted`` once they are all submitted."""
        # nvcc's own threads for what the cores have left over.
        split = max(1, self.a.jobs // max(1, len(jobs)))
        self.register(jobs)
        # Harnesses first: a batch's shards wait for it.
        building = {self.compilers.submit(compile_job, self.m, job, self.a.nvcc, split): job
                    for job in sorted(jobs, key=lambda j: j["kind"] != "harness")}
        if submitted:
            submitted.set()
        while building:
            finished, _ = concurrent.futures.wait(
                building, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in finished:
                job = building.pop(fut)
                out, ms, errors = fut.result()
                self.stats.add(compiles=1)
                if job["kind"] == "harness":
                    self.harness_built(job, out, ms, errors)
                elif job["kind"] == "shard" and errors is None:
                    self.shard_built(job, out, ms)
                else:
                    named, again = refused(job, errors)
                    for i, line in named.items():
                        self.fail(job, i, line, ms / len(job["candidates"]))
                        self.kept.refuse(job, i, line)
                    for j in again:
                        building[self.compilers.submit(compile_job, self.m, j, self.a.nvcc,
                                                       split)] = j

    def take_prebuilt(self, order):
        """Hands the GPUs the prebuilt shards of the configurations
        ``order`` lists (those whose speculative compile is still running
        are handed over when it ends); returns the configurations left to
        compile. They are timed in the order the strategy gave: a shard's
        cubin handed over once for each run of consecutive configurations
        it holds (a space measured whole, every cubin kept by an earlier
        run, is timed as the strategy lists it, not as the cubins group
        it)."""
        fresh, runs = set(), []
        for c in dict.fromkeys(order):
            if c in self.done:
                continue
            if c in self.prebuilt:
                job, cubin, ms = self.prebuilt[c]
                if runs and runs[-1][1] == cubin:
                    runs[-1][3].append(c)
                else:
                    runs.append((job, cubin, ms, [c]))
            elif c not in self.prebuilding:
                fresh.add(c)
        for job, cubin, ms, cs in runs:
            self.hand_over(self.members(job, cs, cs), cubin,
                           ms * len(cs) / len(job["candidates"]))
        return fresh

    @staticmethod
    def members(job, configs, order=None):
        """``job`` with only its candidates whose configurations are in
        ``configs``, in the order of the configurations ``order`` lists
        where it is given."""
        cands = job["batch"]["candidates"]
        kept = [i for i in job["candidates"] if cands[i]["config"] in configs]
        if order is not None:
            at = {c: k for k, c in enumerate(order)}
            kept.sort(key=lambda i: at[cands[i]["config"]])
        return dict(job, candidates=kept)

    def build_then_speculate(self, jobs, rest):
        """The first round: its compiles, then (submitted right after
        them, so that they start while the round's harness compiles)
        every other candidate's shards at a low priority."""
        done = threading.Event()
        t = threading.Thread(target=lambda: (done.wait(), self.speculate(rest)), daemon=True)
        t.start()
        try:
            self.build(jobs, submitted=done)
        finally:
            done.set()
            t.join()

    def speculate(self, rest):
        """Compiles the shards of the configurations ``rest`` (of batches
        whose harness is built or building) at a low priority, on the
        cores the rounds leave idle, so that a round that asks for them
        finds them built: a local search's round is a few configurations,
        a shard's compile for each costs about a second, and the cores
        would wait for the GPU meanwhile."""
        with self.lock:
            jobs = [j for j in self.unique(plan(self.m, self.done, self.a.jobs, self.a.shards,
                                                rest, built=self.batches), "s")
                    if j["kind"] == "shard" and harness_key(self.m, j["batch"]) in self.batches]
            for j in jobs:
                self.prebuilding.update(self.configs(j))
        for j in jobs:
            self.submit_speculative(j)

    @staticmethod
    def configs(job):
        return {job["batch"]["candidates"][i]["config"] for i in job["candidates"]}

    def submit_speculative(self, job):
        fut = self.speculative.submit(compile_job, self.m, job, self.a.nvcc, 1, True)
        fut.add_done_callback(lambda f: self.speculated(job, f))

    def speculated(self, job, fut):
        """A speculative compile ended: its shard is kept for the rounds
        (and handed to the GPUs now for those the round asks for), or its
        refused candidates fail and the rest compile again."""
        if fut.cancelled():
            return
        try:
            out, ms, errors = fut.result()
        except Exception as e:  # the compile could not even start
            out, ms, errors = None, 0.0, ["run.py: %s" % e]
        self.stats.add(compiles=1)
        with self.lock:
            if errors is None and job["kind"] == "shard":
                self.kept.keep(job, out)
                mine = self.configs(job)
                for c in mine:
                    self.prebuilt[c] = (job, out, ms)
                self.prebuilding -= mine
                asked = (mine & self.wanted) - self.done
                if asked:
                    self.hand_over(self.members(job, asked), out,
                                   ms * len(asked) / len(job["candidates"]))
                return
            named, again = refused(job, errors)
            for i, line in named.items():
                self.fail(job, i, line, ms / len(job["candidates"]))
                self.kept.refuse(job, i, line)
            left = set().union(*(self.configs(j) for j in again)) if again else set()
            self.prebuilding -= self.configs(job) - left
        for j in again:
            try:
                self.submit_speculative(j)
            except RuntimeError:  # shut down: the run is over
                pass

    def serve(self, requests, replies):
        """--rounds: each line of ``requests`` is a JSON list of the bundle's
        configurations; their candidates not yet done are compiled and
        timed; as results come (in results.jsonl), the line {"measured":
        [CONFIG, ...]} goes to ``replies``, and once every one has a result
        the line {"round": K, "candidates": N}; each also goes to
        rounds.jsonl with the time. Returns how many configurations the
        rounds asked for."""
        configs = {c["config"] for b in self.m["batches"] for c in b["candidates"]}
        configs.update(f["config"] for f in self.m["failed"])
        asked = set()
        for k, line in enumerate(requests):
            # The strategy's order, which the GPUs follow where the round's
            # candidates are ready at once (take_prebuilt).
            order = json.loads(line)
            wanted = set(order)
            if not wanted <= configs:
                self.fatal.append("run.py: --rounds: configurations %s are not the bundle's"
                                  % sorted(wanted - configs)[:8])
                break
            with self.lock:
                self.wanted = wanted
                # The harnesses of the round's batches first, so that its
                # prebuilt shards (kept by an earlier run too) wait for them.
                harnesses = [j for j in plan(self.m, self.done, self.a.jobs, self.a.shards,
                                             wanted, built=self.batches)
                             if j["kind"] == "harness"]
                self.register(harnesses)
                fresh = self.take_prebuilt(order)
            jobs = harnesses + self.unique(plan(self.m, self.done, self.a.jobs, self.a.shards,
                                                fresh, built=self.batches), "r")
            # The round's compiles run beside the telling: the GPUs time each
            # shard as it is built, and its results are told then, not once
            # the round's last compile (a shard ptxas refused, compiled
            # again) has ended.
            stopped = []

            def compile_round(k=k, jobs=jobs, wanted=wanted):
                try:
                    if k == 0:
                        self.build_then_speculate(jobs, configs - wanted - set(self.prebuilt))
                    else:
                        self.build(jobs)
                except BaseException as e:  # told after the round, below
                    stopped.append(e)

            compiling = threading.Thread(target=compile_round, daemon=True)
            compiling.start()
            # The GPUs time what the compiles handed them; each result is
            # told as it comes, so that the search has it (its journal, its
            # best so far) before the round ends.
            told = set()
            while not self.fatal and not stopped:
                # Over ``wanted``, not ``done``, which the GPU threads add to.
                measured = {c for c in wanted if c in self.done} - told
                if measured:
                    told |= measured
                    self.tell(replies, {"measured": sorted(measured)},
                              {"round": k, "measured": sorted(measured)})
                if told == wanted:
                    break
                if any(fut.done() for fut in self.timed):
                    for fut in self.timed:
                        if fut.done():
                            fut.result()  # a GPU thread's exception
                    self.fatal.append("run.py: --rounds: a GPU stopped")
                    break
                time.sleep(0.01)
            compiling.join()
            if stopped:
                raise stopped[0]
            if self.fatal:
                break
            asked |= wanted
            self.tell(replies, {"round": k, "candidates": len(wanted)},
                      {"round": k, "configs": sorted(wanted)})
        return len(asked)

    @staticmethod
    def tell(replies, line, record):
        """Sends ``line`` to the search, after appending ``record`` and the
        time to rounds.jsonl: when the search knew which results
        (scripts/kt/proof.py reads it: a result counts from the line that
        told it)."""
        with open(os.path.join(HERE, "rounds.jsonl"), "a") as f:
            f.write(json.dumps(dict(record, timestamp=now())) + "\n")
        replies.write(json.dumps(line) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
