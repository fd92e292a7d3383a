#!/bin/sh
# Called by make before the first build: checks that every header and tool the
# build needs is present; installs them through install-deps.sh when we are
# root, otherwise prints the exact apt-get line and fails.
CC=${CC:-cc}
need=""
for h in sqlite3.h zlib.h yajl/yajl_parse.h libiberty/demangle.h protobuf-c/protobuf-c.h; do
	printf '#include <%s>\nint main(void){return 0;}\n' "$h" | $CC -x c -o /dev/null - 2>/dev/null || need="$need $h"
done
printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' | $CC -x c -o /dev/null - 2>/dev/null || need="$need cmocka.h"
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3(1)"
command -v protoc-c >/dev/null 2>&1 || need="$need protoc-c(1)"
[ -z "$need" ] && exit 0
dir=$(dirname "$0")
if [ "$(id -u)" = 0 ]; then
	echo "check-deps: missing$need; installing" >&2
	"$dir/install-deps.sh" || exit 1
	exit 0
fi
echo "check-deps: missing$need. Install them with:" >&2
echo "  sudo $("$dir/install-deps.sh" --print)" >&2
exit 1
