# libgpuprof's files call each other along a DAG (drawn in lib/internal.h):
# the cross-file references, read from the objects' symbol tables, have no
# cycle, and core.c and nvtx.c reference no other file.
objs=$BUILD/obj/lib
[ -f "$objs/core.o" ] || fail "no $objs/core.o: build the library first"
export LC_ALL=C
for o in "$objs"/*.o; do
	nm -g --defined-only "$o" | awk -v f="$(basename "$o" .o)" 'NF == 3 { print $3, f }'
done | sort > "$TMP/defs"
for o in "$objs"/*.o; do
	nm -u "$o" | awk '{ print $NF }' | sort | join - "$TMP/defs" |
		awk -v f="$(basename "$o" .o)" '{ print f, $2 }'
done | sort -u > "$TMP/edges"
cat "$TMP/edges"
# the graph is not trivially empty: record.c uses the core
grep -qx 'record core' "$TMP/edges" || fail "no edge record -> core: is the symbol reading broken?"
assert_no_grep '^(core|nvtx) ' "$TMP/edges"
tsort "$TMP/edges" > /dev/null 2> "$TMP/loop" || { cat "$TMP/loop" >&2; fail "the calls between lib/ files have a cycle"; }
