"""nvcc's own steps with one module id for two compilations.

nvcc names a translation unit's internal-linkage entities (anonymous
namespaces, static functions, their lambdas and kernels) after a "module
id" that its front end (cudafe++, or cicc for -ptx) makes of a CRC-32 of
the source's absolute path (its --orig_src_path_name), the file's name and
the mangled name of its first external function (a number nvcc draws per
run where it has none). Two files at two paths, an original and its
expansion, so get different names, and masking them in the text hides a
real change of a name and cannot say whether nvcc's code differs because
of them.

nvcc has no option for the id, but its steps (`nvcc -dryrun`) pass it in a
file, --module_id_file_name, made by the front end where
--gen_module_id_file is given and read otherwise. compile() runs those
steps itself with the id written to, or read from, a file of the caller's:
two compilations given one id differ only in their text.
"""
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import zlib

MODULE_ID_FILE = re.compile(r'--module_id_file_name\s+("[^"]*"|\S+)')
GEN_MODULE_ID = re.compile(r"\s--gen_module_id_file(?=\s)")
ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)")


def module_id(name, key):
    """A module id shaped as nvcc's, _CRC_LENGTH_NAME_CRC (NAME the file's
    name, '.' written '_'), from KEY, a text that names the unit (its path
    in its tree) wherever the tree lies. nvcc -ptx makes its id inside cicc
    and writes it nowhere, so a -ptx comparison gives both sides this one."""
    return "_%08x_%d_%s_%08x" % (zlib.crc32(key.encode()), len(name),
                                 re.sub(r"\W", "_", name),
                                 zlib.crc32(name.encode()))


def write_module_id(path, name, key):
    with open(path, "w") as f:
        f.write(module_id(name, key))
    return path


def steps(nvcc, args, keep_dir, cwd):
    """nvcc's commands for ARGS as -dryrun prints them, their intermediate
    files kept in KEEP_DIR; raises RuntimeError with nvcc's message."""
    p = subprocess.run([nvcc, "-dryrun", "-keep", "-keep-dir", keep_dir] + args,
                       cwd=cwd, capture_output=True, text=True)
    lines = [l[3:] for l in p.stderr.splitlines() if l.startswith("#$ ")]
    if p.returncode or not lines:
        raise RuntimeError(p.stderr[-2000:])
    return lines


def compile(nvcc, args, id_file, generate=False, cwd=None, keep_dir=None,
            prefix=()):
    """Runs `nvcc ARGS` in CWD step by step, as nvcc would, but for the
    module id: where GENERATE the front end makes it by nvcc's rule and
    writes it to ID_FILE (nvcc -c: cudafe++ writes it), else every step
    reads it from ID_FILE. KEEP_DIR keeps the intermediate files (a
    temporary directory otherwise); PREFIX goes before every step (nice -n
    5). Returns (returncode, output)."""
    work = keep_dir or tempfile.mkdtemp(prefix="nvcc-steps-")
    try:
        try:
            lines = steps(nvcc, args, work, cwd)
        except RuntimeError as e:
            return 1, str(e)
        # nvcc's variables (PATH, CICC_PATH, LD_LIBRARY_PATH) reach its tools.
        script = ["set -e", "set -a"]
        pre = " ".join(shlex.quote(x) for x in prefix)
        for line in lines:
            assignment = ASSIGNMENT.match(line)
            if assignment:
                # nvcc's variables hold text as written (INCLUDES="-I..."
                # "-I..."): one word unquoted, else the text itself.
                words = shlex.split(assignment.group(2))
                value = words[0] if len(words) == 1 else assignment.group(2).strip()
                script.append("%s=%s" % (assignment.group(1), shlex.quote(value)))
                continue
            if MODULE_ID_FILE.search(line):
                if not generate:
                    line = GEN_MODULE_ID.sub("", line)
                line = MODULE_ID_FILE.sub(
                    lambda m: "--module_id_file_name " + shlex.quote(os.path.abspath(id_file)),
                    line)
            script.append(pre + " " + line if pre else line)
        p = subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd,
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr
    finally:
        if not keep_dir:
            shutil.rmtree(work, ignore_errors=True)
