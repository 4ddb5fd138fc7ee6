"""line_breaks.py SRC DIR: writes SRC as DIR/lf/NAME, DIR/crlf/NAME,
DIR/cr/NAME (a lone CR ends each line, as Clang and nvcc read it) and
DIR/bom/NAME (a UTF-8 byte order mark first), NAME being SRC's name."""
import os
import sys

src, out = sys.argv[1], sys.argv[2]
with open(src, newline="") as f:
    text = f.read()
name = os.path.basename(src)
for kind, converted in [
    ("lf", text),
    ("crlf", text.replace("\n", "\r\n")),
    ("cr", text.replace("\n", "\r")),
    ("bom", "\ufeff" + text),
]:
    os.makedirs(os.path.join(out, kind), exist_ok=True)
    with open(os.path.join(out, kind, name), "w", newline="", encoding="utf-8") as f:
        f.write(converted)
