#!/usr/bin/env python3
# A stand-in for nvcc, for run.py's tests without a GPU: the "executable"
# it writes is a script that speaks the harness's protocol (metacu/tune.h)
# for the candidates it is given: candidate 1 corrupts the context (the
# harness reports it and exits 3), candidate 4 kills the process, the others
# are correct.
import sys, os
out = sys.argv[sys.argv.index("-o") + 1]
with open(out, "w") as f:
    f.write('''#!/usr/bin/env python3
import sys, json
a = sys.argv
c = [int(x) for x in a[a.index("--candidates") + 1].split(",")]
print(json.dumps({"device": "Fake GPU", "driver": "13.0", "cc": 90}), flush=True)
print(json.dumps({"setup_ms": 100}), flush=True)
for i in c:
    print(json.dumps({"start": i}), flush=True)
    if i == 1:
        print(json.dumps({"candidate": i, "status": "runtime", "reason": "illegal", "fatal": True}), flush=True)
        sys.exit(3)
    if i == 4:
        sys.exit(1)
    print(json.dumps({"candidate": i, "status": "correct", "times": [1.0]}), flush=True)
''')
os.chmod(out, 0o755)
