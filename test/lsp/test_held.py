#!/usr/bin/env python3
"""What metacu lsp sends clangd while clangd parses a dialect file's
expansion, against a stand-in for clangd (fake_clangd.py, whose parse
takes half a second): each text asks for its diagnostics at once
(wantDiagnostics: clangd's own debounce would only delay them); edits
made while a text is parsed wait and go as one; a request goes after the
text it is about.

  test_held.py --metacu build/tool/metacu [unittest options]"""
import json
import os
import sys
import tempfile
import unittest

# The script's folder is first on sys.path.
from lspclient import HERE, ROOT, Client, position, run_tests, uri

METACU = None
PATH = os.path.join(HERE, "Inputs", "symbols.cu")
LINE = "__global__ void copy(float* out"


class HeldTextTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.dir.name, "clangd.jsonl")
        self.client = Client(
            [METACU, "lsp", "--arch", "75,80,90", "--clangd",
             os.path.join(HERE, "fake_clangd.py"), "--clangd-arg", self.log],
            ROOT)

    def tearDown(self):
        status = self.client.close()
        self.dir.cleanup()
        self.assertEqual(status, 0)

    def received(self):
        """What the stand-in got about the document since it was opened."""
        with open(self.log) as f:
            msgs = [json.loads(line) for line in f]
        about = [m for m in msgs
                 if (m.get("params") or {}).get("textDocument", {})
                 .get("uri") == uri(PATH)]
        opened = [i for i, m in enumerate(about)
                  if m["method"] == "textDocument/didOpen"]
        return about[opened[0] + 1:]

    def spaced(self, text, n):
        """text with n more spaces after 'float*' in LINE: ordinary code."""
        return text.replace(LINE, LINE.replace("* ", "*" + " " * (n + 1)))

    def test_edits_while_clangd_parses_go_as_one(self):
        with open(PATH) as f:
            text = f.read()
        self.client.open(PATH, text)
        self.client.wait_diagnostics(PATH, version=1)
        for n in (1, 2, 3):
            version = self.client.change(PATH, self.spaced(text, n))
        self.client.wait_diagnostics(PATH, version=version)
        changes = [m["params"] for m in self.received()
                   if m["method"] == "textDocument/didChange"]
        self.assertGreaterEqual(len(changes), 2)
        for n, change in zip((1, 3), changes):
            self.assertIn(LINE.replace("* ", "*" + " " * (n + 1)),
                          change["contentChanges"][0]["text"])
            self.assertIs(change.get("wantDiagnostics"), True)
        self.assertFalse(any(LINE.replace("* ", "*   ") in
                             c["contentChanges"][0]["text"]
                             for c in changes))

    def test_a_request_goes_after_the_text_it_is_about(self):
        with open(PATH) as f:
            text = f.read()
        self.client.open(PATH, text)
        self.client.wait_diagnostics(PATH, version=1)
        self.client.change(PATH, self.spaced(text, 1))
        edited = self.spaced(text, 2)
        self.client.change(PATH, edited)
        self.client.request("textDocument/hover", {
            "textDocument": {"uri": uri(PATH)},
            "position": position(edited, "out[threadIdx.x")})
        methods = [(m["method"], LINE.replace("* ", "*   ") in
                    json.dumps(m.get("params")))
                   for m in self.received()]
        self.assertIn(("textDocument/hover", False), methods)
        at = methods.index(("textDocument/hover", False))
        self.assertIn(("textDocument/didChange", True), methods[:at])


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
