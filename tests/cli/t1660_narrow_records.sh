# The narrowed per-event records (docs/trace-model.md, "Record sizes") keep
# every value a command shows: a recording whose kernel has CUDA's widest
# launch (grid x 2^31-1, y and z 65535, block 1024, 255 registers), a
# second launch of the same kernel with another block (a kernel def of its
# own), an NVTX push range of a named domain and colour and a start/end
# range ended on another thread.  report, export and ranges show each
# value as the recording states it.
f=$TMP/wide.gprec
printf '%s\n' \
	'GPUPROF-REC	2' \
	'meta	pid	77' \
	'api	runtime	1000	1500	4242	10	211	0' \
	'kernel	2000	7000	0	1	7	10	2147483647	65535	65535	1024	1	1	255	512	1024	0	0	_Z6vecAddPKfS0_Pfi' \
	'api	runtime	7100	7200	4242	11	211	0' \
	'kernel	7500	8000	0	1	7	11	4	1	1	256	2	1	255	512	1024	0	0	_Z6vecAddPKfS0_Pfi' \
	'chunk	5' \
	'thread	4242	main' \
	'range	push	4242	0	900	8000	ff00ff00	7	train	step' \
	'range	startend	4242	4243	1600	1700	00000000	0		load' \
	'chunk	3' \
	'end	2	0' >"$f"

run_ok "$GPUPROF" report -f csv -c kernel,grid,block,regs,smem,layer "$f"
assert_grep '^"vecAdd","2147483647,65535,65535","1024,1,1","255","1536",' "$TMP/out"
assert_grep '^"vecAdd","4,1,1","256,2,1","255","1536",' "$TMP/out"

run_ok "$GPUPROF" export -o "$TMP/wide.json" "$f"
python3 - "$TMP/wide.json" <<'PY' || fail "export lost a narrowed field"
import json, sys
ev = json.load(open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
ks = [e for e in ev if e.get("cat") == "kernel"]
assert [k["args"]["grid"] for k in ks] == [[2147483647, 65535, 65535], [4, 1, 1]], ks
assert [k["args"]["block"] for k in ks] == [[1024, 1, 1], [256, 2, 1]], ks
assert all(k["args"]["registers per thread"] == 255 for k in ks), ks
step = [e for e in ev if e.get("name") == "step"]
assert step and step[0]["args"]["domain"] == "train", step
load = [e for e in ev if e.get("name") == "load"]
assert load and "domain" not in load[0]["args"], load
PY

run_ok "$GPUPROF" ranges "$f"
assert_grep 'step' "$TMP/out"
assert_grep 'load' "$TMP/out"
