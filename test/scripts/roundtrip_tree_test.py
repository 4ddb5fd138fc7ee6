#!/usr/bin/env python3
"""scripts/roundtrip-tree's verdict against the control build.

An expansion's PTX "differs as the control does" only where it has the
same functions in the same order as the original's two builds and changes
only functions on which those two builds disagree; a change anywhere else,
or a function more or less, differs.

usage: roundtrip_tree_test.py
"""
import importlib.machinery
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def module():
    path = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "roundtrip-tree")
    loader = importlib.machinery.SourceFileLoader("roundtrip_tree", path)
    spec = importlib.util.spec_from_loader("roundtrip_tree", loader)
    m = importlib.util.module_from_spec(spec)
    loader.exec_module(m)
    return m


def ptx(stable, unstable, extra=""):
    return (".version 9.0\n.target sm_75\n"
            ".visible .entry stable(\n{\n%s\n}\n"
            ".func  (.param .b32 r) helper(\n{\n%s\n}\n%s" % (stable, unstable, extra))


def main():
    m = module()
    errors = []
    original = ptx("add.s32 %r1, %r2, 1;", "mov.u32 %r1, 0;")
    control = ptx("add.s32 %r1, %r2, 1;", "mov.u32 %r2, 0;")
    cases = [
        ("a change where the builds disagree", ptx("add.s32 %r1, %r2, 1;", "mov.u32 %r3, 0;"),
         True),
        ("a change where the builds agree", ptx("add.s32 %r1, %r2, 2;", "mov.u32 %r1, 0;"),
         False),
        ("a function more", ptx("add.s32 %r1, %r2, 1;", "mov.u32 %r3, 0;",
                                ".visible .entry more(\n{\n}\n"), False),
    ]
    for name, expansion, expected in cases:
        verdict = m.as_control_does(original, expansion, [original, control])[0]
        if verdict != expected:
            errors.append("%s: as_control_does gave %s" % (name, verdict))
    if [k for k, _ in m.functions(original)] != [("", 0), (".visible .entry stable(", 1),
                                                 (".func  (.param .b32 r) helper(", 1)]:
        errors.append("functions() cut the PTX wrongly: %r" % m.functions(original))
    for e in errors:
        print(e)
    print("roundtrip_tree: %s" % ("FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
