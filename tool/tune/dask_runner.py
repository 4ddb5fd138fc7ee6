# dask_runner.py - run.py's runner on a Dask cluster (run.py --scheduler).
#
# Written by metacu into every bundle next to run.py; run.py loads it only
# for --scheduler, so that nothing else of tuning needs dask
# (docs/distributed-tuning.md). It is loaded under a name no other process
# can import, so that its functions travel to the scheduler and the workers
# by value (cloudpickle), where no copy of it is. The work is run.py's,
# spread over a dask.distributed cluster:
#
# - compiles (a batch's harness, its shards' cubins) are tasks that need one
#   unit of the resource CPU: any worker started with `--resources CPU=N`,
#   on any host with nvcc;
# - a shard's timing is a task that needs the resource GPU: a worker that
#   owns one GPU (`--resources GPU=1`; CUDA_VISIBLE_DEVICES, or GPU 0) and
#   keeps one harness process per batch alive across tasks, so the problem
#   is made once per GPU and batch. This process deals the shards out (a
#   GPU keeps to its batch, as run.py's GPU threads do), has a GPU worker
#   start the next batch's harness while it times the one before, and
#   appends each result to results.jsonl as the harness reports it.
#
# No shared file system: the bundle's files reach the workers as task data
# (compressed), and the built harnesses and cubins go from compile workers to
# GPU workers the same way. Each build also lands in the bundle's bin/ with
# a key (its nvcc command and the bundle's contents), so that a rerun, or a
# run after `--compile-only`, times without compiling again (each kept
# build sent from here to the GPU worker it is dealt to). A compile lost
# with its worker is run again by Dask; a GPU worker lost mid-shard has its
# shard's unmeasured candidates timed elsewhere; a rerun skips what
# results.jsonl holds.
import asyncio
import collections
import concurrent.futures
import hashlib
import importlib.util
import inspect
import json
import os
import queue
import socket
import sys
import threading
import time
import uuid
import zlib

# Times a shard goes out again after its GPU worker was lost, before its
# unmeasured candidates are recorded as failures.
LOST_RETRIES = 2
# Shards queued on a GPU worker at once: one timing, one waiting, so that
# the worker never waits for this process between shards.
GPU_DEPTH = 2
# Batches whose harness a GPU worker keeps alive at once.
HARNESSES_PER_GPU = 4


def main(a, run):
    if a.scheduler == "local":
        # This host's cluster says only what goes wrong (its workers read
        # the variable too).
        os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
    try:
        import distributed
    except ImportError as e:
        sys.exit("run.py: --scheduler needs dask.distributed (%s); install it with "
                 "`pip install distributed` or Debian's python3-distributed" % e)
    cluster = None
    if a.scheduler == "local":
        cluster = local_cluster(a, run, distributed)
        client = distributed.Client(cluster)
    elif os.path.isfile(a.scheduler):
        client = distributed.Client(scheduler_file=a.scheduler)
    else:
        client = distributed.Client(a.scheduler)
    try:
        return Run(a, run, client, distributed).go()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def local_cluster(a, run, distributed):
    """A cluster of this host: one compile worker with a CPU slot per core
    left over from the GPUs (or --jobs), its compiles kept off a core per
    GPU (compile_cpus()), and a worker per GPU of --gpus."""
    gpus = [] if a.compile_only else run.gpu_list(a.gpus)
    slots = a.jobs or max(1, (os.cpu_count() or 1) - len(gpus))
    options = {"nthreads": slots, "resources": {"CPU": slots}}
    cpus = compile_cpus(sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                        else [], len(gpus))
    if cpus:
        options["env"] = {"METACU_TUNE_COMPILE_CPUS": ",".join(map(str, cpus))}
    workers = {"compile": {"cls": distributed.Nanny, "options": options}}
    for g in gpus:
        workers["gpu" + g] = {"cls": distributed.Nanny,
                              "options": {"nthreads": 1, "resources": {"GPU": 1},
                                          "env": {"CUDA_VISIBLE_DEVICES": g}}}
    return distributed.SpecCluster(
        workers=workers,
        scheduler={"cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}})


def compile_cpus(cpus, gpus):
    """The cores of ``cpus`` (this process's) that the local cluster's
    compiles run on with ``gpus`` GPU workers beside them: all but the
    first one per GPU, left to the GPU workers and their harnesses (each
    candidate's check reads its result back and compares it on the CPU),
    which nvcc on every core would otherwise slow; none (no pinning) where
    that leaves no core."""
    return cpus[gpus:] if gpus and len(cpus) > gpus else []


# ---------------------------------------------------------------------------
# On the workers. These functions reach the workers by value, so they keep
# their state on the worker object, never in module globals.

def _pin_compiles():
    """Keeps this thread's compiles (the processes it starts inherit it) on
    the cores METACU_TUNE_COMPILE_CPUS lists, if set (compile_cpus())."""
    cpus = os.environ.get("METACU_TUNE_COMPILE_CPUS")
    if cpus and hasattr(os, "sched_setaffinity"):
        # Linux: pid 0 is the calling thread, not the worker's other ones.
        os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})


