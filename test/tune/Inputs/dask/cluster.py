#!/usr/bin/env python3
# (In a folder of its own: Inputs/concurrent.py would hide the standard
# library's concurrent package from it.)
# Runs a command against a Dask cluster of worker processes on this host, as
# a cluster of other hosts would be: a scheduler, a compile worker with
# --cpu slots (resources CPU), and --gpus workers with one GPU each
# (resources GPU=1, CUDA_VISIBLE_DEVICES), each worker under a nanny that
# starts it again if it dies.
#   cluster.py [--cpu N] [--gpus N] -- COMMAND ...
# "{scheduler}" in COMMAND is the scheduler's address; the command's exit
# status is this script's.
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=2)
    ap.add_argument("--gpus", type=int, default=2)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
    try:
        import distributed
    except ImportError as e:
        sys.exit("cluster.py: %s has no dask.distributed (%s); scripts/setup installs "
                 "Debian's python3-distributed" % (sys.executable, e))

    workers = {"compile": {"cls": distributed.Nanny,
                           "options": {"nthreads": a.cpu, "resources": {"CPU": a.cpu}}}}
    for g in range(a.gpus):
        workers["gpu%d" % g] = {"cls": distributed.Nanny,
                                "options": {"nthreads": 1, "resources": {"GPU": 1},
                                            "env": {"CUDA_VISIBLE_DEVICES": str(g)}}}
    with distributed.SpecCluster(workers=workers, scheduler={
            "cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}}) as cluster:
        command = [c.replace("{scheduler}", cluster.scheduler_address)
                   for c in a.command[a.command[:1] == ["--"]:]]
        sys.exit(subprocess.run(command).returncode)


# The workers are processes started by spawning this interpreter, which
# imports this file again without running it.
if __name__ == "__main__":
    main()
