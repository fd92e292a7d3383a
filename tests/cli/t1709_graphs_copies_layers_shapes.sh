# Graph replays in the ops table and the layer groups (docs/correlation.md,
# "Graph replays"; docs/ops-table.md).
# 1. Replayed copies and memsets matched to a Kineto capture take the op of
#    their captured launch: gpuprof-gen --graphs amd's MoE graph replays a
#    copy (aten::copy_) and a memset (aten::zero_) four times; ops' Self
#    GPU of aten::zero_ is then all the memset time, aten::copy_'s the
#    copies' plus the eager copy_ kernels' (summary's rows).  In the cuda
#    variant the MoE replay cannot be mapped (two streams, no names): no
#    copy is given an op, the memset time stays with the step.
# 2. summary --by layer names the replayed kernels whose layer is unknown
#    because they were replayed 'graph replay (layer unknown)': as many as
#    the truth's replayed kernels without layer; eager kernels without
#    layer stay '(none)'.
# 3. ops --group-by shape and stack: replayed kernels in the rows of the op
#    with the shapes (stack) it had at their capture.  The H100 files
#    (tests/data/gpu): the replays' (op, shapes) rows with GPU time are the
#    eager run's, with a capture trace and with the capture in the same
#    file (where the two eager fill_ add theirs); the vLLM pair: every
#    replayed row's shapes and innermost stack frame are those of an op of
#    that name in the capture trace's raw JSON, and grouping keeps each
#    op's GPU time (the rows of a name add up to its row by name).
command -v python3 >/dev/null || skip "python3 not installed"
for m in amd cuda; do
	mkdir -p "$TMP/$m"
	r=$TMP/$m/replay.pt.trace.json
	run_ok "$GEN" --format kineto --graphs $m -o "$r"
	run_ok "$GPUPROF" summary -s gpu -f csv --no-header "$r"
	copies=$(grep 'CUDA memcpy' "$TMP/out" | cut -d, -f3 | tr -d '"')
	sets=$(grep 'CUDA memset' "$TMP/out" | cut -d, -f3 | tr -d '"')
	run_ok "$GPUPROF" summary -s gpu --by op -f csv --no-header "$r"
	eager=$(grep '"copy_"$' "$TMP/out" | cut -d, -f3 | tr -d '"')
	run_ok "$GPUPROF" ops -f csv --no-header "$r"
	got_copy=$(grep '^"aten::copy_"' "$TMP/out" | cut -d, -f7 | tr -d '"')
	got_set=$(grep '^"aten::zero_"' "$TMP/out" | cut -d, -f7 | tr -d '"')
	if [ $m = amd ]; then
		assert_eq "$got_copy $got_set" "$((copies + eager)) $sets" "$m: replayed copies and memsets under their captured ops"
	else
		assert_eq "$got_copy $got_set" "$eager " "$m: unmapped replay: copies and memsets keep no op"
	fi
	run_ok "$GPUPROF" summary -s gpu --by layer -f csv --no-header "$r"
	want=$(awk -F'\t' '$5 == "-"' "$r.truth" | wc -l | tr -d ' ')
	assert_eq "$(grep 'layer unknown' "$TMP/out" | cut -d, -f4,10)" "\"$want\",\"graph replay (layer unknown)\"" \
		"$m: replayed kernels without layer"
	assert_eq "$(grep '(none)' "$TMP/out" | cut -d, -f4)" '"4"' "$m: the eager kernels without layer"
done

# 3. H100: (op, shapes) rows with GPU time
D=tests/data/gpu
for f in graph-eager-kineto graph-replay-only-kineto graph-capture-kineto graph-replay-kineto; do
	gzip -dc "$D/$f.json.gz" >"$TMP/$f.json" || fail "gunzip $f"
done
rows() { awk -F'\t' 'NR > 1 && $9 > 0 { print $1 "\t" $2 }' | sort; }
"$GPUPROF" ops -g shape -f tsv "$TMP/graph-eager-kineto.json" | rows >"$TMP/eager.txt"
[ "$(wc -l <"$TMP/eager.txt")" = 5 ] || fail "eager (op, shapes) rows: $(cat "$TMP/eager.txt")"
"$GPUPROF" ops -g shape -f tsv --capture "$TMP/graph-capture-kineto.json" "$TMP/graph-replay-only-kineto.json" |
	rows >"$TMP/capture.txt"