def _state(w=None):
    """This worker's tuning state: a lock, the bundles copied here, their
    run.py modules, and the GPU's harness pools."""
    if w is None:
        from distributed import get_worker
        w = get_worker()
    return w, w.__dict__.setdefault("_metacu_tune", {"lock": threading.Lock(), "runs": {},
                                                     "pools": {}})


def _write(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%s.tmp" % (path, uuid.uuid4().hex)
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def _bundle_here(files, source=None):
    """The bundle's copy on this worker (its run.py module, its folder and
    its manifest), made once per worker from ``files`` (the common files)
    and ``source`` (a batch's expansion) as they first come."""
    w, s = _state()
    with s["lock"]:
        run = s["runs"].get(files["id"])
        if run is None:
            root = os.path.join(w.local_directory, "metacu-tune", files["id"])
            for rel, data in files["files"].items():
                _write(os.path.join(root, rel), zlib.decompress(data))
            spec = importlib.util.spec_from_file_location("metacu_run_" + files["id"],
                                                          os.path.join(root, "run.py"))
            run = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(run)
            with open(os.path.join(root, "manifest.json")) as f:
                run.MANIFEST = json.load(f)
            # A harness per batch here, the batch's own host code.
            run.MANIFEST.pop("harness", None)
            run.MANIFEST["gencode"] = files["gencode"]
            s["runs"][files["id"]] = run
        if source is not None:
            path = os.path.join(run.HERE, "src", source["rel"])
            if not os.path.exists(path):
                _write(path, zlib.decompress(source["data"]))
    return run


def _job_here(run, meta):
    """A compile job as run.py has it: its batch the manifest's."""
    job = dict(meta, batch=run.MANIFEST["batches"][meta["batch"]])
    if "shard" in job:
        job["shard"] = _job_here(run, job["shard"])
    return job


def compile_task(files, source, meta, nvcc):
    """One of run.py's compiles on this worker: the build's bytes (None if
    nvcc refused it), the milliseconds, the error lines (or, for a look
    for whose kernel holds an error, the members found)."""
    run = _bundle_here(files, source)
    _pin_compiles()
    out, ms, errors = run.compile_job(run.MANIFEST, _job_here(run, meta), nvcc, 1)
    data = None
    if out:
        path = os.path.join(run.HERE, out)
        with open(path, "rb") as f:
            data = f.read()
        os.remove(path)
    return {"data": data, "ms": ms, "errors": errors, "host": socket.gethostname()}


def built_task(data):
    """``data`` as a task's result, which Dask makes again if the worker
    holding it is lost (unlike scattered data): the bundle's files."""
    return data


def _gpu_worker(files, harness, batch, timeout):
    """run.py's GpuWorker that this worker keeps for batch number ``batch``
    of the bundle (one harness process on this worker's GPU, serving the
    batch's shards for the whole run), made on the batch's first task here,
    with the batch's harness executable (``harness``, a compile task's
    result) written once; and the bundle's run.py module."""
    _, s = _state()
    run = _bundle_here(files)
    b = run.MANIFEST["batches"][batch]
    exe = os.path.join(run.HERE, "bin", run.stem(b))
    if not os.path.exists(exe):
        _write(exe, harness["data"], 0o755)
    pools = s["pools"].setdefault(files["id"], collections.OrderedDict())
    key = b["source"]
    if key in pools:
        pools.move_to_end(key)
    else:
        while len(pools) >= HARNESSES_PER_GPU:
            _, old = pools.popitem(last=False)
            _end([old])
        gpu = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0]
        relay = Relay()
        pools[key] = run.GpuWorker(run.MANIFEST, gpu, timeout, relay, set(), run.Stats(),
                                   [])
        pools[key].relay = relay
    return run, b, pools[key]


