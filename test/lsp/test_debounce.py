#!/usr/bin/env python3
"""When metacu lsp expands a dialect file again after an edit of its meta
code, against a stand-in for clangd (fake_clangd.py): the first edit after
a pause at once, the edits that follow it closely once typing pauses for
the debounce (here ten minutes, so that only an edit expanded at once
gets its diagnostics during the test).

  test_debounce.py --metacu build/tool/metacu [unittest options]"""
import os
import sys
import tempfile
import unittest

# The script's folder is first on sys.path.
from lspclient import HERE, ROOT, Client, run_tests

METACU = None
PATH = os.path.join(HERE, "Inputs", "symbols.cu")


class DebounceTest(unittest.TestCase):
    def test_an_edit_after_a_pause_expands_at_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            client = Client(
                [METACU, "lsp", "--arch", "75,80,90", "--debounce-ms",
                 "600000", "--clangd", os.path.join(HERE, "fake_clangd.py"),
                 "--clangd-arg", os.path.join(tmp, "clangd.jsonl")],
                ROOT)
            with open(PATH) as f:
                text = f.read()
            client.open(PATH, text)
            client.wait_diagnostics(PATH, version=1)
            # Meta code edited, the first edit since the file was opened.
            version = client.change(PATH,
                                    text.replace("@meta ", "@meta  ", 1))
            client.wait_diagnostics(PATH, version=version)
            # The next, at once: it waits for a pause of ten minutes.
            version = client.change(PATH, text)
            with self.assertRaises(TimeoutError):
                client.wait_diagnostics(PATH, version=version, timeout=3)
            self.assertEqual(client.close(), 0)


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
