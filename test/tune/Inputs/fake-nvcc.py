#!/usr/bin/env python3
# A stand-in for nvcc and a GPU, for run.py's tests: what it builds speaks
# the harness's protocol (metacu/tune.h) without CUDA.
#
# A shard's compile (-cubin) writes the candidate names its
# -DMETACU_TUNE_IN_SHARD_<name> macros select; it fails as nvcc would when
# it holds a candidate named in FAKE_NVCC_PTXAS (ptxas's error names the
# kernel) or FAKE_NVCC_FRONT (a front-end error that names no candidate, at
# a line of the user's, or of run.py's copy of the batch without #line).
# The harness's host code of the batch FAKE_NVCC_HOST names (batch_1) fails
# as nvcc fails on host code.
# A shard compiled with --keep-dir leaves its PTX there (an entry per
# candidate); a compile of such a PTX (ptxas alone) builds the candidates
# its -Xptxas=--entry= arguments name.
# Every compile is logged to FAKE_NVCC_LOG, one line of its candidates
# ("harness" for a batch's host code; "ptxas" before a PTX's candidates). The harness's machinery (metacu/tune.h
# with METACU_TUNE_HARNESS_OBJECT) is an object of its own, each compile of
# it logged to FAKE_NVCC_MACHINERY_LOG (with FAKE_NVCC_MACHINERY_FAIL it fails
# as an older CUDA would, leaving a half-written output); the harness
# executable is the link of the two (no -c). With FAKE_NVCC_CPUS_LOG, each
# compile also logs the cores it may run on (its CPU affinity).
# FAKE_NVCC_WAIT=NAME:FILE makes a shard that holds candidate NAME wait
# (at most 20 s) until FILE holds something, and write to FILE.waited
# whether it came.
#
# The harness executable (--serve) is a script: it sets up once (logged to
# FAKE_HARNESS_LOG, one line per start, and its arguments to
# FAKE_HARNESS_ARGS; FAKE_SETUP_S seconds), then for each shard line on stdin
# (its candidates' parameters too for a bundle's one harness, --table:
# logged to FAKE_TABLE_LOG)
# times its candidates (FAKE_CANDIDATE_S seconds each): candidate 1 corrupts the context (the harness reports
# it and exits 3), candidate 4 kills the process, candidate 6 hangs, the
# others are correct.
#
# FAKE_AWAIT=FILE makes it wait, before each candidate after its first,
# until FILE (metacu's journal) holds a line per result it has given (at
# most 30 s; a candidate it then times fails as "not journaled", and so do
# the process's later ones, unwaited).
#
# FAKE_DEVICE=CACHE.json makes it a replay instead: every candidate's outcome
# is what the Kernel Tuner cache recorded for its parameters (the bundle's
# manifest, found above the source, gives them, or, for a bundle's one
# harness, the parameters it is handed with the candidate): its times, or
# CompilationFailedConfig (a ptxas error naming it), RuntimeFailedConfig,
# InvalidConfig (a wrong result). FAKE_KILL_WORKER=NAME:MARKER makes the first
# harness to reach candidate NAME (while the file MARKER does not exist)
# create MARKER and kill the process that started it (run.py's Dask worker).
import json
import os
import sys
import time

args = sys.argv[1:]
if args == ["--version"]:
    print("fake-nvcc: Cuda compilation tools, release 13.0")
    sys.exit(0)
out = args[args.index("-o") + 1]
prefix = "-DMETACU_TUNE_IN_SHARD_"
names = [a[len(prefix):] for a in args if a.startswith(prefix)]
# A shard's PTX assembled again (ptxas alone): its candidates are the
# entries it is asked for, "_Z<length><name>Pfi" as the PTX below spells them.
entry = "-Xptxas=--entry=_Z"
assembled = args[-1].endswith(".ptx")
for a in args:
    if a.startswith(entry):
        digits = len(a[len(entry):]) - len(a[len(entry):].lstrip("0123456789"))
        n = int(a[len(entry):len(entry) + digits])
        names.append(a[len(entry) + digits:len(entry) + digits + n])
