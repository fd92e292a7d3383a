#!/usr/bin/env python3
"""Grow a real Kineto trace to many GB (bench/huge.sh): the same copies as
../shared/tools/grow_kineto.py (events repeated K times, each copy shifted later by the
trace's span, fresh correlation, External id, Sequence number and flow ids; metadata
events once), but written one event a line as each copy is made instead of building
the whole list first, so memory stays that of the input.
Usage: grow_stream.py IN.json[.gz] OUT.json K"""
import gzip, json, sys

src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(gzip.open(src) if src.endswith('.gz') else open(src))
ev = d.pop('traceEvents')
ts = [float(e['ts']) for e in ev if isinstance(e.get('ts'), (int, float))]
span = max(ts) - min(ts) + 1000.0
ids = lambda e, key: e.get('args', {}).get(key)
mx = max([int(v) for e in ev for v in (ids(e, 'correlation'), ids(e, 'External id')) if isinstance(v, int)] +
         [int(e['id']) for e in ev if isinstance(e.get('id'), int)] + [0]) + 1
with open(dst, 'w') as f:
    f.write('{\n' + ''.join(f'  {json.dumps(key)}: {json.dumps(v)},\n' for key, v in d.items()))
    f.write('  "traceEvents": [\n')
    first = True
    for i in range(k):
        lines = []
        for e in ev:
            if i and e.get('ph') == 'M':
                continue
            c = dict(e)
            if i:
                if isinstance(c.get('ts'), (int, float)): c['ts'] = c['ts'] + i * span
                if isinstance(c.get('id'), int): c['id'] = c['id'] + i * mx
                if 'args' in c:
                    a = dict(c['args'])
                    for key in ('correlation', 'External id', 'Sequence number'):
                        if isinstance(a.get(key), int): a[key] = a[key] + i * mx
                    c['args'] = a
            lines.append('  ' + json.dumps(c))
        f.write(('' if first else ',\n') + ',\n'.join(lines))
        first = False
    f.write('\n  ]\n}\n')
print(dst, k, 'copies')
