#!/bin/sh
# make demo: the main job on a bundled example (filled in by the generator work).
echo "demo: not implemented yet" >&2
exit 1
