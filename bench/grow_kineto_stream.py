#!/usr/bin/env python3
"""Grows a real Kineto trace K times as ../shared/tools/grow_kineto.py does
(each copy shifted later by the trace's span, with fresh correlation,
External id, Sequence number and flow ids), but writes the copies as it
makes them, so that traces of many GB need no more memory than the input:
the 10 GB trace of docs/PERFORMANCE.md ("The dependency model and the
critical path").  One event a line, as PyTorch writes traces.
Usage: grow_kineto_stream.py IN.json[.gz] OUT.json K"""
import gzip, json, sys

src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(gzip.open(src) if src.endswith('.gz') else open(src))
ev = d['traceEvents']
ts = [float(e['ts']) for e in ev if isinstance(e.get('ts'), (int, float))]
span = max(ts) - min(ts) + 1000.0
def ids(e, key): return e.get('args', {}).get(key)
mx = max([int(v) for e in ev for v in (ids(e, 'correlation'), ids(e, 'External id')) if isinstance(v, int)] +
         [int(e['id']) for e in ev if isinstance(e.get('id'), int)] + [0]) + 1
n = 0
with open(dst, 'w') as f:
    head = {key: v for key, v in d.items() if key != 'traceEvents'}
    f.write('{\n' + ''.join(f'  {json.dumps(key)}: {json.dumps(v)},\n' for key, v in head.items()))
    f.write('  "traceEvents": [\n')
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
        f.write((',\n' if i else '') + ',\n'.join(lines))
        n += len(lines)
    f.write('\n  ]\n}\n')
print(dst, n, 'events')