if "-DMETACU_TUNE_HARNESS_OBJECT" in args:
    with open(os.environ.get("FAKE_NVCC_MACHINERY_LOG", os.devnull), "a") as log:
        log.write("machinery\n")
    if os.environ.get("FAKE_NVCC_MACHINERY_FAIL"):
        open(out, "w").write("half")
        print("tune.h(300): error: identifier \"cudaFuncGetName\" is undefined", file=sys.stderr)
        sys.exit(1)
    open(out, "w").write("machinery")
    sys.exit(0)
if "-cubin" in args or "-c" in args:
    with open(os.environ.get("FAKE_NVCC_LOG", os.devnull), "a") as log:
        log.write((("ptxas " if assembled else "") + " ".join(names)
                   if "-cubin" in args else "harness") + "\n")
    with open(os.environ.get("FAKE_NVCC_CPUS_LOG", os.devnull), "a") as log:
        log.write(",".join(map(str, sorted(os.sched_getaffinity(0)))) + "\n")



def replayed():
    """Candidate name to the cache's record, for the batch compiled."""
    if not os.environ.get("FAKE_DEVICE"):
        return {}
    cache = json.load(open(os.environ["FAKE_DEVICE"]))
    root = os.path.dirname(os.path.abspath(args[-1]))
    while not os.path.exists(os.path.join(root, "manifest.json")):
        root = os.path.dirname(root)
    spell = lambda v: str(v) if isinstance(v, bool) else "%d" % v
    out = {}
    for b in json.load(open(os.path.join(root, "manifest.json")))["batches"]:
        for c in b["candidates"]:
            key = ",".join(spell(c["params"][k]) for k in cache["tune_params_keys"])
            out[c["name"]] = cache["cache"][key]
    return out


if "-cubin" in args:
    slow, _, told = os.environ.get("FAKE_NVCC_WAIT", "").partition(":")
    if slow in names:
        for _ in range(2000):
            if os.path.exists(told) and os.path.getsize(told):
                break
            time.sleep(0.01)
        with open(told + ".waited", "w") as f:
            f.write("came\n" if os.path.getsize(told) else "gave up\n")
    front = [n for n in os.environ.get("FAKE_NVCC_FRONT", "").split(",") if n in names]
    if "--keep-dir" in args and not front:
        # The PTX, written before ptxas runs, as nvcc writes it.
        stem = os.path.splitext(os.path.basename(args[-1]))[0]
        with open(os.path.join(args[args.index("--keep-dir") + 1], stem + ".ptx"), "w") as f:
            f.write("".join(".visible .entry _Z%d%sPfi(\n" % (len(n), n) for n in names))
    ptxas = [n for n in os.environ.get("FAKE_NVCC_PTXAS", "").split(",") if n in names]
    ptxas += [n for n, r in replayed().items()
              if n in names and r["time"] == "CompilationFailedConfig"]
    if ptxas:
        for n in ptxas:
            print("ptxas error   : Entry function '_Z%d%sPfi' uses too much shared data "
                  "(0x10100 bytes, 0xc000 max)" % (len(n), n), file=sys.stderr)
        sys.exit(255)
    if front:
        # At the user's line, or, in run.py's copy without #line, at the
        # copy's line inside the candidate's guarded body.
        source = args[-1]
        where = "Inputs/scale.cu(30)"
        if source.endswith("_lines.cu"):
            lines = open(source).read().split("\n")
            k = next(k for k, l in enumerate(lines) if l.endswith(prefix[2:] + front[0] + ")"))
            where = "%s(%d)" % (os.path.basename(source), k + 2)
        print("%s: error: identifier \"undeclared_factor\" is undefined" % where,
              file=sys.stderr)
        sys.exit(1)
    with open(out, "w") as f:
        f.write("\n".join(names))
    sys.exit(0)

if "-c" in args:
    host = os.environ.get("FAKE_NVCC_HOST")
    if host and os.path.basename(args[-1]) == host + ".cu":
        print("%s(12): error: identifier \"undeclared_host\" is undefined" % args[-1],
              file=sys.stderr)
        sys.exit(1)
    # The batch's source, for the link to find the manifest from.
    open(out, "w").write(os.path.abspath(args[-1]))
    sys.exit(0)

