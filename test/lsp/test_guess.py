#!/usr/bin/env python3
"""An edit the server does not apply to the expansion as an edit of
ordinary code (a directive added above the first meta statement) is
guessed: clangd parses the last expansion with the edit applied to its
copies (the '#line' directives after it renumbered) while the file is
expanded again, and clangd's diagnostics of the guess are published only
once the expansion equals it byte for byte; else clangd gets the
expansion, and only its diagnostics are published. Against a stand-in for
clangd (fake_clangd.py --diagnose: each diagnostic names the text it was
parsed from); on every sample, the guess of the bench's 'above' edit
(scripts/bench-lsp) and of its removal equals the expansion of the edited
file opened afresh.

  test_guess.py --metacu build/tool/metacu [unittest options]"""
import glob
import json
import os
import sys
import tempfile
import unittest

# The script's folder is first on sys.path.
from lspclient import HERE, ROOT, Client, run_tests, uri
from fake_clangd import text_id

METACU = None
PATH = os.path.join(HERE, "Inputs", "guess.cu")
ABOVE = "#define METACU_BENCH_EDIT 1\n"


def above(text):
    """text with ABOVE added before the line of its first meta statement,
    as scripts/bench-lsp's 'above' edit."""
    lines = text.split("\n")
    first = next(i for i, l in enumerate(lines)
                 if l.lstrip().startswith("@meta "))
    lines[first] = ABOVE + lines[first]
    return "\n".join(lines)


class Session:
    """metacu lsp with the stand-in for clangd, its log and clangd's."""

    def __init__(self, tmp, diagnose):
        self.log = os.path.join(tmp, "server.log")
        self.clangd_log = os.path.join(tmp, "clangd.jsonl")
        self.stderr = open(self.log, "w")
        self.client = Client(
            [METACU, "lsp", "--arch", "75,80,90", "--time-stages",
             "--clangd", os.path.join(HERE, "fake_clangd.py")] +
            (["--clangd-arg", "--diagnose"] if diagnose else []) +
            ["--clangd-arg", self.clangd_log], ROOT, stderr=self.stderr)

    def texts(self, path):
        """The texts clangd got of path, in order: (method, text)."""
        with open(self.clangd_log) as f:
            msgs = [json.loads(line) for line in f]
        out = []
        for m in msgs:
            doc = (m.get("params") or {}).get("textDocument", {})
            if doc.get("uri") != uri(path):
                continue
            if m["method"] == "textDocument/didOpen":
                out.append((m["method"], doc["text"]))
            elif m["method"] == "textDocument/didChange":
                out.append((m["method"],
                            m["params"]["contentChanges"][-1]["text"]))
        return out

    def guesses(self, path):
        """What the server logged of its guesses of path: 'confirmed' or
        'not confirmed', in order."""
        prefix = "metacu lsp: guess of " + path + " "
        with open(self.log) as f:
            return [line[len(prefix):].strip() for line in f
                    if line.startswith(prefix) and
                    not line.startswith(prefix + "made in ")]

    def close(self):
        status = self.client.close()
        self.stderr.close()
        return status


class GuessTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        with open(PATH) as f:
            self.text = f.read()

    def tearDown(self):
        self.tmp.cleanup()

    def published(self, session, path, version):
        """The messages of every diagnostic published of path's version."""
        return [d["message"]
                for _, v, ds in session.client.diagnostics.get(uri(path), [])
                if v == version for d in ds]

    def test_a_confirmed_guess_is_parsed_once(self):
        # A directive added above the first meta statement.
        s = Session(self.tmp.name, diagnose=True)
        s.client.open(PATH, self.text)
        s.client.wait_diagnostics(PATH, version=1)
        texts = len(s.texts(PATH))
        edited = above(self.text)
        version = s.client.change(PATH, edited)
        _, diagnostics = s.client.wait_diagnostics(PATH, version=version)
        got = s.texts(PATH)[texts:]
        # One text, the guess, which the expansion confirmed: its
        # diagnostics are published.
        self.assertEqual(len(got), 1, got)
        self.assertEqual(s.guesses(PATH), ["confirmed"])
        self.assertEqual([d["message"] for d in diagnostics],
                         [text_id(got[0][1])])
        # The same text as the edited file's expansion opened afresh.
        s.client.open(PATH, edited)
        s.client.wait_diagnostics(PATH, version=1)
        self.assertEqual(s.texts(PATH)[-1], ("textDocument/didOpen",
                                             got[0][1]))
        self.assertEqual(s.close(), 0)

    def test_an_unconfirmed_guess_never_shows_its_diagnostics(self):
        # The macro meta code reads defined again: the guess (the
        # directives copied) is not the expansion (the meta value changed).
        s = Session(self.tmp.name, diagnose=True)
        s.client.open(PATH, self.text)
        s.client.wait_diagnostics(PATH, version=1)
        texts = len(s.texts(PATH))
        edited = self.text.replace("@meta ", "#undef VT\n#define VT 8\n@meta ",
                                   1)
        version = s.client.change(PATH, edited)
        _, diagnostics = s.client.wait_diagnostics(PATH, version=version)
        got = s.texts(PATH)[texts:]
        self.assertEqual(len(got), 2, got)  # the guess, then the expansion
        self.assertNotEqual(got[0][1], got[1][1])
        self.assertIn("scale * 8;", got[0][1])
        self.assertIn("scale * 16;", got[1][1])
        self.assertEqual(s.guesses(PATH), ["not confirmed"])
        # Both parses' diagnostics have come (one parse at a time, in
        # order); only the expansion's were published.
        self.assertEqual([d["message"] for d in diagnostics],
                         [text_id(got[1][1])])
        self.assertEqual(self.published(s, PATH, version),
                         [text_id(got[1][1])])
        self.assertEqual(s.close(), 0)

    def test_the_guess_of_an_edit_above_is_each_samples_expansion(self):
        s = Session(self.tmp.name, diagnose=False)
        samples = sorted(glob.glob(os.path.join(ROOT, "samples", "*",
                                                "*.cu")))
        self.assertGreaterEqual(len(samples), 13)
        for path in samples:
            with open(path) as f:
                text = f.read()
            s.client.open(path, text)
            s.client.wait_diagnostics(path, version=1)
            edited = above(text)
            # The line added, then removed again.
            for before, after in ((text, edited), (edited, text)):
                texts = len(s.texts(path))
                version = s.client.change(path, after)
                s.client.wait_diagnostics(path, version=version)
                got = s.texts(path)[texts:]
                self.assertEqual(len(got), 1, (path, got))
                guess = got[0][1]
                # Opened afresh (where the next edit starts from).
                s.client.open(path, after)
                s.client.wait_diagnostics(path, version=1)
                self.assertEqual(s.texts(path)[-1],
                                 ("textDocument/didOpen", guess), path)
            self.assertEqual(s.guesses(path), ["confirmed", "confirmed"],
                             path)
            s.client.notify("textDocument/didClose",
                            {"textDocument": {"uri": uri(path)}})
        self.assertEqual(s.close(), 0)


if __name__ == "__main__":
    run_tests(sys.modules[__name__])
