# gpuprof-gen --format xplane: a JAX XPlane file of H100 planes, decoded here
# by a protobuf wire-format reader of its own (stdlib Python, field numbers
# of TensorFlow's xplane.proto), not by the generator's protobuf-c code.
# Checks the layout (planes, stream lines, device stats, step markers,
# kernel_details and memcpy_details strings), that every kernel and copy
# has one driver call of its correlation id that starts before it, and the
# truth file against totals recomputed from the events: kernels per GPU,
# busy time per HLO op, per collective type, exposed collective time (from
# the intervals), step time.  Then --ranks (N host files in JAX's
# plugins/profile/<run>/ layout), gzip, and the usage errors.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format xplane --iters 3 --gpus 2 -o "$TMP/a.xplane.pb"
[ -s "$TMP/a.xplane.pb.truth" ] || fail "no truth file beside the output"
run_ok "$GEN" --format xplane --iters 3 --gpus 2 -o "$TMP/a.xplane.pb.gz"
[ "$(head -c 2 "$TMP/a.xplane.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "no gzip magic"
run_ok "$GEN" --format xplane --ranks 3 --iters 2 --gpus 4 -o "$TMP/run"
cat >"$TMP/xp.py" <<'PY'
import gzip, re, struct, sys

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i

def msg(b):
    """field number -> list of values (varints as ints, fixed64 as bytes, length-delimited as bytes)"""
    out, i = {}, 0
    while i < len(b):
        k, i = varint(b, i)
        f, wt = k >> 3, k & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        out.setdefault(f, []).append(v)
    return out

def one(m, f, d=0):
    return m.get(f, [d])[-1]

def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v

def plane(b):
    p = msg(b)
    ev = {}
    for e in p.get(4, []):
        e = msg(e)
        ev[s64(one(e, 1))] = one(msg(one(e, 2, b"")), 2, b"").decode()
    st = {}
    for e in p.get(5, []):
        e = msg(e)
        st[s64(one(e, 1))] = one(msg(one(e, 2, b"")), 2, b"").decode()
    def stats(lst):
        d = {}
        for s in lst:
            s = msg(s)
            name = st[s64(one(s, 1))]
            if 2 in s: d[name] = struct.unpack("<d", s[2][-1])[0]
            elif 3 in s: d[name] = s[3][-1]
            elif 4 in s: d[name] = s64(s[4][-1])
            elif 5 in s: d[name] = s[5][-1].decode()
            elif 7 in s: d[name] = ("ref", st[s[7][-1]])
        return d
    lines = []
    for l in p.get(3, []):
        l = msg(l)
        ts = s64(one(l, 3))
        evs = []
        for e in l.get(4, []):
            e = msg(e)
            start_ps = ts * 1000 + s64(one(e, 2))
            evs.append({"name": ev[s64(one(e, 1))], "start": start_ps // 1000,
                        "end": (start_ps + s64(one(e, 3))) // 1000, "stats": stats(e.get(4, []))})
        lines.append({"id": s64(one(l, 1)), "name": one(l, 2, b"").decode(),
                      "display": one(l, 11, b"").decode(), "events": evs})
    return {"id": s64(one(p, 1)), "name": one(p, 2, b"").decode(), "lines": lines, "stats": stats(p.get(6, []))}

def space(path):
    b = open(path, "rb").read()
    if b[:2] == b"\x1f\x8b":
        b = gzip.decompress(b)
    x = msg(b)
    return [h.decode() for h in x.get(4, [])], [plane(p) for p in x.get(1, [])]

def ref(v):
    assert isinstance(v, tuple) and v[0] == "ref", v
    return v[1]

def check(path, truth, host, gpus, steps):
    hosts, planes = space(path)
    assert hosts == [host], hosts
    names = [p["name"] for p in planes]
    assert names == ["/device:GPU:%d" % g for g in range(gpus)] + ["/host:CPU", "Task Environment"], names
    hp = planes[gpus]
    calls = {}
    for l in hp["lines"]:
        assert l["display"] == l["name"]
        for e in l["events"]:
            if re.match(r"cu[A-Z]", e["name"]):
                assert l["name"] == "Host Threads/%d" % l["id"], l["name"]
                c = e["stats"]["correlation_id"]
                assert c not in calls, "correlation %d twice" % c
                calls[c] = e
    py = [l for l in hp["lines"] if l["name"] == "python"][0]["events"]
    steps_ev = [e for e in py if e["name"] == "train_step"]
    assert [e["stats"]["step_num"] for e in steps_ev] == list(range(steps))
    assert all(e["stats"]["_r"] == 1 for e in steps_ev)
    step_ns = {e["end"] - e["start"] for e in steps_ev}
    assert step_ns == {truth["step_ns"]}, (step_ns, truth["step_ns"])
    assert sum(1 for l in hp["lines"] if l["name"].startswith("py_xla_execute/")) == gpus
    for g in range(gpus):
        p = planes[g]
        assert p["id"] == g
        st = p["stats"]
        assert st["device_vendor"] == "Nvidia" and st["core_count"] == 132, st
        assert (st["compute_cap_major"], st["compute_cap_minor"]) == (9, 0), st
        assert st["gpu_device_name"] == "NVIDIA H100 80GB HBM3"
        lines = {l["name"]: l["events"] for l in p["lines"]}
        assert set(lines) == {"Stream #13(Kernel)", "Stream #14(MemcpyH2D,MemcpyD2H)", "Stream #22(Kernel)"}, set(lines)
        kern = lines["Stream #13(Kernel)"] + lines["Stream #22(Kernel)"]
        copies = lines["Stream #14(MemcpyH2D,MemcpyD2H)"]
        for e in kern + copies:
            c = calls.pop(e["stats"]["correlation_id"])
            assert c["start"] < e["start"] and c["stats"]["device_id"] == g, (c, e)
            assert e["stats"]["context_id"] == c["stats"]["context_id"] == "$$%d" % (g + 1)
        for e in copies:
            assert re.fullmatch(r"kind_src:\w+ kind_dst:\w+ size:\d+ dest:0 async:1", ref(e["stats"]["memcpy_details"]))
        assert len(copies) == truth["memcpy_per_gpu"]
        assert sum(int(ref(e["stats"]["memcpy_details"]).split("size:")[1].split()[0]) for e in copies) == truth["memcpy_bytes_per_gpu"]
        assert len(kern) == truth["kernels_per_gpu"] and truth["kernels_per_gpu"] == 29 * steps
        ops, coll, comp = {}, {}, []
        for e in kern:
            s = e["stats"]
            assert re.fullmatch(r"regs:\d+ static_shared:\d+ dynamic_shared:\d+ grid:\d+,\d+,\d+ block:\d+,\d+,\d+ occ_pct:[0-9.]+",
                                ref(s["kernel_details"])), s["kernel_details"]
            assert ref(s["tf_op"]) == "XlaModule:" and ref(s["hlo_module"]) == "jit_train_step" and s["program_id"] == 42
            assert ref(s["name"]).startswith("jit(train_step)/")
            op = ref(s["hlo_op"])
            n, ns = ops.get(op, (0, 0))
            ops[op] = (n + 1, ns + e["end"] - e["start"])
            if e["name"].startswith("ncclDevKernel_"):
                kind = re.sub(r"(-start|-done)?(\.\d+)?$", "", op)
                n, ns = coll.get(kind, (0, 0))
                coll[kind] = (n + 1, ns + e["end"] - e["start"])
            else:
                comp.append((e["start"], e["end"]))
        assert ops == truth["op"], (ops, truth["op"])
        assert coll == truth["collective"], (coll, truth["collective"])
        assert sum(ns for _, ns in coll.values()) == truth["collective_ns_per_gpu"]
        # exposed: collective time during which no compute kernel runs
        exposed = 0
        for e in lines["Stream #22(Kernel)"]:
            t, covered = e["start"], 0
            for a, b in comp:
                lo, hi = max(a, e["start"]), min(b, e["end"])
                covered += max(0, hi - lo)
            exposed += e["end"] - e["start"] - covered
        assert exposed == truth["collective_exposed_ns_per_gpu"], (exposed, truth)
        assert 0 < exposed < truth["collective_ns_per_gpu"]
    assert not calls, "driver calls without their device event: %d" % len(calls)
    env = planes[gpus + 1]["stats"]
    assert env["profile_stop_time"] > env["profile_start_time"] > 1.7e18

def truth(path):
    t = {"op": {}, "collective": {}}
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if f[0] == "op":
            t["op"][f[1]] = (int(f[3]), int(f[4]))
        elif f[0] == "collective":
            if int(f[2]):
                t["collective"][f[1]] = (int(f[2]), int(f[3]))
        else:
            t[f[0]] = int(f[1]) if re.fullmatch(r"-?\d+", f[1]) else f[1]
    return t

mode = sys.argv[1]
if mode == "one":
    t = truth(sys.argv[3])
    assert t["hosts"] == 1 and t["gpus_per_host"] == 2 and t["steps"] == 3
    check(sys.argv[2], t, "host0", 2, 3)
else:
    t = truth(sys.argv[2] + "/xplane.truth")
    assert t["hosts"] == 3 and t["gpus_per_host"] == 4 and t["steps"] == 2
    for h in range(3):
        check("%s/plugins/profile/2026_01_01_00_00_00/host%d.xplane.pb" % (sys.argv[2], h), t, "host%d" % h, 4, 2)
PY
python3 "$TMP/xp.py" one "$TMP/a.xplane.pb" "$TMP/a.xplane.pb.truth" || fail "one host's file"
python3 "$TMP/xp.py" one "$TMP/a.xplane.pb.gz" "$TMP/a.xplane.pb.truth" || fail "the gzip file"
gzip -dc "$TMP/a.xplane.pb.gz" | cmp -s - "$TMP/a.xplane.pb" || fail "gzip and plain differ"
python3 "$TMP/xp.py" ranks "$TMP/run" || fail "--ranks 3"
[ "$(ls "$TMP/run/plugins/profile/2026_01_01_00_00_00" | wc -l)" = 3 ] || fail "not 3 host files"
# the same seedless program: a second run writes the same bytes
run_ok "$GEN" --format xplane --iters 3 --gpus 2 -o "$TMP/b.xplane.pb"
cmp -s "$TMP/a.xplane.pb" "$TMP/b.xplane.pb" || fail "two runs differ"
expect_exit 3 "$GEN" --format xplane -o "$TMP/a.xplane.pb"
assert_grep "already exists" "$TMP/err"
expect_exit 2 "$GEN" --format xplane -n 10 -o "$TMP/c.xplane.pb"
expect_exit 2 "$GEN" --format xplane --gpus 9 -o "$TMP/c.xplane.pb"
expect_exit 2 "$GEN" --format xplane --ranks 2 --slow-rank 1 -o "$TMP/d"
expect_exit 2 "$GEN" --format kineto --gpus 2 -n 10 -o "$TMP/c.json"
true