def start_task(files, harness, batch, timeout):
    """Starts the harness of batch number ``batch`` on this worker's GPU
    before any of its shards comes (run.py's start item, GpuWorker.start),
    so that its problem is made while the GPU times the batch before it;
    one already up is kept."""
    run, b, worker = _gpu_worker(files, harness, batch, timeout)
    before = worker.stats.harnesses
    worker.start(dict(batch=b, exe=os.path.join("bin", run.stem(b))))
    return {"harnesses": worker.stats.harnesses - before}


def gpu_task(files, harness, shard, meta, timeout, topic):
    """Times one shard on this worker's GPU with run.py's GpuWorker, in the
    harness this worker keeps for the shard's batch (started ahead by
    start_task, or on the batch's first shard here). Each result goes to the
    client as an event as the harness reports it, and all of them in the
    return value (the client keeps the first of each)."""
    w, _ = _state()
    run, batch, worker = _gpu_worker(files, harness, meta["batch"], timeout)
    stem = run.stem(batch)
    cubin = os.path.join(run.HERE, "bin", meta["name"] + ".cubin")
    _write(cubin, shard["data"])
    got = []

    def emit(rec):
        rec.setdefault("timestamp", run.now())
        rec["worker"] = str(w.name)
        got.append(rec)
        w.log_event(topic, rec)

    worker.relay.to = emit
    before = (worker.stats.harnesses, worker.stats.setup_ms)
    try:
        worker.run_shard(dict(batch=batch, exe=os.path.join("bin", stem),
                              cubin=os.path.join("bin", meta["name"] + ".cubin"),
                              candidates=meta["candidates"], compile_ms=meta["compile_ms"]))
    finally:
        os.remove(cubin)
    if worker.fatal:
        # It cannot set the problem up: no other shard would run.
        raise RuntimeError(worker.fatal.pop())
    return {"results": got, "harnesses": worker.stats.harnesses - before[0],
            "setup_ms": worker.stats.setup_ms - before[1]}


class Relay:
    """Where a GPU worker's results go: the task running now."""

    def __init__(self):
        self.to = None

    def add(self, rec):
        self.to(rec)


def close_task(bundle, dask_worker=None):
    """Ends the harnesses this worker keeps for ``bundle`` (the run is
    over: every result is in), in the background, as _end() does with one
    let go; run by Client.run, which names the worker. A harness gone on
    to exit holds nothing of the run's (its stdin is closed, its results
    recorded), and a worker that stops ends it by that closed stdin."""
    _, s = _state(dask_worker)
    _end(s["pools"].pop(bundle, {}).values())


def _end(workers):
    """Ends the harnesses of ``workers`` (run.py's GpuWorkers), each in a
    thread of its own: a harness takes a while to exit (its CUDA context),
    which neither the GPU worker nor the run need wait for, nor for one
    after another."""
    for w in workers:
        if w.harness:
            threading.Thread(target=w.harness.close, daemon=True).start()


def capability_task():
    """This GPU worker's architecture number ("90"), for a compute_N image."""
    import subprocess
    gpu = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0]
    out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader",
                          "-i", gpu], capture_output=True, text=True).stdout.strip()
    return out.replace(".", "") if out else None


# ---------------------------------------------------------------------------
# On the client: this process.

def bundle_files(here, m):
    """The bundle as task data: the files every worker needs (run.py, the
    manifest, include/, the sources but the batches' expansions) and each
    batch's expansion apart, all compressed; the id names their contents."""
    paths = ["run.py", "manifest.json"]
    for top in ["include", "src"]:
        for dirpath, dirs, names in os.walk(os.path.join(here, top)):
            dirs.sort()
            paths += [os.path.relpath(os.path.join(dirpath, n), here) for n in sorted(names)]
    batches = {os.path.normpath(os.path.join("src", b["source"])): b["source"]
               for b in m["batches"]}
    common, sources, digest = {}, {}, hashlib.sha256()
    for rel in paths:
        with open(os.path.join(here, rel), "rb") as f:
            data = f.read()
        digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
        if rel in batches:
            sources[batches[rel]] = {"rel": batches[rel], "data": zlib.compress(data, 6)}
        else:
            common[rel] = zlib.compress(data, 6)
    return {"id": digest.hexdigest()[:16], "files": common}, sources


class Kept:
    """A build an earlier run left in bin/ (``res``: as a compile task gives
    one). It reaches a GPU worker only when that worker is given something
    that needs it, straight from this process (Run.on()): sent through the
    scheduler as tasks at the run's start, every build (the convolution's
    brute force: 153 of them, its harnesses 1.7 MB each) went before the
    first shard. A GPU worker lost with it gets it sent again with the
    shard."""

    def __init__(self, res, harness):
        self.res = res
        # A harness serves every shard of its batch: sent once per worker.
        self.harness = harness


