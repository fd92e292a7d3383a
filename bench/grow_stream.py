#!/usr/bin/env python3
"""Grow a real Kineto trace to many GB (bench/huge.sh): the same file as
../shared/tools/grow_kineto.py writes (events repeated K times, each copy shifted later
by the trace's span, fresh correlation, External id, Sequence number and flow ids;
metadata events once; one event a line), written copy by copy instead of building the
whole list first, so memory stays that of the input.  Each event is serialised once
into a template with holes for the shifted fields, so a copy costs string joins, not
json.dumps (grow_kineto.py wrote 1 GB in 12 minutes on the 2-core machine).
With --renumber-steps, copy i of an event named ProfilerStep#N is named
ProfilerStep#(N + i * steps per copy), so the iterations of the grown trace follow
each other (as bench/window.sh does after grow_kineto.py) and `--iters A:B` picks
one window instead of the same steps in every copy.
Usage: grow_stream.py [--renumber-steps] IN.json[.gz] OUT.json K"""
import gzip, json, re, sys

args = sys.argv[1:]
renumber = args[:1] == ['--renumber-steps']
if renumber:
    args = args[1:]
src, dst, k = args[0], args[1], int(args[2])
d = json.load(gzip.open(src) if src.endswith('.gz') else open(src))
ev = d.pop('traceEvents')
ts = [float(e['ts']) for e in ev if isinstance(e.get('ts'), (int, float))]
span = max(ts) - min(ts) + 1000.0
ids = lambda e, key: e.get('args', {}).get(key)
mx = max([int(v) for e in ev for v in (ids(e, 'correlation'), ids(e, 'External id')) if isinstance(v, int)] +
         [int(e['id']) for e in ev if isinstance(e.get('id'), int)] + [0]) + 1
ID_KEYS = ('correlation', 'External id', 'Sequence number')
HOLE = '@@hole%d@@'
HOLE_RE = re.compile('"@@hole([0-9]+)@@"')
STEP_RE = re.compile(r'ProfilerStep#([0-9]+)$')
steps = sorted({int(m.group(1)) for e in ev for m in [STEP_RE.match(str(e.get('name', '')))] if m})
per_copy = steps[-1] - steps[0] + 1 if steps else 0


def template(e):
    """(parts, shifts): the event's text split at its shifted fields; shift j is
    ('ts', value) or ('id', value), filled in between parts[j] and parts[j + 1]."""
    c, shifts = dict(e), []
    def hole(kind, v):
        shifts.append((kind, v))
        return HOLE % (len(shifts) - 1)
    if isinstance(c.get('ts'), (int, float)): c['ts'] = hole('ts', c['ts'])
    if isinstance(c.get('id'), int): c['id'] = hole('id', c['id'])
    m = STEP_RE.match(str(c.get('name', ''))) if renumber else None
    if m: c['name'] = hole('step', int(m.group(1)))
    if 'args' in c:
        a = dict(c['args'])
        for key in ID_KEYS:
            if isinstance(a.get(key), int): a[key] = hole('id', a[key])
        c['args'] = a
    pieces = HOLE_RE.split('  ' + json.dumps(c))   # text, hole number, text, ...
    return pieces[0::2], [shifts[int(j)] for j in pieces[1::2]]


with open(dst, 'w') as f:
    f.write('{\n' + ''.join(f'  {json.dumps(key)}: {json.dumps(v)},\n' for key, v in d.items()))
    f.write('  "traceEvents": [\n')
    f.write(',\n'.join('  ' + json.dumps(e) for e in ev))   # copy 0: the events as they are
    tpl = [template(e) for e in ev if e.get('ph') != 'M']
    for i in range(1, k):
        out = []
        for parts, shifts in tpl:
            s = [parts[0]]
            for j, (kind, v) in enumerate(shifts):
                s.append(repr(v + i * span) if kind == 'ts' else
                         f'"ProfilerStep#{v + i * per_copy}"' if kind == 'step' else str(v + i * mx))
                s.append(parts[j + 1])
            out.append(''.join(s))
        f.write(',\n' + ',\n'.join(out))
    f.write('\n  ]\n}\n')
print(dst, k, 'copies')
