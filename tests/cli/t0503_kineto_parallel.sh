# tier: slow (78 s in make check before the tiers, on the busy 2-core machine)
# The Kineto reader's threads change nothing: a plain .json parsed in parts
# on several threads (GPUPROF_PARALLEL_MIN_BYTES=0 splits even small files)
# and a .json.gz inflated on a second thread give byte-identical `info` and
# `report` (all columns) output, errors and exit codes to the one-thread
# parse (GPUPROF_THREADS=1).  A part starts at an event boundary (the
# bytes between the file's first two events, docs/kineto.md "Threads") found
# near a split point (1/n, 2/n... of the file for n threads); each file
# below puts a different kind of text at those points (the comment over
# each group says which), so one thread count per file is enough unless it
# says otherwise: 3 threads, two split points, a middle part bounded by
# splits on both sides.
command -v python3 >/dev/null || skip "python3 not installed"
cols=idx,seq,altseq,tid,layer,trace,dir,sub,mod,op,kernel,params,sil,tc,device,stream,grid,block,flops,bytes,start,end,pid,corr,longname,regs,smem,latency,api,iter,gflops,gbps,intensity,ideal,eff,bound,tceligible

# same_output FILE [THREADS]: every command's stdout, stderr and exit code
# with one thread and with THREADS (default 3)
same_output() {
	for cmd in "info --format json" "report -c $cols --format csv"; do
		GPUPROF_THREADS=1 "$GPUPROF" $cmd "$1" >"$TMP/seq.out" 2>"$TMP/seq.err"
		echo "exit $?" >>"$TMP/seq.err"
		for n in ${2:-3}; do
			GPUPROF_THREADS=$n GPUPROF_PARALLEL_MIN_BYTES=0 "$GPUPROF" $cmd "$1" \
				>"$TMP/par.out" 2>"$TMP/par.err"
			echo "exit $?" >>"$TMP/par.err"
			cmp -s "$TMP/seq.out" "$TMP/par.out" || fail "$1: '$cmd' output differs with $n threads"
			cmp -s "$TMP/seq.err" "$TMP/par.err" ||
				fail "$1: '$cmd' errors differ with $n threads: $(cat "$TMP/seq.err") / $(cat "$TMP/par.err")"
		done
	done
}

run_ok "$GEN" --format kineto -n 1000 --streams 3 -o "$TMP/gen.json"
run_ok "$GEN" --format kineto -n 1000 --streams 3 -o "$TMP/gen.json.gz"
python3 - "$TMP" <<'PY' || fail "writing the variants"
import json, sys
d = sys.argv[1]
doc = json.load(open(d + "/gen.json"))
ev = doc.pop("traceEvents")
doc["distributedInfo"] = {"backend": "nccl", "rank": 0, "world_size": 2}
def write(name, events, nl="\n", indent=None):
    # libkineto's layout: one event per line, the other keys after traceEvents
    if indent is not None:
        text = json.dumps(dict(traceEvents=events, **doc), indent=indent)
    else:
        body = ("," + nl).join("  " + json.dumps(e) for e in events)
        tail = "".join("," + nl + "  " + json.dumps(k) + ": " + json.dumps(v) for k, v in doc.items())
        text = "{" + nl + '  "traceEvents": [' + nl + body + nl + "  ]" + tail + nl + "}" + nl
    open(d + "/" + name, "w", newline="").write(text)
mid = len(ev) // 2
write("tail.json", ev)
write("indent.json", ev, indent=1)
write("crlf.json", ev, nl="\r\n")
# look-alikes of a split point where 3 threads split (1/3: inside a long
# string, escaped newlines) and where 2 and 4 do (1/2: between objects of a
# nested list spanning lines)
def insert_at(t, frac, line):
    p = t.rindex("\n", 0, int((len(t) + len(line)) * frac - len(line) / 2)) + 1
    return t[:p] + line + ",\n" + t[p:]
trap = dict(ev[mid], name="},\n  {" * 4000 + ev[mid]["name"])
lst = "[" + ",\n  ".join('{"a": %d}' % i for i in range(4000)) + "]"
nested = json.dumps({"ph": "X", "cat": "cpu_op", "name": "aten::trap", "pid": 24242,
                     "tid": 24242, "ts": 1.0, "dur": 1.0,
                     "args": {"External id": 7, "list": "LIST"}}).replace('"LIST"', lst)