class Run:
    def __init__(self, a, run, client, distributed):
        self.a, self.run, self.client, self.dd = a, run, client, distributed
        self.here = run.HERE
        with open(os.path.join(self.here, "manifest.json")) as f:
            self.m = json.load(f)
        # A harness per batch here (the workers keep one per batch), the
        # batch's own host code, not the bundle's shared harness.
        self.m.pop("harness", None)
        self.path = os.path.join(self.here, "results.jsonl")
        self.events = queue.Queue()
        self.pending = {}  # future -> (kind, job or item)
        self.ready = []  # built shards waiting for a GPU
        self.queued = collections.defaultdict(set)  # GPU worker -> its shards' futures
        self.owner = {}  # batch source -> the GPU worker timing it
        self.since = {}  # batch source -> when its owner took it (a count)
        self.ahead = {}  # GPU worker -> the batch whose harness it started ahead
        # GPU worker -> a batch another GPU worker times whose harness it
        # started too, for the shards it will take over (pick())
        self.spare = {}
        # GPU workers that have timed a shard: their first problem is made
        self.serving = set()
        # The builds kept from before are being read (go())
        self.reading = False
        self.starting = collections.defaultdict(set)  # GPU worker -> its start tasks
        self.lost = collections.Counter()  # shard name -> times its GPU worker was lost
        self.gpus = []
        self.busy = collections.Counter()  # GPU worker -> ms its harnesses timed
        # GPU worker -> when its first and its last candidate's result came
        self.timing = {}
        self.counts = collections.Counter()
        self.builds = None  # key -> a build kept in bin/ and its note
        self.sent = {}  # (Kept harness, GPU worker) -> its data's future there

    def say(self, text):
        print("run.py: " + text, file=sys.stderr, flush=True)

    def workers(self):
        """The cluster's compile slots and GPU workers now."""
        # Some releases list 5 workers unless asked for all; older ones
        # know no such argument.
        every = {"n_workers": -1} if "n_workers" in inspect.signature(
            self.client.scheduler_info).parameters else {}
        info = self.client.scheduler_info(**every)["workers"]
        cpu = sum(w.get("resources", {}).get("CPU", 0) for w in info.values())
        gpus = sorted(a for a, w in info.items() if w.get("resources", {}).get("GPU", 0) >= 1)
        return int(cpu), gpus

    def wait_for_workers(self):
        said = False
        while True:
            cpu, gpus = self.workers()
            if cpu and (gpus or self.a.compile_only):
                return cpu, gpus
            if not said:
                self.say("waiting for %s on the cluster" % " and ".join(
                    w for w, have in [("a compile worker (resources CPU=N)", cpu),
                                      ("a GPU worker (resources GPU=1)",
                                       gpus or self.a.compile_only)] if not have))
                said = True
            time.sleep(1)

    def go(self):
        a, run, m = self.a, self.run, self.m
        self.done = run.load_done(self.path)
        failed = [f for f in m["failed"] if f["config"] not in self.done]
        self.done.update(f["config"] for f in failed)
        self.results = run.Results(self.path)
        for f in failed:
            self.results.add(dict(config=f["config"], status="compile", reason=f["reason"]))
        if all(c["config"] in self.done for b in m["batches"] for c in b["candidates"]):
            # Nothing to wait for workers for.
            self.say("every candidate has a result in %s" % self.path)
            return
        cpu, self.gpus = self.wait_for_workers()
        if "{gpu}" in m["gencode"]:
            cc = self.client.submit(capability_task, resources={"GPU": 1}, pure=False).result()
            if not cc:
                sys.exit("run.py: %s needs the GPU's architecture; nvidia-smi did not say"
                         % m["image"])
            m["gencode"] = m["gencode"].replace("{gpu}", cc)
        jobs = run.plan(m, self.done, a.jobs or cpu, a.shards)
        files, sources = bundle_files(self.here, m)
        files["gencode"] = m["gencode"]
        self.bundle = files["id"]
        self.topic = "metacu-tune-%s-%s" % (self.bundle, uuid.uuid4().hex[:8])
        self.client.subscribe_topic(self.topic, lambda event: self.events.put(event[1]))
        self.files = self.client.submit(built_task, files, pure=False)
        self.sources = {k: self.client.submit(built_task, v, pure=False)
                        for k, v in sources.items()}
        self.index = {b["source"]: k for k, b in enumerate(m["batches"])}
        self.batches = {}
        for job in jobs:
            if job["kind"] == "harness":
                self.batches[job["batch"]["source"]] = run.Run.batch_state(
                    len(job["candidates"]))
        t0 = time.time()
        try:
            self.reading = True
            for job in sorted(jobs, key=lambda j: j["kind"] != "harness"):
                self.build(job)
                # A kept build is ready at once: the GPUs need not wait
                # for the rest to be read (a harness read is started at
                # once on a GPU worker that has nothing yet).
                self.deal()
            self.reading = False
            self.loop()
        finally:
            self.client.unsubscribe_topic(self.topic)
            self.client.run(close_task, self.bundle)
        self.drain()
        wall = time.time() - t0
        # Each GPU worker's share, and what of the wall clock went before
        # its first result (the builds reaching it, its first problem made)
        # and after its last: per worker, so that a GPU that started late
        # or ran dry early shows as such.
        busy = ", ".join("%s %.0f%% (results from %.1f s to %.1f s)"
                         % (g, self.busy[g] / 10 / wall, self.timing[g][0] - t0,
                            self.timing[g][1] - t0) for g in sorted(self.busy))
        self.say("%d candidates in %.1f s on the Dask cluster (%d nvcc, %d builds kept from "
                 "before, %d harness processes on %d GPU workers (%d started ahead), %.1f s of "
                 "harness setup%s%s)"
                 % (sum(len(j["candidates"]) for j in jobs if j["kind"] == "harness"), wall,
                    self.counts["nvcc"], self.counts["kept"], self.counts["harnesses"],
                    len(self.busy), self.counts["ahead"], self.counts["setup_ms"] / 1000,
                    "; timing: " + busy if busy else "",
                    "; %d shards timed again after a lost GPU worker" % sum(self.lost.values())
                    if self.lost else ""))

    # -- compiles ----------------------------------------------------------

    def key_of(self, job):
        """What decides ``job``'s build (the bundle, nvcc's arguments but
        the output's name), and where run.py puts it."""
        cmd, out = self.run.nvcc_command(self.m, job, self.a.nvcc, 1)
        k = cmd.index("-o")
        cmd = [c.replace(self.here, "") for c in cmd[:k] + cmd[k + 2:]]
        return hashlib.sha256(json.dumps([self.bundle, cmd]).encode()).hexdigest(), out

    def kept(self, job):
        """The build of ``job`` that an earlier run left in bin/ (the same
        compile of the same bundle, under any name), if any."""
        if self.builds is None:
            self.builds = {}
            for name in os.listdir(os.path.join(self.here, "bin")) if os.path.isdir(
                    os.path.join(self.here, "bin")) else []:
                if name.endswith(".key"):
                    try:
                        with open(os.path.join(self.here, "bin", name)) as f:
                            note = json.load(f)
                        self.builds[note["key"]] = dict(note, path=os.path.join(
                            self.here, "bin", name[:-len(".key")]))
                    except (OSError, ValueError, KeyError, TypeError):
                        pass
        note = self.builds.get(self.key_of(job)[0])
        try:
            with open(note["path"], "rb") as f:
                data = f.read()
        except (OSError, TypeError):
            return None
        if note.get("sha256") != hashlib.sha256(data).hexdigest():
            return None
        return {"data": data, "ms": note["ms"], "errors": None, "host": note.get("host")}

    def keep(self, job, res):
        key, out = self.key_of(job)
        path = os.path.join(self.here, out)
        _write(path, res["data"], 0o755 if job["kind"] == "harness" else 0o644)
        _write(path + ".key", json.dumps({"key": key, "ms": res["ms"], "host": res["host"],
                                          "sha256": hashlib.sha256(res["data"]).hexdigest()})
               .encode())

    def build(self, job):
        meta = self.meta(job)
        old = self.kept(job) if job["kind"] != "locate" else None
        if old is not None:
            self.counts["kept"] += 1
            self.built(job, old, Kept(old, job["kind"] == "harness"))
            return
        fut = self.client.submit(
            compile_task, self.files, self.sources[job["batch"]["source"]], meta,
            self.a.nvcc, resources={"CPU": 1}, pure=False,
            key="nvcc-%s-%s" % (job["name"], uuid.uuid4().hex[:8]),
            priority=1 if job["kind"] == "harness" else 0)
        self.pending[fut] = ("compile", job)

    def meta(self, job):
        out = {k: v for k, v in job.items() if k != "batch"}
        out["batch"] = self.index[job["batch"]["source"]]
        if "shard" in job:
            out["shard"] = self.meta(job["shard"])
        return out

    def compiled(self, fut, job):
        if fut.status == "error":
            self.abort("compiling %s on the cluster failed: %r" % (job["name"], fut.exception()))
        res = fut.result()
        self.counts["nvcc"] += 1
        if res["data"] is not None:
            self.keep(job, res)
        self.built(job, res, fut)

    def built(self, job, res, build):
        """``job``'s build is there (``res``, as a compile task gives it;
        ``build``: the compile's future, or a Kept)."""
        ms, errors = res["ms"], res["errors"]
        # The batch's state as run.py's runner keeps it; its harness here is
        # the build.
        state = self.batches[job["batch"]["source"]]
        if job["kind"] == "harness":
            waiting = self.run.Run.harness_ended(state, job, build, ms, errors, self.fail)
            if not self.a.compile_only:
                self.ready += waiting
            return
        if job["kind"] == "shard" and errors is None:
            item = self.run.Run.shard_ended(
                state, job, dict(batch=job["batch"], name=job["name"], cubin=build,
                                 candidates=job["candidates"],
                                 compile_ms=ms / len(job["candidates"])), ms, self.fail)
            if item is not None and not self.a.compile_only:
                self.ready.append(item)
            return
        named, again = self.run.refused(job, errors)
        for i, line in named.items():
            self.fail(job, i, line, ms / len(job["candidates"]))
        for j in again:
            self.build(j)

    def fail(self, job, i, reason, ms):
        self.record(dict(config=job["batch"]["candidates"][i]["config"], status="compile",
                         reason=reason, compile_ms=ms))

    # -- timing ------------------------------------------------------------

    def on(self, g, build):
        """``build`` as GPU worker ``g``'s task takes it: a compile's
        future, or a Kept build's data sent to ``g`` now (a harness once per
        worker, a shard each time it is dealt)."""
        if not isinstance(build, Kept):
            return build
        if (build, g) in self.sent:
            return self.sent[build, g]
        fut = self.client.scatter([build.res], workers=[g], hash=False)[0]
        if build.harness:
            self.sent[build, g] = fut
        return fut

    def record(self, rec):
        if rec["config"] in self.done:
            return
        self.results.add(rec)
        self.done.add(rec["config"])
        if "worker" in rec:
            self.busy[rec["worker"]] += rec.get("verification_ms", 0) + rec.get("benchmark_ms", 0)
            now = time.time()
            self.timing[rec["worker"]] = [self.timing.get(rec["worker"], [now])[0], now]

    def drain(self):
        while True:
            try:
                self.record(self.events.get_nowait())
            except queue.Empty:
                return

    def take(self, source, g):
        self.owner[source] = g
        self.since[source] = len(self.since)

    def pick(self, g):
        """The next shard for GPU worker ``g``: one of the batch it took
        first of those it has (the one it times before the one it started
        ahead), else of a batch no GPU worker has, else of the batch whose
        harness it started as a spare, else of one another GPU worker only
        started ahead (taken over), else of the batch with the most shards
        waiting (a harness more for this GPU). While the kept builds are
        read, only one of its batch or, for a worker without one, of a
        batch nobody has; else None: the shards that came first are all of
        one batch, which two workers would both set up, and more of each
        batch come."""
        owners = [self.owner.get(it["batch"]["source"]) for it in self.ready]
        mine = [k for k, o in enumerate(owners) if o == g]
        if mine:
            return min(mine, key=lambda k: self.since[self.ready[k]["batch"]["source"]])
        if self.reading and g in self.owner.values():
            return None
        free = [k for k, o in enumerate(owners) if o not in self.gpus]
        if free:
            return free[0]
        if self.reading:
            return None
        spare = [k for k, it in enumerate(self.ready)
                 if it["batch"]["source"] == self.spare.get(g)]
        if spare:
            return spare[0]
        for other, source in list(self.ahead.items()):
            k = next((k for k, it in enumerate(self.ready) if it["batch"]["source"] == source),
                     None)
            if k is not None:
                del self.ahead[other]
                self.take(source, g)
                return k
        waiting = collections.Counter(it["batch"]["source"] for it in self.ready)
        return max(range(len(self.ready)), key=lambda k: waiting[self.ready[k]["batch"]["source"]])

    def deal(self):
        """Has each GPU worker that has nothing yet start the harness of a
        batch nobody has, as soon as one is built (first()); gives each
        GPU worker with room the next shard (pick()), then has each start
        the harness of a batch nobody has yet (the next it takes) ahead of
        its shards, so that the GPU times while that problem is made; with
        no such batch, the harness of the one another GPU worker times
        with the most shards waiting (a spare, not taken: its shards are
        the ones this worker takes over when it runs out, at the run's
        end, where a problem made then left the GPU idle while the other
        finished)."""
        for g in self.gpus:
            self.first(g)
        for g in self.gpus:
            while self.ready and len(self.queued[g]) < GPU_DEPTH:
                k = self.pick(g)
                if k is None:
                    break
                item = self.ready.pop(k)
                item["candidates"] = [i for i in item["candidates"]
                                      if item["batch"]["candidates"][i]["config"] not in self.done]
                if not item["candidates"]:
                    continue
                try:
                    exe, cubin = self.on(g, item["exe"]), self.on(g, item["cubin"])
                except (KeyError, OSError, TimeoutError, asyncio.TimeoutError):
                    # g is gone (loop() sees it within half a second).
                    self.ready.insert(0, item)
                    break
                source = item["batch"]["source"]
                if self.owner.get(source) not in self.gpus:
                    self.take(source, g)
                if self.ahead.get(g) == source:
                    del self.ahead[g]
                meta = {"batch": self.index[source], "name": item["name"],
                        "candidates": item["candidates"], "compile_ms": item["compile_ms"]}
                fut = self.client.submit(
                    gpu_task, self.files, exe, cubin, meta, self.a.timeout,
                    self.topic, workers=[g], resources={"GPU": 1}, pure=False,
                    key="time-%s-%s" % (item["name"], uuid.uuid4().hex[:8]))
                item["worker"] = g
                self.pending[fut] = ("gpu", item)
                self.queued[g].add(fut)
        for g in self.gpus:
            # Not before the worker's first problem is made: problems made
            # at once on one host (their CUDA contexts) each take longer,
            # and the first is what the GPU waits for.
            if g in self.ahead or not self.queued[g] or g not in self.serving:
                continue
            source = self.free()
            spare = source is None
            if spare:
                source = self.spare_for(g)
            if source is None:
                continue
            self.start(g, source, spare)

    def first(self, g):
        """Has GPU worker ``g``, if it has nothing yet (no batch, no shard,
        no harness), start the harness of a batch nobody has, built, with
        shards waiting first, before any of its shards is dealt: its first
        problem is then made while the rest of the builds are read (or
        compiled), not after its first shard came. Each GPU worker its own
        batch: the first problems of two workers are made at once anyway,
        and a second of one batch would be made for nothing."""
        if (self.a.compile_only or self.queued[g] or self.starting[g] or g in self.serving
                or g in self.ahead or g in self.owner.values()):
            return
        source = self.free()
        if source is not None:
            self.start(g, source, False)

    def free(self):
        """The batch nobody has whose harness a GPU worker starts next: of
        those built, one with shards waiting first, else one whose shards
        are still compiling (or still to be read)."""
        free = [b for b, state in self.batches.items()
                if state["exe"] is not None and self.owner.get(b) not in self.gpus]
        return next((it["batch"]["source"] for it in self.ready
                     if it["batch"]["source"] in free), None) or next(
            (b for b in free if any(c["config"] not in self.done for c in
                                    self.m["batches"][self.index[b]]["candidates"])), None)

    def start(self, g, source, spare):
        """Has GPU worker ``g`` start batch ``source``'s harness, taking the
        batch (or, ``spare``, as a spare for the shards it takes over)."""
        try:
            exe = self.on(g, self.batches[source]["exe"])
        except (KeyError, OSError, TimeoutError, asyncio.TimeoutError):
            return
        if spare:
            self.spare[g] = source
        else:
            self.take(source, g)
            self.ahead[g] = source
        # Before the shards queued there (a higher priority), as a GPU
        # task (the worker's one GPU slot): it only starts a process.
        fut = self.client.submit(
            start_task, self.files, exe, self.index[source], self.a.timeout, workers=[g],
            resources={"GPU": 1}, pure=False, priority=10,
            key="start-%s-%s" % (self.index[source], uuid.uuid4().hex[:8]))
        self.pending[fut] = ("start", g)
        self.starting[g].add(fut)

    def spare_for(self, g):
        """The batch whose harness GPU worker ``g`` starts as a spare
        (deal()): of those another GPU worker owns, built, the one with the
        most shards waiting, more than its owner takes at once (those it
        takes anyway); none while its spare has shards waiting."""
        waiting = collections.Counter(it["batch"]["source"] for it in self.ready
                                      if self.batches[it["batch"]["source"]]["exe"] is not None)
        if waiting[self.spare.get(g)]:
            return None
        others = [b for b in waiting if self.owner.get(b) in self.gpus
                  and self.owner[b] != g and waiting[b] > GPU_DEPTH]
        return max(others, key=lambda b: waiting[b], default=None)

    def result_of(self, fut, g):
        """The result of ``fut``, a task done on GPU worker ``g``, or None
        if it went with ``g``: a result stays on the worker that made it
        until gathered, and Dask, failing to gather it from a lost worker,
        runs the task again, which its restriction to that worker keeps
        from ever running (without a limit, this process would wait for it
        forever)."""
        while True:
            try:
                return fut.result(timeout=1)
            except (TimeoutError, asyncio.TimeoutError):
                if g not in self.workers()[1]:
                    fut.cancel()
                    return None

    def started(self, fut, g):
        self.starting[g].discard(fut)
        if fut.status == "error":
            # Its shards start the harness themselves, wherever they go.
            return
        res = self.result_of(fut, g)
        if res is not None:
            self.counts["harnesses"] += res["harnesses"]
            self.counts["ahead"] += res["harnesses"]

    def timed(self, fut, item):
        self.queued[item["worker"]].discard(fut)
        self.serving.add(item["worker"])
        if fut.status == "error":
            e = fut.exception()
            if isinstance(e, RuntimeError) and str(e).startswith("run.py: "):
                self.abort(str(e)[len("run.py: "):])
            self.again(item, "the GPU worker's task failed: %r" % e)
            return
        res = self.result_of(fut, item["worker"])
        if res is None:
            self.again(item, "its GPU worker %s was lost with the shard's results" %
                       item["worker"])
            return
        self.drain()
        for rec in res["results"]:
            self.record(rec)
        self.counts["harnesses"] += res["harnesses"]
        self.counts["setup_ms"] += res["setup_ms"]

    def again(self, item, why):
        """The shard once more, on another GPU worker, for its candidates
        without a result; after LOST_RETRIES, they fail."""
        self.drain()
        self.lost[item["name"]] += 1
        if self.lost[item["name"]] > LOST_RETRIES:
            for i in item["candidates"]:
                self.record(dict(config=item["batch"]["candidates"][i]["config"],
                                 status="runtime", reason="%s (%d times)" %
                                 (why, self.lost[item["name"]])))
            return
        self.ready.insert(0, dict(item))

    def loop(self):
        seen, waiting = 0.0, False
        while self.pending or self.ready:
            if time.time() - seen > 0.5:
                seen = time.time()
                _, gpus = self.workers()
                for g in (set(self.queued) | set(self.starting)) - set(gpus):
                    # Lost: its shards go to the others, its batches to
                    # whoever takes them.
                    for fut in list(self.queued.pop(g, ())):
                        kind, item = self.pending.pop(fut)
                        fut.cancel()
                        self.again(item, "its GPU worker %s was lost" % g)
                    for fut in self.starting.pop(g, ()):
                        self.pending.pop(fut, None)
                        fut.cancel()
                    self.ahead.pop(g, None)
                    self.spare.pop(g, None)
                    self.serving.discard(g)
                    for key in [k for k in self.sent if k[1] == g]:
                        del self.sent[key]
                self.gpus = gpus
            self.drain()
            self.deal()
            if self.ready and not self.gpus and not waiting:
                self.say("waiting for a GPU worker (resources GPU=1) on the cluster")
                waiting = True
            if not self.pending:
                time.sleep(0.2)
                continue
            try:
                finished = self.dd.wait(list(self.pending), timeout=0.5,
                                        return_when="FIRST_COMPLETED").done
            except (TimeoutError, asyncio.TimeoutError):
                continue
            except concurrent.futures.CancelledError:
                finished = [fut for fut in self.pending if fut.done()]
            for fut in finished:
                if fut not in self.pending:
                    continue
                kind, what = self.pending.pop(fut)
                if fut.status == "cancelled":
                    # Dask's own cancel: a kept build scattered to a GPU
                    # worker was lost with it (the futures this process
                    # cancels leave self.pending first).
                    if kind == "gpu":
                        self.queued[what["worker"]].discard(fut)
                        self.again(what, "its GPU worker %s was lost" % what["worker"])
                    elif kind == "start":
                        self.starting[what].discard(fut)
                    continue
                if kind == "compile":
                    self.compiled(fut, what)
                elif kind == "start":
                    self.started(fut, what)
                else:
                    self.timed(fut, what)

    def abort(self, why):
        for fut in self.pending:
            fut.cancel()
        self.pending.clear()
        sys.exit("run.py: " + why)
