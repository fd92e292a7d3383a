# libgpuprof(3) documents every function libgpuprof.so exports: each has a
# declaration in SYNOPSIS and is described after it (".BR name ()"), and
# SYNOPSIS declares no function the library does not export.
export LC_ALL=C
man=man/libgpuprof.3
so=$BUILD/libgpuprof.so
[ -f "$so" ] || fail "no $so: build the library first"
nm -D --defined-only "$so" | awk '$2 == "T" && $3 ~ /^gp_/ { sub(/@.*/, "", $3); print $3 }' |
	sort > "$TMP/exported"
# the symbols read are the ones the version script exports (so this test
# cannot pass on an empty list)
sed -n 's/^[[:space:]]*\(gp_[a-z0-9_]*\);$/\1/p' lib/libgpuprof.map | sort > "$TMP/map"
[ -s "$TMP/map" ] || fail "no gp_ symbol in lib/libgpuprof.map"
assert_eq "$(cat "$TMP/exported")" "$(cat "$TMP/map")" "exported functions vs lib/libgpuprof.map"
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" > "$TMP/synopsis"
sed -n '/^\.SH DESCRIPTION/,$p' "$man" > "$TMP/body"
missing=""
while read -r f; do
	grep -Eq "[ *]$f\(" "$TMP/synopsis" || missing="$missing $f(synopsis)"
	grep -Eq "^\.BR $f \(" "$TMP/body" || missing="$missing $f(description)"
done < "$TMP/exported"
[ -z "$missing" ] || fail "exported but not documented in $man:$missing"
grep -Eo '[ *]gp_[a-z0-9_]+\(' "$TMP/synopsis" | tr -d ' *(' | sort -u > "$TMP/declared"
stale=$(comm -13 "$TMP/exported" "$TMP/declared")
[ -z "$stale" ] || fail "declared in $man but not exported: $stale"
