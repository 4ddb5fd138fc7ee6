#!/usr/bin/env python3
"""Round trip of every fixture in this directory through audit and migrate.

For each fixture:
  * `metacu migrate` reports exactly the sites annotated
    `// AUDIT: CATEGORY` on their first line, with that category, and
    converts exactly the convertible ones;
  * nvcc -ptx of the original and of migrate -> metacu --arch 75,80,90 give
    the same PTX for sm_75, sm_80 and sm_90, both compiled with one module
    id (scripts/nvcc_module_id.py: nvcc names internal-linkage entities
    after it, and its code follows the names), comment and .file lines,
    which name the compiled file, left out;
  * `// PTX: sm_XX has|lacks TEXT` lines hold for the migrated PTX;
  * for each `// OTHER-BUILD: FLAGS` line, the original and the migrated
    file preprocess alike (`nvcc -E` of the host pass, `-D`s of another
    build in FLAGS: a HIP, MUSA or MSVC configuration), line markers left
    out: the other build compiles what it did, with or without metacu.

With --tree DIR, the same over a whole tree in one `metacu migrate DIR`
call: the annotations of every file (headers included) and the PTX of
every .cu file, expanded beside its migrated headers; and each C++ source
(.cc, .cpp), which the host compiler builds without metacu, preprocesses
by `c++ -E -P` to the same tokens from the migrated tree as from the
original: it compiles to the same object.

usage: roundtrip.py METACU NVCC RUNTIME_INCLUDE [FIXTURE...]
       roundtrip.py METACU NVCC RUNTIME_INCLUDE --tree DIR
"""
import concurrent.futures
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARCHS = ["75", "80", "90"]
CONVERTIBLE = {"statement", "host-device-split", "declaration", "list-entry",
               "local-declaration", "macro-definition", "value"}


def nvcc_module_id():
    spec = importlib.util.spec_from_file_location(
        "nvcc_module_id", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "scripts", "nvcc_module_id.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MID = nvcc_module_id()


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(cmd), p.returncode,
                                                       p.stdout, p.stderr))
    return p.stdout


def compared_ptx(nvcc, source, arch, out, includes, id_file):
    """SOURCE's PTX for ARCH compiled with the module id in ID_FILE, less
    the comment and .file lines, which name the compiled file."""
    rc, log = MID.compile(nvcc, ["-ptx", "-arch=sm_" + arch, "-o", out, source] +
                          ["-I" + i for i in includes], id_file)
    if rc:
        raise RuntimeError("nvcc -ptx %s failed (%d):\n%s" % (source, rc, log))
    return "".join(line for line in open(out)
                   if not line.lstrip().startswith(("//", ".file")))


def preprocessed(nvcc, source, flags):
    """SOURCE as the host pass of nvcc with FLAGS preprocesses it, less
    line markers and blank lines."""
    text = run([nvcc, "-E", "-x", "cu", source] + flags)
    return [l for l in text.splitlines()
            if l.strip() and not l.startswith("#")]


def check(metacu, nvcc, runtime, fixture, pool):
    errors = []
    name = os.path.basename(fixture)
    text = open(fixture).read().splitlines()
    expected = {}
    ptx_checks = []
    other_builds = []
    for n, line in enumerate(text, 1):
        m = re.search(r"// OTHER-BUILD: (.*)$", line)
        if m:
            other_builds.append(m.group(1).split())
        m = re.search(r"// AUDIT: ([\w-]+)", line)
        if m:
            expected[n] = m.group(1)
        m = re.search(r"// PTX: sm_(\d+) (has|lacks) (\S+)", line)
        if m:
            ptx_checks.append(m.groups())

    with tempfile.TemporaryDirectory() as tmp:
        # migrate reports every site with its category: one analysis per
        # fixture checks both the audit and the rewrite.
        report = run([metacu, "migrate", "-o", tmp, fixture])
        sites = {}
        for m in re.finditer(r"^.*?:(\d+): (converted|left) \(([\w-]+)\)",
                             report, re.M):
            sites[int(m.group(1))] = (m.group(2), m.group(3))
        for line, cat in sorted(expected.items()):
            if line not in sites:
                errors.append("%s:%d: expected a %s site, found none" %
                              (name, line, cat))
            elif sites[line][1] != cat:
                errors.append("%s:%d: expected %s, got %s" %
                              (name, line, cat, sites[line][1]))
            elif (sites[line][0] == "converted") != (cat in CONVERTIBLE):
                errors.append("%s:%d: %s site was %s" %
                              (name, line, cat, sites[line][0]))
        for line, (_, cat) in sorted(sites.items()):
            if line not in expected:
                errors.append("%s:%d: unexpected %s site" % (name, line, cat))
        converted = sum(1 for s in sites.values() if s[0] == "converted")
        migrated = os.path.join(tmp, name)
        for flags in other_builds:
            if preprocessed(nvcc, fixture, flags) != preprocessed(nvcc, migrated,
                                                                  flags):
                errors.append("%s: with %s the migrated file preprocesses "
                              "differently" % (name, " ".join(flags)))
        generated = os.path.join(tmp, name[:-3] + ".gen.cu")
        run([metacu, migrated, "-o", generated, "--arch", ",".join(ARCHS)])
        id_file = MID.write_module_id(os.path.join(tmp, "module_id"), name, name)
        jobs = {}
        for arch in ARCHS:
            jobs[arch] = (
                pool.submit(compared_ptx, nvcc, fixture, arch,
                            os.path.join(tmp, "orig.%s.ptx" % arch), [], id_file),
                pool.submit(compared_ptx, nvcc, generated, arch,
                            os.path.join(tmp, "new.%s.ptx" % arch), [runtime],
                            id_file))
        for arch in ARCHS:
            orig, new = (j.result() for j in jobs[arch])
            if orig != new:
                errors.append("%s: sm_%s PTX differs after migration" %
                              (name, arch))
            for check_arch, mode, needle in ptx_checks:
                if check_arch == arch and (needle in new) != (mode == "has"):
                    errors.append("%s: sm_%s PTX should %s %s" %
                                  (name, arch, "contain" if mode == "has"
                                   else "not contain", needle))
    return errors, converted


