#!/usr/bin/env python3
"""Checks the marks an HTML report drew (the data-* counts its script
writes after drawing, read from Chromium's --dump-dom) against counts
computed here from `gpuprof report -f json` rows, not from the page's data.

usage: html_marks.py REPORT ADVICE DOM TOP [CRITICAL]
REPORT: gpuprof report -f json -c device,iter,layer,op,params,flops,bytes,label,sil
ADVICE: gpuprof advise -f json
CRITICAL: gpuprof breakdown --view critical -f json -n 1000000 (the page's
critical path: its rows, at most 50, and its causes with time)
Also checks the page's layout against the same rows: the verdict and
findings before where the time goes, before the details; a sentence in
place of the roofline when no op has known work and of the step chart
when the trace has fewer than two steps; the largest layer's drill-down
(its ops and kernels, the 10 longest and "other") adding up to the time
the rows give that layer; the gaps' steps never "na".
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


def shown_p(dom, elem_id):
    """The text of the <p> with id elem_id when it is shown (not hidden), else None."""
    m = re.search(r'<p [^>]*\bid="%s"([^>]*)>([^<]*)</p>' % re.escape(elem_id), dom)
    if not m or "hidden" in m.group(1):
        return None
    return m.group(2)


def unescape(text):
    return text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def layout_checks(dom, rows, unknown, points, iters):
    """The page's layout checks (see the module's text): (name, page, expected) triples."""
    checks = []
    at = [dom.find('<section id="%s"' % s) for s in ("advice", "overview", "layers", "roofline")]
    checks.append(("sections: verdict, where the time goes, layers, roofline", at == sorted(at) and min(at) >= 0, True))
    checks.append(("verdict written", bool(re.search(r'id="verdict"[^>]*>GPU busy ', dom)), True))
    absent = shown_p(dom, "roofline-absent")
    checks.append(("roofline replaced by a sentence", absent is not None and absent.startswith("No roofline: "), points == 0))
    most = len(set().union(*iters.values())) if iters else 0   # the iterations of any GPU
    steps = shown_p(dom, "steps-absent") or ""
    want = "one step" if most == 1 else "no steps" if most == 0 else ""
    got = "one step" if "records one step" in steps else "no steps" if "marks no steps" in steps else ""
    checks.append(("step chart replaced by a sentence", got, want))
    # the drill-down open from the start: the largest layer, its ops and kernels
    m = re.search(r'<div id="layer-detail"[^>]*>', dom)
    name = re.search(r'data-layer="([^"]*)"', m.group(0)) if m else None
    if name:
        layer = unescape(name.group(1))
        ns = {}
        for r in rows:
            key = "(none)" if unknown(r["layer"]) else r["layer"]
            ns[key] = ns.get(key, 0) + int(r["sil"])
        mine = [r for r in rows if ("(none)" if unknown(r["layer"]) else r["layer"]) == layer]
        checks.append(("drilled layer is a longest one", ns.get(layer), max(ns.values())))
        for part, col in (("ops", "op"), ("kernels", "label")):
            names = {("(none)" if unknown(r[col]) else r[col]) for r in mine}
            box = re.search(r'<div class="table" id="layer-detail-%s"[^>]*>' % part, dom)
            data_ns = re.search(r'data-ns="([0-9]+)"', box.group(0)) if box else None
            data_rows = re.search(r'data-rows="([0-9]+)"', box.group(0)) if box else None
            checks.append(("drill-down %s add up to the layer" % part, int(data_ns.group(1)) if data_ns else None,
                           sum(int(r["sil"]) for r in mine)))
            checks.append(("drill-down %s rows" % part, data_rows.group(1) if data_rows else None, str(shown(len(names), 10))))
    else:
        checks.append(("layer drill-down open", None, "a layer"))
    gaps = dom.split('id="table-gaps"')[1].split("</table>")[0] if 'id="table-gaps"' in dom else ""
    labels = re.findall(r'<td class="tag">([^<]*)</td>', gaps)
    bad = [x for x in labels if not re.fullmatch(r"step \d+|between steps \d+ and \d+|before step \d+ \(the first\)|"
                                                 r"after step \d+ \(the last\)|outside any step \(none marked\)|[a-z_]+", x)]
    checks.append(("gap steps (never na)", bad + ["na"] * (gaps.count(">na<") + gaps.count(">n/a<")), []))
    return checks


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
    kernels = {r["label"] for r in rows}
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
    checks += layout_checks(dom, rows, unknown, points, iters)
    verdict(checks)


if __name__ == "__main__":
    main()
