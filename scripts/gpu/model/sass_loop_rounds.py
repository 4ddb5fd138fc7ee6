#!/usr/bin/env python3
"""The rounds of global loads a thread waits for in each loop of the SASS,
to set against the passes `metacu report` counts in the PTX (one round a
pass: docs/report.md, "Loops"; "gemv's loop passes as ptxas issues them").

In a loop's body (the instructions from a backward BRA's target to it) a
round is a run of LDGs that go out together: the next LDG starts a new
round once an instruction has read a register an LDG of the round writes
(the warp waited for it) or the LDG's own address reads one. ptxas
schedules the loads of a pass the PTX unrolled within the registers it
allows, so a pass may take several rounds, or one round may hold several
passes of a loop it unrolled again. Needs no GPU: `cuobjdump -sass` of a
cubin that `nvcc -cubin` (or ptxas) made on any machine; the pip wheel
nvidia-cuda-cuobjdump has it where the toolkit lacks it.

    sass_loop_rounds.py FILE.sass        # or "-" for stdin
prints, for each function and loop: its address range, its rounds and the
LDGs of each round, and every LDG of the loop.

    sass_loop_rounds.py --gemv T,G,R,V [--cuobjdump PATH]
writes scripts/gpu/model/gemv.cu's kernel for one configuration
(threads_per_row, row_groups, rows_per_thread, vector) as a plain kernel,
compiles it with nvcc -cubin -arch=sm_90 and reads its SASS.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INS = re.compile(r'^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;')


def parse(text):
    """(function name, [(address, opcode, operands)]) for each function."""
    funcs, cur = [], None
    for line in text.splitlines():
        m = re.match(r'\s+Function : (\S+)', line)
        if m:
            cur = (m.group(1), [])
            funcs.append(cur)
            continue
        m = INS.match(line)
        if m and cur is not None:
            t = m.group(2)
            if t.startswith('@'):
                t = t.split(None, 1)[1]
            op = t.split()[0]
            cur[1].append((int(m.group(1), 16), op, t[len(op):].strip()))
    return funcs


def registers(s):
    return {int(m.group(1)) for m in re.finditer(r'\bR(\d+)\b', s)}


def width(op):
    m = re.search(r'\.(64|128)\b', op)
    return {None: 1, '64': 2, '128': 4}[m.group(1) if m else None]


def loops(ins):
    """(first, last) indices of each loop: a backward BRA and its target."""
    out = []
    for i, (a, op, ops) in enumerate(ins):
        if op.startswith('BRA'):
            t = int(re.findall(r'0x[0-9a-f]+', ops)[-1], 16)
            if t <= a:
                out.append((min(k for k, x in enumerate(ins) if x[0] >= t), i))
    return out


def rounds(ins, first, last):
    """The LDGs of each round of ins[first..last]."""
    pending, out, open_round = set(), [], False
    for a, op, ops in ins[first:last + 1]:
        parts = ops.split(',', 1)
        if op.startswith('LDG'):
            dst = int(re.match(r'R(\d+)', parts[0]).group(1))
            if registers(parts[1]) & pending:
                pending, open_round = set(), False
            if not open_round:
                out.append(0)
                open_round = True
            out[-1] += 1
            pending |= set(range(dst, dst + width(op)))
        else:
            # Stores and compares read every operand; the rest write the first.
            read = ops if op.startswith(('ST', 'ISETP', 'BRA', 'SHFL')) or len(parts) < 2 else parts[1]
            if registers(read) & pending:
                pending, open_round = set(), False
    return out


def report(text):
    lines = []
    for name, ins in parse(text):
        for first, last in loops(ins):
            r = rounds(ins, first, last)
            if r:
                lines.append('%s loop %04x-%04x: %d rounds, LDGs %s (%d)' %
                             (name, ins[first][0], ins[last][0], len(r), r, sum(r)))
    return lines


def gemv_kernel(tpr, groups, rpt, vec):
    """gemv.cu's kernel for one configuration, as plain CUDA."""
    src = open(os.path.join(os.path.dirname(__file__), 'gemv.cu')).read()
    head = src[:src.index('@meta metacu::tune_space')]
    body = src[src.index('__device__ inline float vdot(float a'):src.index('#ifdef METACU_TUNE')]
    body = body.replace('@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {\n', '')
    body = body[:body.rstrip().rindex('}')]  # the @meta for's brace
    body = re.sub(r'\s*@meta int vec = .*\n', '\n', body)
    body = re.sub(r'\s*@meta std::string type = .*\n', '\n', body)
    values = {'threads_per_row': tpr, 'row_groups': groups, 'rows_per_thread': rpt}
    body = re.sub(r'@\(c\.params\["(\w+)"\]\.as_int\(\)\)', lambda m: str(values[m.group(1)]), body)
    body = body.replace('@(c.name)', 'gemv').replace('@(vec)', str(vec))
    body = body.replace('@(type)', 'float' if vec == 1 else 'float%d' % vec)
    head = head.replace('#include <metacu/runtime.h>\n', '')
    return head + body


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('sass', nargs='?')
    ap.add_argument('--gemv')
    ap.add_argument('--cuobjdump', default='cuobjdump')
    a = ap.parse_args()
    if a.gemv:
        with tempfile.TemporaryDirectory() as d:
            cu, cubin = os.path.join(d, 'gemv.cu'), os.path.join(d, 'gemv.cubin')
            open(cu, 'w').write(gemv_kernel(*map(int, a.gemv.split(','))))
            subprocess.run(['nvcc', '-cubin', '-arch=sm_90', '-O3', '-diag-suppress', '177', cu, '-o', cubin], check=True)
            text = subprocess.run([a.cuobjdump, '-sass', cubin], check=True,
                                  capture_output=True, text=True).stdout
    else:
        text = sys.stdin.read() if a.sass in (None, '-') else open(a.sass).read()
    print('\n'.join(report(text)))


if __name__ == '__main__':
    main()