def annotations(path):
    expected = {}
    for n, line in enumerate(open(path).read().splitlines(), 1):
        m = re.search(r"// AUDIT: ([\w-]+)", line)
        if m:
            expected[n] = m.group(1)
    return expected


def cxx_tokens(source):
    """What the host compiler compiles of SOURCE, a C++ file: its
    preprocessed text without line markers, one whitespace-separated word
    a line."""
    return run([os.environ.get("CXX", "c++"), "-std=c++17", "-E", "-P",
                source]).split()


def check_tree(metacu, nvcc, runtime, root, pool):
    """Migrates the tree at ROOT in one call; checks every file's
    annotations and every unit's PTX. Returns (errors, sites, converted)."""
    errors = []
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, fs in os.walk(root) for f in fs
                   if f.endswith((".cu", ".cuh", ".h", ".cc", ".cpp")))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "tree")
        report = run([metacu, "migrate", "-o", out, root])
        sites = {}
        for m in re.finditer(r"^(.*?):(\d+): (converted|left) \(([\w-]+)\)",
                             report, re.M):
            rel = os.path.relpath(m.group(1), root)
            key = (rel, int(m.group(2)))
            # Several value uses on one line are one annotation.
            if key in sites and sites[key] != (m.group(3), m.group(4)):
                errors.append("%s:%d: sites of different categories on one "
                              "line" % key)
            sites[key] = (m.group(3), m.group(4))
        expected = {}
        for rel in files:
            for line, cat in annotations(os.path.join(root, rel)).items():
                expected[(rel, line)] = cat
        for key, cat in sorted(expected.items()):
            if key not in sites:
                errors.append("%s:%d: expected a %s site, found none" %
                              (key + (cat,)))
            elif sites[key][1] != cat:
                errors.append("%s:%d: expected %s, got %s" %
                              (key + (cat, sites[key][1])))
            elif (sites[key][0] == "converted") != (cat in CONVERTIBLE):
                errors.append("%s:%d: %s site was %s" %
                              (key + (cat, sites[key][0])))
        for key, (_, cat) in sorted(sites.items()):
            if key not in expected:
                errors.append("%s:%d: unexpected %s site" % (key + (cat,)))
        if "summary: " not in report:
            errors.append("migrate printed no summary")
        jobs = []
        for rel in files:
            if not rel.endswith(".cu"):
                continue
            migrated = os.path.join(out, rel)
            # Beside the migrated file, so that its #includes find the
            # migrated headers.
            generated = migrated[:-3] + ".gen.cu"
            try:
                run([metacu, migrated, "-o", generated, "--arch",
                     ",".join(ARCHS)])
            except RuntimeError as e:
                errors.append("%s: expanding the migrated file failed: %s" %
                              (rel, e))
                continue
            id_file = MID.write_module_id(generated + ".module_id",
                                          os.path.basename(rel), rel)
            for arch in ARCHS:
                jobs.append((rel, arch,
                             pool.submit(compared_ptx, nvcc, os.path.join(root, rel),
                                         arch, generated + ".orig.%s.ptx" % arch,
                                         [], id_file),
                             pool.submit(compared_ptx, nvcc, generated, arch,
                                         generated + ".%s.ptx" % arch,
                                         [runtime], id_file)))
        for rel in files:
            if not rel.endswith((".cc", ".cpp")):
                continue
            # migrate -o writes the files it reads as CUDA; a C++ source
            # is read beside the migrated headers as it is.
            migrated = os.path.join(out, rel)
            if not os.path.exists(migrated):
                os.makedirs(os.path.dirname(migrated), exist_ok=True)
                shutil.copyfile(os.path.join(root, rel), migrated)
            if cxx_tokens(os.path.join(root, rel)) != cxx_tokens(migrated):
                errors.append("%s: the C++ compiler reads other code after "
                              "migration" % rel)
        for rel, arch, orig, new in jobs:
            if orig.result() != new.result():
                errors.append("%s: sm_%s PTX differs after migration" %
                              (rel, arch))
        converted = sum(1 for s in sites.values() if s[0] == "converted")
    return errors, len(sites), converted


def main():
    metacu, nvcc, runtime = sys.argv[1:4]
    if sys.argv[4:5] == ["--tree"]:
        root = sys.argv[5]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            errors, n, converted = check_tree(metacu, nvcc, runtime, root,
                                              pool)
        print("%s: %s (%d site lines, %d converted, PTX compared for sm_%s)"
              % (root, "FAIL" if errors else "ok", n, converted,
                 ", sm_".join(ARCHS)))
        for e in errors:
            print(e)
        return 1 if errors else 0
    here = os.path.dirname(os.path.abspath(__file__))
    fixtures = sys.argv[4:] or sorted(
        os.path.join(here, f) for f in os.listdir(here) if f.endswith(".cu"))
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for f in fixtures:
            errors, converted = check(metacu, nvcc, runtime, f, pool)
            status = "FAIL" if errors else "ok"
            print("%-20s %s (%d converted, PTX compared for sm_%s)" %
                  (os.path.basename(f), status, converted, ", sm_".join(ARCHS)))
            failures += errors
    for e in failures:
        print(e)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
