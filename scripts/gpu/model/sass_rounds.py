#!/usr/bin/env python3
"""The rounds in which a thread's global loads go out, read from the SASS
(`cuobjdump -sass`), to check what `metacu report` counts from the PTX
(PtxCounts' loadRounds, docs/report.md, "Rounds of loads behind branches").

Outside loops (the instructions from a backward BRA's target to it), a LDG
starts a round of its own where its address reads a register loaded in the
round before (or computed from one), or where such a register was read (the
thread waited for it) before a BRA that stands between them: ptxas keeps
what it did not predicate, so every BRA left in the SASS is a kept branch.

    sass_rounds.py FILE.sass[.gz] ...   # prints "ROUNDS FUNCTION" a function
"""
import re,sys,gzip
ins=re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?);')
def regs(t):
    out=[]
    for m in re.finditer(r'\bR(\d+)(\.64)?\b',t):
        n=int(m.group(1)); out.append(n)
        if m.group(2): out.append(n+1)
    return out
def count(lines):
    L=[]
    for a,t in lines:
        g=None
        if t.startswith('@'): g,t=t.split(None,1)
        op=t.split()[0]; ops=t[len(op):].strip()
        L.append((a,g,op,ops))
    addr={a:i for i,(a,_,_,_) in enumerate(L)}
    inloop=[0]*len(L)
    for i,(a,g,op,ops) in enumerate(L):
        if op.startswith('BRA'):
            # "BRA 0x250", "BRA.DIV UR6, 0x1f0": the target is the address.
            t=int(re.findall(r'0x[0-9a-f]+',ops)[-1],16)
            if t<=a:
                j=min((k for k,(b,_,_,_) in enumerate(L) if b>=t),default=i)
                for k in range(j,i+1): inloop[k]=1
    R=0; loaded=set(); waited=behind=False
    for i,(a,g,op,ops) in enumerate(L):
        if inloop[i]: continue
        base=op.split('.')[0]
        if base in('LDG','LD'):
            parts=ops.split(',',1)
            dst=regs(parts[0]); width=4 if '.128' in op else 2 if '.64' in op else 1
            dst=[dst[0]+k for k in range(width)] if dst else []
            src=regs(parts[1]) if len(parts)>1 else []
            if R==0 or behind or any(r in loaded for r in src):
                R+=1; loaded=set(); waited=behind=False
            loaded|=set(dst); continue
        if base in ('BRA','EXIT','BSSY','BSYNC'):
            if base=='BRA' and waited: behind=True
            continue
        rs=regs(ops)
        if base in('STG','STS','ST','RED','ATOMS','STL'): reads,writes=rs,[]
        else:
            parts=ops.split(',',1); writes=regs(parts[0]) if not parts[0].strip().startswith('P') else []
            reads=regs(parts[1]) if len(parts)>1 else []
        hit=any(r in loaded for r in reads)
        waited|=hit
        for r in writes:
            if hit: loaded.add(r)
            else: loaded.discard(r)
    return max(R,1)
def functions(text):
    cur=None; lines=[]
    for line in text.split('\n'):
        m=re.search(r'Function : (\S+)',line)
        if m:
            if cur: yield cur,count(lines)
            cur=m.group(1); lines=[]; continue
        m=ins.search(line)
        if m and cur: lines.append((int(m.group(1),16),m.group(2).strip()))
    if cur: yield cur,count(lines)
if __name__=='__main__':
    for f in sys.argv[1:]:
        o=gzip.open if f.endswith('gz') else open
        for name,r in functions(o(f,'rt').read()): print(r,name)
