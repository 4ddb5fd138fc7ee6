#!/usr/bin/env python3
"""Golden test of one input: test/golden/NAME.cu against NAME.gen.cu.

The input's first line carries its lit RUN line, whose arguments after
'--' are metacu's (e.g. '--arch 75,90'). This script
  1. runs metacu from the input's directory on its bare file name, so the
     #line directives are the same on every machine;
  2. compares the output byte for byte with NAME.gen.cu (or, with --update,
     rewrites NAME.gen.cu);
  3. compiles the output with nvcc -ptx for each architecture of --arch,
     proving every golden output is valid CUDA for nvcc 13 (given metacu's
     include directory only if it includes a metacu header).
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile


def arch_list(args):
    for i, a in enumerate(args):
        if a == "--arch" and i + 1 < len(args):
            return args[i + 1].split(",")
        if a.startswith("--arch="):
            return a.split("=", 1)[1].split(",")
    sys.exit("check_golden: no --arch in the metacu arguments")


def expand(metacu, source, args):
    directory, name = os.path.split(os.path.abspath(source))
    result = subprocess.run(
        [metacu, name, "-o", "-"] + args,
        cwd=directory,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        sys.exit("check_golden: metacu failed on %s" % source)
    return result.stdout


def preprocessor_flags(args):
    """The -D/-U/-I flags metacu saw; nvcc must see the same."""
    return [a for a in args if a[:2] in ("-D", "-U", "-I")]


def compile_ptx(nvcc, runtime_include, text, name, archs, flags):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        # Only an output that includes a metacu header gets metacu's include
        # directory: the others must compile with the user's paths alone.
        include = ["-I" + runtime_include] if "#include <metacu/" in text else []
        for arch in archs:
            cmd = [nvcc, "-std=c++17", "-ptx", "-arch=sm_" + arch, path,
                   "-o", os.devnull] + include + flags
            result = subprocess.run(cmd, capture_output=True, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stdout + result.stderr)
                sys.exit("check_golden: nvcc -arch=sm_%s failed on %s" % (arch, name))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--metacu", required=True)
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--update", action="store_true")
    parser.add_argument("source")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args

    actual = expand(opts.metacu, opts.source, args)
    expected_path = opts.source[: -len(".cu")] + ".gen.cu"
    if opts.update:
        with open(expected_path, "w") as f:
            f.write(actual)
    else:
        with open(expected_path) as f:
            expected = f.read()
        if actual != expected:
            sys.stdout.writelines(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True),
                    expected_path, "metacu output"))
            sys.exit("check_golden: output differs; run scripts/update-golden "
                     "and review the diff")
    here = os.path.dirname(os.path.abspath(__file__))
    runtime_include = os.path.join(here, "..", "..", "runtime", "include")
    compile_ptx(opts.nvcc, runtime_include, actual,
                os.path.basename(expected_path), arch_list(args),
                preprocessor_flags(args))


if __name__ == "__main__":
    main()
