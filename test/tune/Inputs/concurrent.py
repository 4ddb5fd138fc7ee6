"""Runs one `metacu tune --replay` per architecture at once, all updating
one tuning file; prints the architectures the file ends with."""
import json
import subprocess
import sys

metacu, cache, tuning = sys.argv[1:4]
archs = ["75", "80", "86", "87", "89", "90", "100", "103", "110", "120", "121"]
runs = [subprocess.Popen([metacu, "tune", "--quiet", "--replay", cache,
                          "--arch", a, "--tuning-file", tuning],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for a in archs]
codes = [r.wait() for r in runs]
print("exit codes:", sorted(set(codes)))
with open(tuning) as f:
    print("entries:", len(json.load(f)["entries"]))
