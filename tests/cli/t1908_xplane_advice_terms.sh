# advise speaks the traced framework's terms (docs/cli.md, "advise"): on a
# JAX XPlane profile (gpuprof-gen --format xplane: launch-bound gaps and
# TraceMe annotations by construction) no finding names a PyTorch API, and
# the launch, annotation and untraced findings say XLA's changes (jit
# regions, command buffers, TraceAnnotation); one host and a two-host log
# directory alike.  A Kineto trace of the same kinds still gets PyTorch's
# (the goldens of t0800 hold the rest of its wording).
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format xplane --iters 3 -o "$TMP/a.xplane.pb"
run_ok "$GEN" --format xplane --ranks 2 --iters 3 -o "$TMP/log"
run_ok "$GEN" --format kineto -n 400 --seed 3 -o "$TMP/k.json"
cat >"$TMP/terms.py" <<'PY'
import json, sys
# what each finding's change must say, and what no XLA finding may
xla = {"launch": ["larger jit regions", "--xla_gpu_enable_command_buffer", "CUDA graphs"],
       "annotation": ["jax.profiler.TraceAnnotation"],
       "untraced": ["jax.profiler.TraceAnnotation", "python_tracer_level"],
       "tiny-kernels": ["--xla_gpu_enable_command_buffer"],
       "host-sync": ["jax.block_until_ready"]}
torch = {"launch": ["torch.compile", "CUDA graphs"], "annotation": ["record_function"],
         "untraced": ["torch.profiler"]}
banned = ["torch", "DataLoader", "record_function", "PYTORCH_", "DDP", "FSDP",
          "non_blocking", "emit_nvtx", ".item()"]
mode, path, need = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
seen = set()
for line in open(path):
    f = json.loads(line)
    k = f["kind"]
    seen.add(k)
    text = " ".join(str(f.get(x, "")) for x in ("title", "evidence", "change"))
    for phrase in (xla if mode == "xla" else torch).get(k, []):
        if phrase not in f["change"]:
            sys.exit(f"{mode} finding {k}: change lacks '{phrase}': {f['change']}")
    if mode == "xla":
        for w in banned:
            if w in text:
                sys.exit(f"xla finding {k} says '{w}': {text}")
for k in need:
    if k not in seen:
        sys.exit(f"no {k} finding (seen: {sorted(seen)})")
PY
run_ok "$GPUPROF" advise -f json "$TMP/a.xplane.pb"
python3 "$TMP/terms.py" xla "$TMP/out" launch,annotation,untraced || fail "one host's advice"
run_ok "$GPUPROF" advise -f json "$TMP/log"
python3 "$TMP/terms.py" xla "$TMP/out" launch,annotation || fail "the log directory's advice"
# the text output too, with the job's own lines
run_ok "$GPUPROF" advise "$TMP/log"
assert_no_grep "torch|DataLoader|record_function|PYTORCH_|FSDP|non_blocking|\.item\(\)" "$TMP/out"
assert_grep "larger jit regions" "$TMP/out"
# Kineto: PyTorch's terms
run_ok "$GPUPROF" advise -f json "$TMP/k.json"
python3 "$TMP/terms.py" torch "$TMP/out" launch || fail "the Kineto trace's advice"
