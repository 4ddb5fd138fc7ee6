#!/usr/bin/env python3
"""metacu lsp --time-stages, against a stand-in for clangd
(fake_clangd.py): after each expansion of a dialect file the server's log
(stderr) has one line naming the file and, for each stage in the order it
ran, its wall-clock and CPU time; the execute stage's name says how the
generator program was compiled.

  test_stages.py --metacu build/tool/metacu [unittest options]"""
import os
import re
import sys
import tempfile
import unittest

# The script's folder is first on sys.path.
from lspclient import HERE, ROOT, Client, run_tests

METACU = None
PATH = os.path.join(HERE, "Inputs", "symbols.cu")
STAGE = re.compile(r" ([a-z ]+) [0-9.]+ ms \(cpu [0-9.]+\);")


def stages_of_each_expansion(test, texts):
    """Opens PATH with texts[0], then changes it to each later text; every
    expansion's diagnostics must be empty. The stages the server logged for
    each expansion of PATH, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "server.log")
        with open(log, "w") as stderr:
            client = Client(
                [METACU, "lsp", "--arch", "75,80,90", "--time-stages",
                 "--clangd", os.path.join(HERE, "fake_clangd.py"),
                 "--clangd-arg", os.path.join(tmp, "clangd.jsonl")],
                ROOT, stderr=stderr)
            client.open(PATH, texts[0])
            _, diagnostics = client.wait_diagnostics(PATH, version=1)
            test.assertEqual(diagnostics, [])
            for edited in texts[1:]:
                version = client.change(PATH, edited)
                _, diagnostics = client.wait_diagnostics(PATH, version=version)
                test.assertEqual(diagnostics, [])
            test.assertEqual(client.close(), 0)
        with open(log) as f:
            return [STAGE.findall(line) for line in f
                    if line.startswith("metacu lsp: stages of " + PATH + ":")]


class StagesTest(unittest.TestCase):
    def test_each_expansion_logs_its_stages(self):
        with open(PATH) as f:
            text = f.read()
        # Meta code edited: the file is expanded again.
        runs = stages_of_each_expansion(
            self, [text, text.replace("@meta ", "@meta  ", 1)])
        self.assertEqual(len(runs), 2, runs)
        for stages in runs:
            self.assertEqual(stages[0], "scan", stages)
            for stage in ("host slice", "lower", "emit"):
                self.assertIn(stage, stages, stages)
            execute = [s for s in stages if s.startswith("execute")]
            self.assertEqual(len(execute), 1, stages)
            self.assertLess(stages.index(execute[0]), stages.index("emit"))

    def test_the_program_start_is_compiled_once_beside_the_interpreter(self):
        # The generator program's start (the code before the first meta
        # statement) is compiled once, and an edit of meta code compiles
        # only the rest; an edit of the start below its headers is
        # compiled in a copy of the kept copy that holds them, an edit of
        # its headers in a copy of the kept interpreter, not in one
        # started again, and the start kept.
        with open(PATH) as f:
            text = f.read()
        meta = text.replace("@meta ", "@meta  ", 1)
        above = text.replace("@meta ", "// above\n@meta ", 1)
        headers = above.replace("#include <string>",
                                "#define ABOVE 1\n#include <string>", 1)
        runs = stages_of_each_expansion(
            self, [text, meta, above, above.replace("@meta ", "@meta  ", 1),
                   headers])
        executes = [[s for s in stages if s.startswith("execute")]
                    for stages in runs]
        self.assertEqual(executes, [["execute"],
                                    ["execute from a kept start"],
                                    ["execute keeping its start on kept "
                                     "headers"],
                                    ["execute from a kept start"],
                                    ["execute keeping its start"]])


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
