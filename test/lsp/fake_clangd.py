#!/usr/bin/env python3
"""A stand-in for clangd that writes every message it gets, one JSON line
each, to the file its last argument names, and publishes empty
diagnostics of each text it gets half a second after it came, as a slow
parse would (test_held.py). With --diagnose, one diagnostic instead, at
the text's first 'out[', that names the text it was parsed from
(text_id(): test_guess.py)."""
import hashlib
import json
import queue
import sys
import threading
import time

from lspclient import read_message

DELAY = 0.5
lock = threading.Lock()


def text_id(text):
    """The message of the diagnostic --diagnose publishes of text."""
    return "text " + hashlib.sha1(text.encode()).hexdigest()[:12]


def diagnostics_of(text):
    """--diagnose's diagnostics of text."""
    at = text.find("out[")
    if at < 0:
        return []
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    return [{"range": {"start": {"line": line, "character": col},
                       "end": {"line": line, "character": col + 3}},
             "severity": 2, "source": "fake", "message": text_id(text)}]


def send(msg):
    body = json.dumps(msg).encode()
    with lock:
        sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body))
        sys.stdout.buffer.write(body)
        sys.stdout.buffer.flush()


def parse(texts, diagnose):
    """One parse at a time, in order, as clangd's worker of a file."""
    while True:
        uri, version, text = texts.get()
        time.sleep(DELAY)
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
              "params": {"uri": uri, "version": version,
                         "diagnostics": diagnostics_of(text) if diagnose
                         else []}})


def main():
    log = open(sys.argv[-1], "w")
    stdin = sys.stdin.buffer
    texts = queue.Queue()
    threading.Thread(target=parse, args=(texts, "--diagnose" in sys.argv),
                     daemon=True).start()
    while True:
        msg = read_message(stdin)
        if msg is None:
            return
        log.write(json.dumps(msg) + "\n")
        log.flush()
        method = msg.get("method")
        if method == "exit":
            return
        if method in ("textDocument/didOpen", "textDocument/didChange"):
            doc = msg["params"]["textDocument"]
            text = doc.get("text")
            if text is None:
                text = msg["params"]["contentChanges"][-1]["text"]
            texts.put((doc["uri"], doc["version"], text))
        elif "id" in msg:
            result = None
            if method == "initialize":
                result = {"capabilities": {"positionEncoding": "utf-16"}}
            send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


if __name__ == "__main__":
    main()
