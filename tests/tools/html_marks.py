#!/usr/bin/env python3
"""Checks the marks an HTML report drew (the data-* counts its script
writes after drawing, read from Chromium's --dump-dom) against counts
computed here from `gpuprof report -f json` rows, not from the page's data.

usage: html_marks.py REPORT ADVICE DOM TOP [CRITICAL]
REPORT: gpuprof report -f json -c device,iter,layer,op,params,flops,bytes,kernel
ADVICE: gpuprof advise -f json
CRITICAL: gpuprof breakdown --view critical -f json -n 1000000 (the page's
critical path: its rows, at most 50, and its causes with time)
Prints each check; exits 1 when one fails.
"""
import json
import re
import sys


def attr(dom, elem_id, name):
    """The value of attribute name on the element with id elem_id, or None."""
    m = re.search(r'<[a-z]+ [^>]*\bid="%s"[^>]*>' % re.escape(elem_id), dom)
    if not m:
        return None
    a = re.search(r'\b%s="([^"]*)"' % re.escape(name), m.group(0))
    return a.group(1) if a else None


def shown(n, top):
    """Rows a table of n groups shows: the top ones, plus "other"."""
    return min(n, top) + (1 if n > top else 0)


def verdict(checks, source=""):
    """Prints each (name, page value, expected) check, source after the
    name ("(raw JSON)"); exits 1 when one fails, else 0."""
    bad = 0
    for name, got, want in checks:
        ok = got == want
        bad += not ok
        print("%s %s%s: page %s, expected %s" % ("ok  " if ok else "FAIL", name, source, got, want))
    sys.exit(1 if bad else 0)


def layer_frames(path):
    """A layer path's components: split at each '/', empty ones dropped
    (src/analysis/layers.h)."""
    out = [c for c in path.split("/") if c]
    return out or [path]


def main():
    report, advice_path, dom_path, top = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rows = [json.loads(line) for line in open(report, encoding="utf-8")]
    advice = [json.loads(line) for line in open(advice_path, encoding="utf-8")]
    dom = open(dom_path, encoding="utf-8").read()

    def unknown(v):
        return v is None or v in ("", "na", "-")

    # layers and ops: groups of kernels by name, as the tables show them
    layer_ns = {}
    for r in rows:
        layer = "(none)" if unknown(r["layer"]) else r["layer"]
        layer_ns[layer] = layer_ns.get(layer, 0) + 1
    ops = {("(none)" if unknown(r["op"]) else r["op"]) for r in rows}
    kernels = {r["kernel"] for r in rows}
    # roofline points: (op, params) whose known FLOPs and bytes both sum above 0
    work = {}
    for r in rows:
        if unknown(r["flops"]) or unknown(r["bytes"]):
            continue
        key = (str(r["op"]), str(r["params"]))
        f, b = work.get(key, (0.0, 0.0))
        work[key] = (f + float(r["flops"]), b + float(r["bytes"]))
    points = min(1000, sum(1 for f, b in work.values() if f > 0 and b > 0))
    # breakdown bars: one per (device, iteration), consecutive iterations
    # merged into at most 200 groups per device; else one per device
    iters = {}
    for r in rows:
        if not unknown(r["iter"]) and int(r["iter"]) >= 0:
            iters.setdefault(r["device"], set()).add(r["iter"])
    bars = 0
    for its in iters.values():
        per = -(-len(its) // 200)
        bars += -(-len(its) // per)
    if not iters:
        bars = len({r["device"] for r in rows})
    # icicle cells: the distinct prefixes of the layers the table shows,
    # under the time order the page uses (only which layers matters)
    if len(layer_ns) > top:
        # which layers are "top" depends on time, not counts: take the
        # page's own table rows for the shown names
        # a row's first cell: its name, or a cut name with the whole one in its title
        cells = re.findall(r'<tr[^>]*><td class="name"(?: title="([^"]*)")?>([^<]*)</td>',
                           dom.split('id="table-layers"')[1].split("</table>")[0])
        names = [(t or n).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
                 for t, n in cells]
    else:
        names = list(layer_ns)
    prefixes = set()
    for n in names:
        frames = [n] if n in ("(none)", "other") else layer_frames(n)
        for i in range(1, len(frames) + 1):
            prefixes.add(tuple(frames[:i]))

    checks = [
        ("report state", attr(dom, "report", "data-state"), "done"),
        ("errors", attr(dom, "errors", "data-errors"), "0"),
        ("layer bars", attr(dom, "chart-layers", "data-marks"), str(shown(len(layer_ns), top))),
        ("layer rows", attr(dom, "table-layers", "data-rows"), str(shown(len(layer_ns), top))),
        ("icicle cells", attr(dom, "icicle", "data-marks"), str(len(prefixes))),
        ("op rows", attr(dom, "table-ops", "data-rows"), str(shown(len(ops), top))),
        ("kernel rows", attr(dom, "table-kernels", "data-rows"), str(shown(len(kernels), top))),
        ("roofline points", attr(dom, "chart-roofline", "data-marks"), str(points)),
        ("breakdown bars", attr(dom, "chart-breakdown", "data-bars"), str(bars)),
        ("breakdown marks", attr(dom, "chart-breakdown", "data-marks"), str(5 * bars)),
        ("advice items", attr(dom, "advice", "data-marks"), str(min(len(advice), top))),
    ]
    # advice: a "Shared:" line under each shown finding that saves less
    # with the changes above it than alone
    shown_advice = [a for a in advice if a["saving_ns"] is not None][:top]
    shared = sum(1 for a in shown_advice if a["alone_ns"] > a["saving_ns"])
    listed = dom.split('id="advice-list"')[1].split("</ol>")[0] if 'id="advice-list"' in dom else ""
    checks.append(("advice shared lines", listed.count("<p>Shared: "), shared))
    if len(sys.argv) > 5:
        path = [json.loads(line) for line in open(sys.argv[5], encoding="utf-8")]
        whole = [r for r in path if r["iteration"] is None]
        causes = {r["cause"] for r in whole if r["time_ns"] > 0}
        checks += [
            ("critical path rows", attr(dom, "table-critical", "data-rows"), str(min(len(whole), 50))),
            ("critical path causes", attr(dom, "critical-causes", "data-marks"), str(len(causes))),
        ]
    verdict(checks)


if __name__ == "__main__":
    main()
