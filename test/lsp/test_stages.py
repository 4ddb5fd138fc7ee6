#!/usr/bin/env python3
"""metacu lsp --time-stages, against a stand-in for clangd
(fake_clangd.py): after each expansion of a dialect file the server's log
(stderr) has one line naming the file and, for each stage in the order it
ran, its wall-clock and CPU time.

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
            for stage in ("host slice", "lower", "execute", "emit"):
                self.assertIn(stage, stages, line)
            self.assertLess(stages.index("execute"), stages.index("emit"))


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
