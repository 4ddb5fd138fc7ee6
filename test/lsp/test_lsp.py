#!/usr/bin/env python3
"""metacu lsp against the real clangd 22, driven by a scripted client
(lspclient.py): every sample opens without diagnostics, a meta error is one
diagnostic at its place, and hover, go-to-definition, completion and
document symbols land on the user's text.

  test_lsp.py --metacu build/tool/metacu [unittest options]

clangd 22 is part of scripts/setup: without it the suite fails."""
import argparse
import glob
import os
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INPUTS = os.path.join(HERE, "Inputs")
sys.path.insert(0, HERE)
from lspclient import Client, position, uri  # noqa: E402

METACU = None


def read(path):
    with open(path) as f:
        return f.read()


class LspTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.log = open(os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                    "metacu-lsp-test.log"), "w")
        cls.client = Client([METACU, "lsp", "--arch", "75,80,90",
                             "--clangd-arg=--background-index=false"],
                            ROOT, stderr=cls.log)

    @classmethod
    def tearDownClass(cls):
        status = cls.client.close()
        cls.log.close()
        assert status == 0, "metacu lsp exited with %d" % status

    def open(self, path):
        self.client.open(path)
        _, diags = self.client.wait_diagnostics(path, version=1)
        return diags

    def test_samples_open_without_diagnostics(self):
        samples = sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.cu")))
        self.assertGreater(len(samples), 5)
        for path in samples:
            with self.subTest(sample=os.path.relpath(path, ROOT)):
                self.assertEqual(self.open(path), [])

    def test_plain_file_goes_to_clangd_as_it_is(self):
        path = os.path.join(INPUTS, "plain.cu")
        diags = self.open(path)
        self.assertEqual(len(diags), 1, diags)
        self.assertIn("undeclared_name", diags[0]["message"])
        self.assertEqual(diags[0]["range"]["start"],
                         position(read(path), "undeclared_name"))

    def test_meta_error_is_one_diagnostic_at_its_place(self):
        path = os.path.join(INPUTS, "symbols.cu")
        text = read(path)
        self.assertEqual(self.open(path), [])
        bad = text.replace(
            "@meta config cfg{128, 4};\n",
            "@meta config cfg{128, 4};\n"
            "@meta static_assert(cfg.nt == 64, \"nt must be 64\");\n")
        version = self.client.change(path, bad)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(len(diags), 1, diags)
        self.assertEqual(diags[0]["source"], "metacu")
        self.assertEqual(diags[0]["message"],
                         "static assertion failed: nt must be 64")
        self.assertEqual(diags[0]["range"]["start"],
                         position(bad, "@meta static_assert"))
        # Fixed again: clangd's (none) replace metacu's.
        version = self.client.change(path, text)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(diags, [])

    def test_meta_error_in_dialect_header_is_on_header_and_include(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = os.path.join(tmp, "lanes.cuh")
            good = read(os.path.join(INPUTS, "kernels.cuh"))
            bad = good.replace(
                "@meta int lanes = 4;\n",
                "@meta int lanes = 4;\n"
                "@meta static_assert(lanes == 8, \"lanes must be 8\");\n")
            with open(header, "w") as f:
                f.write(bad)
            path = os.path.join(tmp, "uses.cu")
            text = read(os.path.join(INPUTS, "uses_header.cu")).replace(
                "kernels.cuh", "lanes.cuh")
            start = time.monotonic()
            self.client.open(path, text)
            _, diags = self.client.wait_diagnostics(path, version=1)
            # In the open file: one error, at the #include that reads the
            # header, naming the header's place.
            self.assertEqual(len(diags), 1, diags)
            self.assertEqual(diags[0]["source"], "metacu")
            self.assertRegex(diags[0]["message"],
                             r"lanes\.cuh:6:1: static assertion failed: "
                             r"lanes must be 8$")
            line = position(text, "#include")
            self.assertEqual(diags[0]["range"]["start"], line)
            self.assertEqual(diags[0]["range"]["end"]["line"], line["line"])
            related = diags[0]["relatedInformation"][0]["location"]
            self.assertEqual(related["uri"], uri(header))
            # On the header, not open in the editor: at its line.
            _, on_header = self.client.wait_diagnostics(header, after=start)
            self.assertEqual(len(on_header), 1, on_header)
            self.assertEqual(on_header[0]["message"],
                             "static assertion failed: lanes must be 8")
            self.assertEqual(on_header[0]["range"]["start"],
                             position(bad, "@meta static_assert"))
            # Opened in the editor, the header fails on its own too: the
            # same error is shown once.
            self.client.open(header, bad)
            _, own = self.client.wait_diagnostics(header, version=1)
            self.assertEqual(len(own), 1, own)
            self.client.notify("textDocument/didClose",
                               {"textDocument": {"uri": uri(header)}})
            # The header fixed, the file expanded again: both are clear.
            with open(header, "w") as f:
                f.write(good)
            edited = text + "// edit\n"
            start = time.monotonic()
            version = self.client.change(path, edited)
            _, diags = self.client.wait_diagnostics(path, version=version)
            self.assertEqual(diags, [])
            _, on_header = self.client.wait_diagnostics(header, after=start)
            self.assertEqual(on_header, [])
            self.client.notify("textDocument/didClose",
                               {"textDocument": {"uri": uri(path)}})

    def test_clangd_error_in_unrolled_body_is_at_users_line(self):
        path = os.path.join(INPUTS, "symbols.cu")
        text = read(path)
        self.open(path)
        bad = text.replace("out[threadIdx.x + k * threads] = scale_2(value);",
                           "out[threadIdx.x + k * threads] = scale_9(value);")
        version = self.client.change(path, bad)
        _, diags = self.client.wait_diagnostics(path, version=version)
        # Four unrolled copies, one error.
        self.assertEqual(len(diags), 1, diags)
        self.assertIn("scale_9", diags[0]["message"])
        self.assertEqual(diags[0]["range"]["start"], position(bad, "scale_9"))
        self.client.change(path, text)

    def test_hover_on_variable_in_unrolled_body(self):
        path = os.path.join(INPUTS, "symbols.cu")
        self.open(path)
        text = read(path)
        at = position(text, "scale_2(value)", len("scale_2("))
        hover = self.client.request("textDocument/hover", {
            "textDocument": {"uri": uri(path)}, "position": at})
        self.assertIn("value", hover["contents"]["value"])
        self.assertIn("float", hover["contents"]["value"])
        self.assertEqual(hover["range"]["start"], at)

    def test_hover_after_an_edit_of_ordinary_code(self):
        # Applied to the four unrolled copies at once: what follows the edit
        # on its line has moved in each.
        path = os.path.join(INPUTS, "symbols.cu")
        text = read(path)
        self.open(path)
        edited = text.replace("= scale_2(value);", "= scale_2(  value);")
        version = self.client.change(path, edited)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(diags, [])
        at = position(edited, "(  value)", 3)
        hover = self.client.request("textDocument/hover", {
            "textDocument": {"uri": uri(path)}, "position": at})
        self.assertIn("value", hover["contents"]["value"])
        self.assertEqual(hover["range"]["start"], at)
        self.client.change(path, text)

    def test_a_line_added_to_an_unrolled_body(self):
        # Added to the four copies at once, the lines after it moved: its
        # error is one diagnostic at its line, hover below it lands.
        path = os.path.join(INPUTS, "symbols.cu")
        text = read(path)
        self.open(path)
        line = "    float value = in[threadIdx.x + k * threads];\n"
        edited = text.replace(line, line + "    float bad = undeclared_x;\n")
        version = self.client.change(path, edited)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(len(diags), 1, diags)
        self.assertIn("undeclared_x", diags[0]["message"])
        self.assertEqual(diags[0]["range"]["start"],
                         position(edited, "undeclared_x"))
        at = position(edited, "scale_2(value)", len("scale_2("))
        hover = self.client.request("textDocument/hover", {
            "textDocument": {"uri": uri(path)}, "position": at})
        self.assertIn("float", hover["contents"]["value"])
        self.assertEqual(hover["range"]["start"], at)
        # Removed again: no diagnostics.
        version = self.client.change(path, text)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(diags, [])

    def test_hover_on_meta_value_shows_its_constant(self):
        path = os.path.join(INPUTS, "symbols.cu")
        self.open(path)
        at = position(read(path), "cfg.nt", 4)
        hover = self.client.request("textDocument/hover", {
            "textDocument": {"uri": uri(path)}, "position": at})
        self.assertIn("128", hover["contents"]["value"])

    def test_definition_into_dialect_header(self):
        path = os.path.join(INPUTS, "uses_header.cu")
        self.assertEqual(self.open(path), [])
        at = position(read(path), "sum_lanes(", 2)
        result = self.client.request("textDocument/definition", {
            "textDocument": {"uri": uri(path)}, "position": at})
        locations = result if isinstance(result, list) else [result]
        self.assertEqual(len(locations), 1, locations)
        header = os.path.join(INPUTS, "kernels.cuh")
        target = locations[0].get("uri") or locations[0].get("targetUri")
        rng = locations[0].get("range") or locations[0].get(
            "targetSelectionRange")
        self.assertEqual(target, uri(header))
        self.assertEqual(rng["start"], position(read(header), "sum_lanes"))

    def test_below_a_dialect_header_errors_and_definitions_land(self):
        # clangd reads the header's expansion from a file the expansion
        # includes in its place: what follows is at its place, before and
        # after an edit, and the definition in the header is the header's.
        path = os.path.join(INPUTS, "uses_header.cu")
        text = read(path)
        self.assertEqual(self.open(path), [])
        call = "sum_lanes(in + stride * threadIdx.x);"
        bad = text.replace(call, call + " int bad = undeclared_y;")
        version = self.client.change(path, bad)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(len(diags), 1, diags)
        self.assertIn("undeclared_y", diags[0]["message"])
        self.assertEqual(diags[0]["range"]["start"],
                         position(bad, "undeclared_y"))
        result = self.client.request("textDocument/definition", {
            "textDocument": {"uri": uri(path)},
            "position": position(bad, "sum_lanes(", 2)})
        locations = result if isinstance(result, list) else [result]
        self.assertEqual(len(locations), 1, locations)
        header = os.path.join(INPUTS, "kernels.cuh")
        self.assertEqual(locations[0].get("uri") or
                         locations[0].get("targetUri"), uri(header))
        rng = locations[0].get("range") or locations[0].get(
            "targetSelectionRange")
        self.assertEqual(rng["start"], position(read(header), "sum_lanes"))
        version = self.client.change(path, text)
        _, diags = self.client.wait_diagnostics(path, version=version)
        self.assertEqual(diags, [])

    def test_completion_after_meta_value(self):
        path = os.path.join(INPUTS, "symbols.cu")
        text = read(path)
        self.open(path)
        typing = text.replace("int threads = cfg.nt;", "int threads = cfg.")
        self.client.change(path, typing)
        at = position(typing, "cfg.\n", len("cfg."))
        result = self.client.request("textDocument/completion", {
            "textDocument": {"uri": uri(path)}, "position": at})
        items = result["items"] if isinstance(result, dict) else result
        labels = {i.get("filterText") or i["label"].strip() for i in items}
        self.assertTrue({"nt", "vt"} <= labels, labels)
        self.client.change(path, text)

    def test_document_symbols_of_generated_functions(self):
        path = os.path.join(INPUTS, "symbols.cu")
        self.open(path)
        text = read(path)
        symbols = self.client.request("textDocument/documentSymbol", {
            "textDocument": {"uri": uri(path)}})
        names = [s["name"] for s in symbols]
        for name in ("config", "scale_1", "scale_2", "scale_3", "copy"):
            self.assertIn(name, names)
        self.assertNotIn("nvvm_arch_t", names)  # the prelude's
        splice = position(text, "@(\"scale_\"")
        for s in symbols:
            if s["name"].startswith("scale_"):
                self.assertEqual(s["selectionRange"]["start"], splice)


class LspPassTest(unittest.TestCase):
    """--pass 80: the editor shows sm_80's device pass."""

    def test_the_pass_shown_is_live_and_the_others_inactive(self):
        log = open(os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                "metacu-lsp-pass-test.log"), "w")
        client = Client([METACU, "lsp", "--arch", "75,80,90", "--pass", "80",
                         "--clangd-arg=--background-index=false"],
                        ROOT, stderr=log)
        try:
            path = os.path.join(INPUTS, "pass.cu")
            text = read(path)
            seen = len(client.notifications)
            client.open(path)
            _, diags = client.wait_diagnostics(path, version=1)
            self.assertEqual(diags, [])
            regions = client.wait_notification("textDocument/inactiveRegions",
                                               path, seen)["regions"]

            def inactive(needle):
                line = position(text, needle)["line"]
                return any(r["start"]["line"] <= line <= r["end"]["line"]
                           for r in regions)
            # sm_80's copy of the unrolled branch is live; the sm_90 branch
            # is not (in the host pass both would be inactive, in sm_90's
            # both live).
            self.assertFalse(inactive("int arch"), regions)
            self.assertFalse(inactive("out[threadIdx.x] = arch;"), regions)
            self.assertTrue(inactive("int hopper"), regions)
            self.assertTrue(inactive("out[0] = hopper;"), regions)
            # A meta value is the constant it became in sm_80's copy (the
            # host pass would show the first copy's, sm_75).
            at = position(text, "(int)sm", len("(int)"))
            hover = client.request("textDocument/hover", {
                "textDocument": {"uri": uri(path)}, "position": at})
            self.assertIn("sm_80", hover["contents"]["value"])
            self.assertNotIn("sm_75", hover["contents"]["value"])
            # clangd answers in the live copy: the variable is sm_80's.
            at = position(text, "= arch;", 2)
            hover = client.request("textDocument/hover", {
                "textDocument": {"uri": uri(path)}, "position": at})
            self.assertIn("arch", hover["contents"]["value"])
            self.assertEqual(hover["range"]["start"], at)
        finally:
            self.assertEqual(client.close(), 0)
            log.close()


def main():
    global METACU
    parser = argparse.ArgumentParser()
    parser.add_argument("--metacu", required=True)
    args, rest = parser.parse_known_args()
    METACU = os.path.abspath(args.metacu)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
