#!/usr/bin/env python3
# How the Dask runner (BUNDLE/dask_runner.py) deals a bundle's shards to two
# GPU workers, against a client that only records what it is asked: no
# cluster, no dask. Builds kept from an earlier run (dask_runner.Kept) reach
# a GPU worker as scattered data when it is dealt them, its harness once.
#   deal.py BUNDLE   (a bundle of at least two batches of six candidates)
# Prints one line per step: what each worker was given, the batches'
# owners, and the data scattered to each worker; last, what becomes of a
# shard whose results were lost with its GPU worker.
import argparse
import collections
import importlib.util
import os
import sys


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Client:
    """Records the tasks submitted and the data scattered, per worker."""

    def __init__(self):
        self.tasks = collections.defaultdict(list)
        self.scattered = collections.Counter()
        self.alive = ["g0", "g1"]

    def submit(self, fn, *args, workers=None, **kw):
        if fn.__name__ == "start_task":
            self.tasks[workers[0]].append("start batch %d" % args[2])
        else:
            self.tasks[workers[0]].append("time %s" % args[3]["name"])
        return object()

    def scatter(self, data, workers=None, hash=True):
        self.scattered[workers[0]] += len(data)
        return [object() for _ in data]

    def scheduler_info(self, n_workers=-1):
        return {"workers": {g: {"resources": {"GPU": 1}} for g in self.alive}}


class LostResult:
    """A shard's task that ended on a GPU worker lost before its result was
    gathered: Dask runs it again, restricted to the lost worker, so a wait
    without a limit never ends."""

    status = "finished"
    cancelled = False

    def result(self, timeout=None):
        if timeout is None:
            raise AssertionError("waited without a limit for a result lost with its worker")
        raise TimeoutError

    def cancel(self):
        self.cancelled = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    here = os.path.abspath(ap.parse_args().bundle)
    run = load(os.path.join(here, "run.py"), "metacu_run")
    dask_runner = load(os.path.join(here, "dask_runner.py"), "metacu_dask_runner")
    client = Client()
    r = dask_runner.Run(argparse.Namespace(timeout=20, compile_only=False), run, client, None)
    r.gpus, r.files, r.topic, r.done = ["g0", "g1"], None, "topic", set()
    b0, b1 = r.m["batches"][:2]
    r.index = {b["source"]: k for k, b in enumerate(r.m["batches"])}
    r.batches = {}
    for b in (b0, b1):
        r.batches[b["source"]] = dict(run.Run.batch_state(len(b["candidates"])),
                                      exe=dask_runner.Kept({"data": b"exe"}, True))

    def shard(b, k):
        return dict(batch=b, name="%s_shard_%d" % (run.stem(b), k), candidates=[k],
                    compile_ms=0.0, exe=r.batches[b["source"]]["exe"],
                    cubin=dask_runner.Kept({"data": b"cubin"}, False))

    def say(step):
        print("%s: %s; owners %s; scattered %s" % (
            step, "; ".join("%s: %s" % (g, ", ".join(client.tasks[g])) for g in r.gpus),
            ", ".join("%s %s" % (run.stem(b), r.owner.get(b["source"])) for b in (b0, b1)),
            ", ".join("%s %d" % (g, client.scattered[g]) for g in r.gpus)))
        client.tasks.clear()

    # The kept builds are read: the harnesses first, then batch 0's five
    # shards, then batch 1's six.
    r.reading = True
    r.deal()
    say("harnesses read")
    r.ready = [shard(b0, k) for k in range(5)]
    r.deal()
    say("batch 0 read")
    r.ready += [shard(b1, k) for k in range(6)]
    r.deal()
    say("batch 1 read")
    r.reading = False
    # Each has timed a shard (its first problem is made).
    for g in r.gpus:
        r.queued[g] = set(list(r.queued[g])[:1])
        r.serving.add(g)
    r.deal()
    say("second deal")
    for step in ["third deal", "fourth deal"]:
        r.queued.clear()
        r.deal()
        say(step)
    # g1 timed batch 1's last shard and was lost before its results were
    # gathered: the shard waits for another GPU worker.
    client.alive = ["g0"]
    lost, item = LostResult(), dict(shard(b1, 5), worker="g1")
    r.ready = []
    r.timed(lost, item)
    print("results lost with g1: cancelled %s; waiting %s" % (
        lost.cancelled, ", ".join(it["name"] for it in r.ready)))

if __name__ == "__main__":
    sys.exit(main())