# The link: the harness executable, from the batch's object and the machinery's.
objects = [a for a in args if a.endswith(".o")]
assert len(objects) == 2 and open(objects[1]).read() == "machinery", objects
args[-1] = open(objects[0]).read()
with open(out, "w") as f:
    f.write('''#!/usr/bin/env python3
import json, os, signal, sys, time
DEVICE = %r
KILL = os.environ.get("FAKE_KILL_WORKER", "").split(":")
''' % replayed() + '''
with open(os.environ.get("FAKE_HARNESS_LOG", os.devnull), "a") as log:
    log.write("start\\n")
with open(os.environ.get("FAKE_HARNESS_ARGS", os.devnull), "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
print(json.dumps({"device": "Fake GPU", "driver": "13.0", "cc": 90}), flush=True)
time.sleep(float(os.environ.get("FAKE_SETUP_S", "0")))
print(json.dumps({"setup_ms": 100}), flush=True)
assert sys.argv[1] == "--serve"


def looked_up(params):
    """The cache's record of a candidate of the bundle's one harness, by
    the parameters it is handed (it was linked before any candidate)."""
    cache = json.load(open(os.environ["FAKE_DEVICE"]))
    p = dict(kv.split("=") for kv in params.split(","))
    spell = lambda k: (str(bool(int(p[k]))) if isinstance(cache["tune_params"][k][0], bool)
                       else p[k])
    return cache["cache"][",".join(spell(k) for k in cache["tune_params_keys"])]


given, awaited = 0, True


def journaled():
    """Whether FAKE_AWAIT's file holds a line per result given so far,
    waiting for it (at most 30 s once)."""
    global awaited
    path = os.environ.get("FAKE_AWAIT")
    if not path or given == 0:
        return True
    end = time.time() + 30
    while awaited and time.time() < end:
        if os.path.exists(path) and len(open(path).readlines()) >= given:
            return True
        time.sleep(0.01)
    awaited = False
    return False


for line in sys.stdin:
    path, *members = line.rstrip("\\n").split("\\t")
    built = open(path).read().split("\\n")
    for m in members:
        # I:NAME, or I:NAME:PARAMS for the bundle's one harness (--table),
        # each of whose candidates is logged to FAKE_TABLE_LOG.
        i, name, *params = m.split(":")
        i = int(i)
        assert bool(params) == ("--table" in sys.argv), m
        if params:
            with open(os.environ.get("FAKE_TABLE_LOG", os.devnull), "a") as log:
                log.write("%d %s %s\\n" % (i, name, params[0]))
        assert name in built, (name, built)
        if not journaled():
            print(json.dumps({"start": i}), flush=True)
            print(json.dumps({"candidate": i, "status": "runtime",
                              "reason": "not journaled"}), flush=True)
            given += 1
            continue
        given += 1
        print(json.dumps({"start": i}), flush=True)
        time.sleep(float(os.environ.get("FAKE_CANDIDATE_S", "0")))
        if name == KILL[0] and not os.path.exists(KILL[1]):
            open(KILL[1], "w").close()
            os.kill(os.getppid(), signal.SIGKILL)
            sys.exit(1)
        r = DEVICE.get(name)
        if r is None and params and os.environ.get("FAKE_DEVICE"):
            r = looked_up(params[0])
        if r is not None:
            if r["time"] == "RuntimeFailedConfig":
                print(json.dumps({"candidate": i, "status": "runtime",
                                  "reason": "cannot launch: invalid argument"}), flush=True)
            elif r["time"] == "InvalidConfig":
                print(json.dumps({"candidate": i, "status": "correctness",
                                  "reason": "largest error 1 above the tolerance 0"}), flush=True)
            else:
                print(json.dumps({"candidate": i, "status": "correct", "times": r["times"],
                                  "verification_ms": r["verification_time"],
                                  "benchmark_ms": r["benchmark_time"]}), flush=True)
            continue
        if i == 1:
            print(json.dumps({"candidate": i, "status": "runtime", "reason": "illegal",
                              "fatal": True}), flush=True)
            sys.exit(3)
        if i == 4:
            sys.exit(1)
        if i == 6:
            time.sleep(60)
        print(json.dumps({"candidate": i, "status": "correct", "times": [1.0]}), flush=True)
    print(json.dumps({"done": True}), flush=True)
''')
os.chmod(out, 0o755)
