"""A scripted LSP client: JSON-RPC over a server's stdio, for tests and the
benchmark (scripts/bench-lsp)."""
import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time
import unittest


# The tests' folder (their inputs are in Inputs/) and the source tree.
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_tests(module):
    """Runs a test script's unittest tests (module: the script's own,
    sys.modules["__main__"]) with the metacu that --metacu names, which
    they read as module.METACU; other arguments go to unittest."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--metacu", required=True)
    args, rest = ap.parse_known_args()
    module.METACU = os.path.abspath(args.metacu)
    unittest.main(module=module, argv=[sys.argv[0]] + rest)


def uri(path):
    return "file://" + os.path.abspath(path)


def read_message(stream):
    """The next JSON-RPC message of a binary stream, or None at its end."""
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        c = stream.read(1)
        if not c:
            return None
        header += c
    length = 0
    for line in header.decode("ascii").split("\r\n"):
        if line.lower().startswith("content-length:"):
            length = int(line.split(":")[1])
    return json.loads(stream.read(length))


class Client:
    def __init__(self, argv, root, encodings=("utf-16",), stderr=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.next_id = 1
        self.responses = {}
        self.diagnostics = {}  # uri -> list of (time, version, diagnostics)
        self.notifications = []
        self.cond = threading.Condition()
        self.broken = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.versions = {}
        self.texts = {}
        self.sent = {}
        result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": uri(root),
            "capabilities": {
                "general": {"positionEncodings": list(encodings)},
                "textDocument": {
                    "publishDiagnostics": {"relatedInformation": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "documentSymbol": {
                        "hierarchicalDocumentSymbolSupport": True},
                    "completion": {"completionItem": {"snippetSupport": False}},
                    "inactiveRegionsCapabilities": {"inactiveRegions": True},
                    "semanticTokens": {
                        "requests": {"full": True},
                        "tokenTypes": [], "tokenModifiers": [],
                        "formats": ["relative"]},
                },
            },
        })
        self.capabilities = result["capabilities"]
        self.notify("initialized", {})

    def _read(self):
        try:
            self._read_messages()
        except Exception as e:  # A broken stream ends every wait at once.
            with self.cond:
                self.broken = e
                self.cond.notify_all()

    def _check(self):
        if self.broken is not None:
            raise RuntimeError("the server's output broke: %r" % self.broken)

    def _read_messages(self):
        out = self.proc.stdout
        while True:
            msg = read_message(out)
            if msg is None:
                return
            with self.cond:
                if "method" in msg and "id" in msg:
                    # Requests of the server's (progress, configuration).
                    self._send({"jsonrpc": "2.0", "id": msg["id"],
                                "result": None})
                elif "method" in msg:
                    if msg["method"] == "textDocument/publishDiagnostics":
                        p = msg["params"]
                        self.diagnostics.setdefault(p["uri"], []).append(
                            (time.monotonic(), p.get("version"),
                             p["diagnostics"]))
                    self.notifications.append(msg)
                else:
                    self.responses[msg["id"]] = msg
                self.cond.notify_all()

    def _send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        with self.cond:
            self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=120):
        with self.cond:
            rid = self.next_id
            self.next_id += 1
            self._send({"jsonrpc": "2.0", "id": rid, "method": method,
                        "params": params})
            end = time.monotonic() + timeout
            while rid not in self.responses:
                self._check()
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError(method)
                self.cond.wait(left)
            msg = self.responses.pop(rid)
        if "error" in msg:
            raise RuntimeError("%s: %s" % (method, msg["error"]))
        return msg["result"]

    def open(self, path, text=None):
        if text is None:
            with open(path) as f:
                text = f.read()
        u = uri(path)
        if u in self.versions:  # Opened afresh: what was said before is gone.
            self.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        with self.cond:
            self.diagnostics.pop(u, None)
        self.versions[u] = 1
        self.texts[u] = text
        self.sent[u] = time.monotonic()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "cuda", "version": 1, "text": text}})
        return u

    def change(self, path, text):
        u = uri(path)
        self.versions[u] += 1
        self.texts[u] = text
        self.sent[u] = time.monotonic()
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": self.versions[u]},
            "contentChanges": [{"text": text}]})
        return self.versions[u]

    def wait_diagnostics(self, path, version=None, after=None, timeout=120):
        """The first diagnostics of path (of version, published after the
        monotonic time after, by default the last change sent):
        (time, diagnostics)."""
        u = uri(path)
        if after is None:
            after = self.sent.get(u, 0.0)
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, v, d in self.diagnostics.get(u, []):
                    if t >= after and (version is None or v == version):
                        return t, d
                self._check()
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError("diagnostics of " + path)
                self.cond.wait(left)

    def wait_notification(self, method, path, after, timeout=120):
        """The params of the first notification method about path received
        after the index after in self.notifications."""
        u = uri(path)
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for msg in self.notifications[after:]:
                    p = msg.get("params") or {}
                    doc = p.get("textDocument", {}).get("uri", p.get("uri"))
                    if msg["method"] == method and doc == u:
                        return p
                self._check()
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError(method + " of " + path)
                self.cond.wait(left)

    def close(self):
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
            return self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def position(text, needle, offset=0, occurrence=0):
    """The LSP position (UTF-16) of needle's occurrence-th match in text,
    plus offset characters."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    return {"line": line, "character": col}
