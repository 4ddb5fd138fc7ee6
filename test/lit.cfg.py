# lit configuration for metacu's end-to-end tests: golden expansions,
# diagnostics at the user's line, and PTX checks through nvcc.
import os

import sys

sys.path.insert(0, os.path.dirname(__file__))
from metacu_lit import MetacuShTest  # noqa: E402

config.name = "metacu"
config.suffixes = [".cu"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.metacu_obj_root, "test")
# Unit, runtime and migration tests have their own runners.
config.excludes = ["unit", "runtime", "migrate", "fuzz", "Inputs"]


config.test_format = MetacuShTest(execute_external=True)

# AddressSanitizer's operator new dies on an exhausted heap instead of
# throwing std::bad_alloc; tests of that behaviour cannot run under it.
if config.metacu_sanitize:
    config.available_features.add("asan")

runtime_include = os.path.join(config.metacu_src_root, "runtime", "include")
nvcc = "%s -std=c++17 -I%s" % (config.nvcc_path, runtime_include)
config.substitutions.append(("%metacu", config.metacu_path))
config.substitutions.append(("%python", config.python_executable))
# Without metacu's runtime directory: what a generated file that uses no
# runtime header must compile with.
# A mount namespace of the test's own (root, or user namespaces) lets a test
# hide the system's LLVM from the packed metacu.
try:
    import subprocess

    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0:
        config.available_features.add("mount-namespace")
except OSError:
    pass

# scripts/pack on this build.
config.substitutions.append(
    (
        "%pack",
        "%s --build %s"
        % (os.path.join(config.metacu_src_root, "scripts", "pack"), config.metacu_obj_root),
    )
)
config.substitutions.append(("%plain-nvcc", "%s -std=c++17" % config.nvcc_path))
config.substitutions.append(("%nvcc", nvcc))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(
    (
        "%check-golden",
        "%s %s --metacu %s --nvcc %s --"
        % (
            config.python_executable,
            os.path.join(config.metacu_src_root, "test", "golden", "check_golden.py"),
            config.metacu_path,
            config.nvcc_path,
        ),
    )
)
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
# run.py keeps the harness's compiled machinery between runs (docs/tune.md,
# "Two steps"): the tests' copy lives in the build tree, not the user's
# cache.
config.environment["METACU_TUNE_CACHE"] = os.path.join(config.test_exec_root, "tune-cache")
