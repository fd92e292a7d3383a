#!/bin/sh
# make demo: gpuprof on a bundled example.  The example is generated here
# (gpuprof-gen: a small transformer's training steps as Nsight Systems would
# export them, with `layer:` ranges, forward/backward ops and PyProf
# markers), then read back with `report` and `summary`, and answered with
# `advise` (what to change) and `html` (the whole analysis as one page).
#   usage: scripts/demo.sh [GPUPROF] [GEN]
set -e
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
out=build/demo
trace=$out/example.nsys.sqlite
mkdir -p "$out"

heading() { printf '\n=== %s\n%s\n\n' "$1" "$2"; }

heading "1. The example trace" \
"A synthetic Nsight Systems export (nsys 2024.2 schema): 300 kernels of a
4-block encoder trained with AdamW, profiled with PyProf + emit_nvtx."
"$GEN" --format nsys -n 300 --seed 42 --streams 3 --force -o "$trace"
echo "written: $trace"
"$GPUPROF" info "$trace"

heading "2. gpuprof report: one row per kernel (the first forward and backward rows)" \
"Which layer and op launched each kernel, forward (fprop) or backward
(bprop), the shapes it was given, and how long it ran (Sil, ns).  Backward
kernels run on autograd's thread; they find their forward op, layer and
shapes through the autograd sequence number (Seq)."
"$GPUPROF" report -c idx,dir,seq,layer,op,kernel,params,sil "$trace" > "$out/report.txt"
awk 'NR <= 9 || (/bprop/ && ++b <= 8)' "$out/report.txt"
echo "(all $(($(wc -l < "$out/report.txt") - 1)) rows: $out/report.txt)"

heading "3. gpuprof summary: where the GPU and the CPU spend their time" \
"Kernels grouped by name, memory operations by kind, then CUDA API calls;
largest total first.  The numbers follow nsys stats (sample std. dev.)."
"$GPUPROF" summary --base "$trace"

heading "4. The same GPU time by layer" \
"Every kernel counted under the layer: ranges open when it was launched."
"$GPUPROF" summary --by layer --section gpu "$trace"

heading "5. gpuprof advise: what to change, ranked by the time at stake" \
"Each finding with its evidence and the change to make; the times at stake
do not overlap (time two findings share is counted once)."
"$GPUPROF" advise "$trace"

heading "6. gpuprof html: all of it on one page" \
"The trace's facts, the time split per iteration, time by layer, op and
kernel, the roofline, idle gaps and the advice, as one self-contained page."
"$GPUPROF" html --force -o "$out/report.html" "$trace"
echo "written: $out/report.html (open it in a browser: xdg-open $out/report.html)"

printf '\nMore: gpuprof --help lists the questions and the command for each;\ngpuprof COMMAND --help its options; machine-readable output with\n--format csv|tsv|json.\n'
