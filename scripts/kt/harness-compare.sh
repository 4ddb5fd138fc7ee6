#!/usr/bin/env bash
# run.py before and after a harness change, and Kernel Tuner 1.5.0, on one
# GPU machine (docs/tune.md, "Results on the GPU: one harness per GPU").
# Run from a folder laid out as (made on the machine with metacu):
#   conv30/  metacu tune samples/convolution/convolution.cu --arch 90
#              --emit-bundle conv30 --strategy random_sample --budget 30 --seed 1
#   mm/      metacu tune scripts/kt/matmul.cu --arch 90 --emit-bundle mm
#   old/     run.py and tune.h of the commit to compare against
#              (git show REV:tool/tune/run.py, REV:runtime/include/metacu/tune.h)
#   kt/      scripts/kt/*.py and *.cu, and kt/whl/ the wheels of kernel_tuner
#              1.5.0, jsonschema, jsonschema-specifications, referencing,
#              rpds-py, python-constraint2 and xmltodict
# with OUT naming a folder for the logs:  OUT=/tmp/out bash harness-compare.sh
set -u
export PYTHONUNBUFFERED=1
here=$(cd "$(dirname "$0")" && pwd)
log=$OUT/gpu.log
exec > >(tee -a "$log") 2>&1
stamp() { echo "== $(date -u +%H:%M:%S) $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2; nproc; date -u
# Warm the toolkit's files into the page cache, for both sides alike.
echo '__global__ void k() {} int main() { k<<<1, 1>>>(); return cudaDeviceSynchronize(); }' > /tmp/w.cu
nvcc -O3 -gencode arch=compute_90,code=sm_90 /tmp/w.cu -o /tmp/w && /tmp/w && echo warm

summary() { # bundle work(GFLOP)
  python3 - "$1" "$2" <<'PY'
import json, sys, statistics, collections
rs = [json.loads(l) for l in open(sys.argv[1] + "/results.jsonl")]
m = json.load(open(sys.argv[1] + "/manifest.json"))
params = {c["config"]: c["params"] for b in m["batches"] for c in b["candidates"]}
st = collections.Counter(r["status"] for r in rs)
ok = [r for r in rs if r["status"] == "correct"]
best = min(ok, key=lambda r: statistics.median(r["times"])) if ok else None
print("results", len(rs), dict(st))
for r in rs:
    if r["status"] != "correct":
        print("  ", r["config"], r["status"], r.get("reason", "")[:160])
if best:
    ms = statistics.median(best["times"])
    print("best", params[best["config"]], "%.4f ms" % ms, "%.0f GFLOP/s" % (float(sys.argv[2]) / (ms / 1e3)))
PY
}

run() { # label bundle variant(before|after) work(GFLOP) configurations
  local d=/tmp/$1
  rm -rf "$d" && cp -r "$here/$2" "$d"
  if [ "$3" = before ]; then
    cp "$here/old/run.py" "$d/run.py"
    cp "$here/old/tune.h" "$d/include/metacu/tune.h"
  fi
  stamp "$1: run.py ($3)"
  local t0=$(date +%s.%N)
  python3 "$d/run.py" --gpus 0 2> "$OUT/$1.stderr"
  local rc=$?
  local t1=$(date +%s.%N)
  tail -3 "$OUT/$1.stderr"
  python3 -c "import sys; print('$1: rc $rc, wall %.1f s, %.3f s per configuration' % (float(sys.argv[2]) - float(sys.argv[1]), (float(sys.argv[2]) - float(sys.argv[1])) / $5))" "$t0" "$t1"
  summary "$d" "$4"
  cp "$d/results.jsonl" "$OUT/$1.results.jsonl" 2>/dev/null
}

conv=$(python3 -c "print(2 * 17 * 17 * 4096 * 4096 / 1e9)")
mm=$(python3 -c "print(2 * 4096**3 / 1e9)")
run conv-before conv30 before "$conv" 30
run mm-before mm before "$mm" 40
run conv-after conv30 after "$conv" 30
run mm-after mm after "$mm" 40
run conv-after2 conv30 after "$conv" 30
run mm-after2 mm after "$mm" 40

stamp "Kernel Tuner"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$here"/kt/whl/*.whl && export PYTHONPATH=/tmp/site
stamp "kt matmul (brute force)"
timeout 200 python3 "$here/kt/matmul_kt.py" 2>&1 | tail -5
stamp "kt convolution (12 random configurations)"
timeout 150 python3 "$here/kt/compare.py" --configs 12 2>&1 | tail -5
stamp end
