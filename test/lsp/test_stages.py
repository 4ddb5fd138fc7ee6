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


class StagesTest(unittest.TestCase):
    def test_each_expansion_logs_its_stages(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "server.log")
            with open(log, "w") as stderr:
                client = Client(
                    [METACU, "lsp", "--arch", "75,80,90", "--time-stages",
                     "--clangd", os.path.join(HERE, "fake_clangd.py"),
                     "--clangd-arg", os.path.join(tmp, "clangd.jsonl")],
                    ROOT, stderr=stderr)
                with open(PATH) as f:
                    text = f.read()
                client.open(PATH, text)
                client.wait_diagnostics(PATH, version=1)
                # Meta code edited: the file is expanded again.
                version = client.change(
                    PATH, text.replace("@meta ", "@meta  ", 1))
                client.wait_diagnostics(PATH, version=version)
                self.assertEqual(client.close(), 0)
            with open(log) as f:
                lines = [line for line in f
                         if line.startswith("metacu lsp: stages of " + PATH +
                                            ":")]
        self.assertEqual(len(lines), 2, lines)
        for line in lines:
            stages = STAGE.findall(line)
            self.assertEqual(stages[0], "scan", line)
            for stage in ("host slice", "lower", "emit"):
                self.assertIn(stage, stages, line)
            execute = [s for s in stages if s.startswith("execute")]
            self.assertEqual(len(execute), 1, line)
            self.assertLess(stages.index(execute[0]), stages.index("emit"))

    def test_the_program_start_is_compiled_once_beside_the_interpreter(self):
        # The generator program's start (the code before the first meta
        # statement) is compiled once, and an edit of meta code compiles
        # only the rest; an edit of the start is compiled in a copy of the
        # kept interpreter, not in one started again, and its start kept.
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "server.log")
            with open(log, "w") as stderr:
                client = Client(
                    [METACU, "lsp", "--arch", "75,80,90", "--time-stages",
                     "--clangd", os.path.join(HERE, "fake_clangd.py"),
                     "--clangd-arg", os.path.join(tmp, "clangd.jsonl")],
                    ROOT, stderr=stderr)
                with open(PATH) as f:
                    text = f.read()
                meta = text.replace("@meta ", "@meta  ", 1)
                above = text.replace("@meta ", "// above\n@meta ", 1)
                client.open(PATH, text)
                client.wait_diagnostics(PATH, version=1)
                for edited in (meta, above, above.replace(
                        "@meta ", "@meta  ", 1)):
                    version = client.change(PATH, edited)
                    _, diagnostics = client.wait_diagnostics(PATH,
                                                             version=version)
                    self.assertEqual(diagnostics, [])
                self.assertEqual(client.close(), 0)
            with open(log) as f:
                executes = [[s for s in STAGE.findall(line)
                             if s.startswith("execute")]
                            for line in f
                            if line.startswith("metacu lsp: stages of ")]
        self.assertEqual(executes, [["execute"],
                                    ["execute from a kept start"],
                                    ["execute keeping its start"],
                                    ["execute from a kept start"]])


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