write("tricky.json", ev)
t = open(d + "/tricky.json").read()
t = insert_at(insert_at(t, 1 / 3, "  " + json.dumps(trap)), 1 / 2, "  " + nested)
open(d + "/tricky.json", "w").write(t)
# broken in the second half: a string ts, a raw newline in a string
bad = ev[:]
bad[len(bad) * 3 // 4] = dict(bad[len(bad) * 3 // 4], ts="12")
write("bad.json", bad)
t = open(d + "/tail.json").read()
pos = t.index('"name": "', len(t) * 3 // 4) + 9
open(d + "/rawnl.json", "w").write(t[:pos] + "a\nb" + t[pos:])
open(d + "/trunc.json", "w").write(t[:len(t) * 4 // 5])
# the bare array form (the Chrome trace array torch.autograd.profiler writes)
open(d + "/array.json", "w").write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
# json.dump's own layouts of the whole document: "}, {", "},{", indent=2
full = dict(traceEvents=ev, **doc)
json.dump(full, open(d + "/dump.json", "w"))
json.dump(full, open(d + "/dumpmin.json", "w"), separators=(",", ":"))
json.dump(full, open(d + "/dump2.json", "w"), indent=2)
# libkineto 2.x: an event's fields on lines of their own, args below
def kineto_event(e):
    a = e.get("args")
    f = ", ".join(json.dumps(k) + ": " + json.dumps(v) for k, v in e.items() if k != "args")
    s = "  {\n    " + f
    if a is not None:
        s += ",\n    \"args\": {\n      " + ", ".join(json.dumps(k) + ": " + json.dumps(v) for k, v in a.items()) + "\n    }"
    return s + "\n  }"
open(d + "/kineto2.json", "w").write("{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n" +
                                     ",\n".join(kineto_event(e) for e in ev) + "\n  ]\n}\n")
PY
# Generated variants (same events):
#   gen.json     libkineto's layout, header keys first: the ordinary split
#   tail.json    header keys after traceEvents: the last part carries the
#                metadata that must be merged back
#   indent.json  pretty-printed, one event over many lines, nested objects
#                closing on their own lines ("}" lines that are not events)
#   crlf.json    CRLF line ends: a "\r" between "," and the newline
#   array.json   the bare array form: split after a synthetic "["
#   dump.json, dumpmin.json, dump2.json  json.dump's default ("}, {"),
#                minified ("},{") and indent=2 layouts
#   kineto2.json libkineto 2.x: "  {\n    \"ph\": ..." with args on lines
#                of their own
#   gen.json.gz  gzip: inflated on a second thread (2 threads is the case)
#   tricky.json  look-alikes at the points 3 threads (1/3: "},\n  {" inside
#                a long string, escaped) and 2 threads (1/2: a nested list
#                of objects over many lines, a real "},\n  {" at depth 4)
#                pick; the part before a wrong one parses on through it
for f in gen.json tail.json indent.json crlf.json array.json dump.json dumpmin.json dump2.json kineto2.json; do
	same_output "$TMP/$f"
done
same_output "$TMP/gen.json.gz" 2
same_output "$TMP/tricky.json" "2 3"
# Broken in the second half, so the error is met by a later part and the
# file must be re-read in one pass to word it as one thread does:
#   bad.json    a string ts (a type error the parser reports)
#   rawnl.json  a raw newline inside a string (a newline that is no
#               boundary, and invalid JSON)
#   trunc.json  cut off at 4/5: the last part ends early
for f in bad.json rawnl.json trunc.json; do
	same_output "$TMP/$f"
	assert_grep "^exit 4" "$TMP/par.err"
done
# a gzip stream cut in the middle and one with damaged bytes: the inflating
# thread's error reaches the parser as in one thread
size=$(wc -c <"$TMP/gen.json.gz")
head -c $((size / 2)) "$TMP/gen.json.gz" >"$TMP/cut.json.gz"
{ head -c $((size / 2)) "$TMP/gen.json.gz"; printf 'garbage'; tail -c +$((size / 2 + 8)) "$TMP/gen.json.gz"; } \
	>"$TMP/damaged.json.gz"
same_output "$TMP/cut.json.gz" 2
assert_grep "cut.json.gz: truncated or damaged gzip stream \(unexpected end of file\)" "$TMP/par.err"
same_output "$TMP/damaged.json.gz" 2
assert_grep "^exit 4" "$TMP/par.err"
# the variants read as the original: same records and metadata
GPUPROF_THREADS=1 "$GPUPROF" report -c $cols --format csv "$TMP/gen.json" >"$TMP/gen.csv"
for f in tail.json crlf.json indent.json; do
	GPUPROF_THREADS=2 GPUPROF_PARALLEL_MIN_BYTES=0 "$GPUPROF" report -c $cols --format csv "$TMP/$f" \
		>"$TMP/v.csv" || fail "$f: report failed"
	cmp -s "$TMP/gen.csv" "$TMP/v.csv" || fail "$f: report differs from the original layout's"
done
GPUPROF_THREADS=2 GPUPROF_PARALLEL_MIN_BYTES=0 "$GPUPROF" info "$TMP/tail.json" >"$TMP/info"
assert_grep "dist_backend +nccl" "$TMP/info"
assert_grep "base_time_ns +[1-9]" "$TMP/info"

# Real traces (gunzipped to plain .json so they are split), one per layout
# the generator does not write:
#   backward_thread.json  4-space indents: "        },\n        {" boundaries
#   base.json.gz          the whole trace on one line: no boundary at all
#   gaunernst...json.gz   TraceLens: a "metadata" object before traceEvents
#   alexnet ...json.gz    a real libkineto trace; also read as .json.gz with
#                         the inflating thread
need_testdata
for f in hta/call_stack/backward_thread.json hta/trace_compare/base/base.json.gz \
	tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz \
	hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
	[ -f "$TESTDATA/$f" ] || fail "$f not in testdata"
	case $f in *.gz) gzip -dc "$TESTDATA/$f" >"$TMP/td.json" ;; *) cp "$TESTDATA/$f" "$TMP/td.json" ;; esac
	same_output "$TMP/td.json"
done
same_output "$TESTDATA/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz" 2

# Past 65,536 records the passes after the read run on two threads as well
# (the final sorts beside each other, the launch flows beside the launching
# processes, the op attribution's index beside the sweep): the same output
# as one thread, for the commands that read all of it.
run_ok "$GEN" --format kineto -n 70000 --streams 3 -o "$TMP/big.json"
for cmd in "report -c $cols --format csv" "ops --format csv" "advise" "breakdown --format csv"; do
	GPUPROF_THREADS=1 "$GPUPROF" $cmd "$TMP/big.json" >"$TMP/seq.out" 2>&1 || fail "big.json: '$cmd' failed"
	GPUPROF_THREADS=2 "$GPUPROF" $cmd "$TMP/big.json" >"$TMP/par.out" 2>&1 || fail "big.json: '$cmd' failed on 2 threads"
	cmp -s "$TMP/seq.out" "$TMP/par.out" || fail "big.json: '$cmd' output differs with 2 threads"
done
