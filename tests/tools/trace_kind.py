#!/usr/bin/env python3
"""Which traces testdata holds, told by content as gpuprof's readers tell
them (never by file name: vLLM's execution_details.json beside its traces
is a .json file and no trace; a rocprofv3 results.json is no Kineto
trace), for the tests and oracle scripts that walk every trace of a kind.

    trace_kind.py TESTDATA KIND...   the files of those kinds, relative to
                                     TESTDATA, sorted (C locale), one a line
    trace_kind.py --kind FILE        the kind of one file

Kinds, from the first 64 KiB (inflated when gzip) or the SQLite schema:
  kineto   a JSON object with a "traceEvents" key, or a JSON array whose
           objects have "ph" (a bare Chrome trace)
  rocprof  a JSON object with a "rocprofiler-sdk-tool" key (rocprofv3
           --output-format json)
  nsys     a SQLite file with a StringIds table
  nvprof   a SQLite file with a StringTable table
  none     anything else
Reading the head only keeps this cheap enough for a test to run at each
run; testdata/expected/ (other tools' outputs) is never walked.
"""
import gzip
import os
import sqlite3
import sys

HEAD = 64 << 10
KINDS = ("kineto", "rocprof", "nsys", "nvprof")


def kind(path):
    with open(path, "rb") as f:
        magic = f.read(16)
    if magic.startswith(b"SQLite format 3\0"):
        try:
            db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
            tables = {r[0] for r in db.execute("select name from sqlite_master where type = 'table'")}
            db.close()
        except sqlite3.Error:
            return "none"
        return "nsys" if "StringIds" in tables else "nvprof" if "StringTable" in tables else "none"
    try:
        with (gzip.open if magic[:2] == b"\x1f\x8b" else open)(path, "rb") as f:
            head = f.read(HEAD)
    except (OSError, EOFError):
        return "none"
    head = head.lstrip()
    if head.startswith(b"{"):
        if b'"rocprofiler-sdk-tool"' in head:
            return "rocprof"
        if b'"traceEvents"' in head:
            return "kineto"
    elif head.startswith(b"[") and b'"ph"' in head:
        return "kineto"
    return "none"


def traces(top, kinds):
    """The files under top (but expected/) of the given kinds, relative, sorted."""
    found = []
    for root, dirs, names in os.walk(top):
        if os.path.relpath(root, top) == ".":
            dirs[:] = [d for d in dirs if d != "expected"]
        for n in names:
            p = os.path.join(root, n)
            if kind(p) in kinds:
                found.append(os.path.relpath(p, top))
    return sorted(found, key=lambda s: s.encode())


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--kind":
        print(kind(sys.argv[2]))
        return
    if len(sys.argv) < 3 or any(k not in KINDS for k in sys.argv[2:]):
        sys.exit("usage: trace_kind.py TESTDATA KIND... (%s) | trace_kind.py --kind FILE" % ", ".join(KINDS))
    for f in traces(sys.argv[1], set(sys.argv[2:])):
        print(f)


if __name__ == "__main__":
    main()