cmp -s "$TMP/eager.txt" "$TMP/capture.txt" || fail "replays with a capture trace: $(diff "$TMP/eager.txt" "$TMP/capture.txt")"
"$GPUPROF" ops -g shape -f tsv "$TMP/graph-replay-kineto.json" | rows | grep -v '^aten::fill_' >"$TMP/self.txt"
cmp -s "$TMP/eager.txt" "$TMP/self.txt" || fail "replays with their capture inside: $(diff "$TMP/eager.txt" "$TMP/self.txt")"

need_testdata
[ -d "$TESTDATA/tracelens" ] || skip "$TESTDATA/tracelens not found"
P=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise
"$GPUPROF" ops -f tsv "$P/graph_execution.json.gz" >"$TMP/name.tsv" || fail "ops"
"$GPUPROF" ops -g shape -f tsv "$P/graph_execution.json.gz" >"$TMP/shape.tsv" || fail "ops -g shape"
"$GPUPROF" ops -g stack --stack-depth 1 -f tsv "$P/graph_execution.json.gz" >"$TMP/stack.tsv" || fail "ops -g stack"
python3 - "$TMP/name.tsv" "$TMP/shape.tsv" "$TMP/stack.tsv" "$P"/capture_traces/*.json.gz <<'PY' || fail "vLLM: shapes and stacks of the replayed rows"
import csv, gzip, json, sys
def rows(p):
    return list(csv.DictReader(open(p), delimiter="\t"))
by_name, by_shape, by_stack = (rows(p) for p in sys.argv[1:4])
ev = json.load(gzip.open(sys.argv[4]))["traceEvents"]
ops = [e for e in ev if e.get("cat") == "cpu_op" and e.get("ph") == "X"]
py = [e for e in ev if e.get("cat") == "python_function" and e.get("ph") == "X"]
shapes, frames = {}, {}
for o in ops:
    d = o.get("args", {}).get("Input Dims")
    if d is not None:
        shapes.setdefault(o["name"], set()).add(json.dumps(d, separators=(",", ":")))
# Each op's innermost Python frame: of the python_function events of its
# thread that contain it, the one that starts last (the shorter on a tie).
# One sweep per thread in start order: Python events first at a tie, the
# longer first, so the innermost is nearer the top of the stack.
by_thread = {}
for p in py:
    by_thread.setdefault((p["pid"], p["tid"]), []).append((p["ts"], 0, -p["dur"], p))
for o in ops:
    by_thread.setdefault((o["pid"], o["tid"]), []).append((o["ts"], 1, -o.get("dur", 0), o))
for evs in by_thread.values():
    evs.sort(key=lambda x: x[:3])
    stack = []
    for ts, kind, _, e in evs:
        while stack and stack[-1]["ts"] + stack[-1]["dur"] < ts:
            stack.pop()
        if kind == 0:
            stack.append(e)
            continue
        end = ts + e.get("dur", 0)
        inner = next((p for p in reversed(stack) if p["ts"] <= ts and end <= p["ts"] + p["dur"]), None)
        if inner:
            frames.setdefault(e["name"], set()).add(inner["name"])
gpu = lambda r: int(r["Self GPU (ns)"])
replayed = lambda rs: [r for r in rs if gpu(r) > 0 and r["# of Calls"] == "0"]
rs, rk = replayed(by_shape), replayed(by_stack)
assert len(rs) >= 10 and len(rk) >= 10, (len(rs), len(rk))
for r in rs:
    assert r["Input Shapes"] in shapes.get(r["Name"], ()), ("shapes", r["Name"], r["Input Shapes"])
for r in rk:
    assert r["Source Location"] in frames.get(r["Name"], ()), ("stack", r["Name"], r["Source Location"])
# grouping moves no time between ops
for rows_ in (by_shape, by_stack):
    tot = {}
    for r in rows_:
        tot[r["Name"]] = tot.get(r["Name"], 0) + gpu(r)
    for n, v in tot.items():
        assert v == sum(gpu(x) for x in by_name if x["Name"] == n), ("GPU time moved", n)
PY
