/*
** The gpuprof recording format: what libgpuprof writes when GPUPROF_RECORD
** is set (version 1), what `gpuprof record`'s collector writes (version 3;
** version 2 before CUDA graph nodes were recorded), and what gpuprof's
** "gpuprof-rec" reader reads (all three).
**
** Ownership: constants only.
**
** A recording is UTF-8 text, one record per line, fields separated by one
** TAB.  Text fields escape backslash, TAB, LF and CR as \\ \t \n \r.
** Integers are decimal, colours 8 hex digits (ARGB, 0 = none), times
** int64 nanoseconds of CLOCK_MONOTONIC.  Lines, in this order:
**
**   GPUPROF-REC <TAB> 1|2                    magic and version (first line)
**   meta   KEY VALUE                         pid, cmdline, clock, sync_level,
**                                            dropped_events, lib_version...
**   thread TID NAME
**   range  KIND TID END_TID START END COLOR ARG DOMAIN NAME
**          KIND is one of GPREC_KIND_NAMES; END_TID is the thread that
**          ended a start/end range (0 = TID); ARG is the iteration number
**          for "iteration", in version 2 the NVTX payload of any range
**          (integers as they are, floating point rounded), else 0;
**          DOMAIN "" = the default NVTX domain.
**   timer  cpu|gpu COUNT TOTAL_NS MIN_NS MAX_NS SUMSQ_NS2 NAME
**          SUMSQ_NS2 = sum of squared durations, for the standard deviation
**   end    NRANGES NTIMERS                   trailer: a missing or wrong
**                                            trailer means a truncated file
**
** Version 2 (the CUPTI collector) adds these lines, anywhere between the
** magic line and the end line; version 3 adds what is marked so.  Kinds
** are CUPTI's numbering, which is nvprof's: COPY_KIND
** CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP...), MEM_KIND CUpti_ActivityMemoryKind (1 pageable, 2 pinned,
** 3 device, 5 managed...), SYNC_KIND CUpti_ActivitySynchronizationType
** (1 event sync, 2 stream wait event, 3 stream sync, 4 context sync).
**
**   device  ID SMS CC_MAJOR CC_MINOR MEM_BYTES MEM_BW CLOCK_HZ L2_BYTES NAME
**           MEM_BW in bytes/s (CUPTI's kB/s x 1000), CLOCK_HZ the SM clock
**   kernel  START END DEVICE CONTEXT STREAM CORR GX GY GZ BX BY BZ REGS
**           STATIC_SMEM DYNAMIC_SMEM GRAPH_ID GRAPH_NODE NAME
**           NAME as CUPTI gives it (mangled); CORR the correlation id of
**           the launching API call (a graph's launch for graph nodes)
**   memcpy  START END DEVICE CONTEXT STREAM CORR COPY_KIND SRC_KIND
**           DST_KIND ASYNC BYTES SRC_DEVICE DST_DEVICE   (-1 = not P2P)
**           [version 3: GRAPH_ID GRAPH_NODE, 0 0 = not from a graph]
**   memset  START END DEVICE CONTEXT STREAM CORR BYTES VALUE MEM_KIND
**           [version 3: GRAPH_ID GRAPH_NODE]
**   api     runtime|driver START END TID CORR CBID RETURN
**           CBID is CUPTI's callback id (the API's name by its tables)
**   sync    START END CONTEXT STREAM CORR SYNC_KIND EVENT_ID
**           STREAM and EVENT_ID 4294967295 = not applicable
**   event   CORR EVENT_ID DEVICE CONTEXT STREAM
**           a cudaEventRecord as the GPU saw it: the stream the event
**           was recorded on (CORR: the record call's correlation id)
**   graph   START END DEVICE CONTEXT STREAM CORR GRAPH_ID
**           one CUDA graph launch (--cuda-graph-trace graph)
**   gnode   TIME TID GRAPH_ID NODE ORIGINAL NODE_TYPE     (version 3)
**           a CUDA graph node made (ORIGINAL 0: by stream capture or a
**           cudaGraphAdd*Node call) or cloned from node ORIGINAL (at
**           cudaGraphInstantiate, cudaGraphClone), at TIME on thread TID:
**           CUPTI's graph node callbacks, ids as CUPTI's kernel, memcpy
**           and memset records give them (GRAPH_NODE); NODE_TYPE is
**           CUgraphNodeType (0 kernel, 1 memcpy, 2 memset, 3 host...).
**           The ranges open on TID at the creation's TIME are the node's
**           capture context (its op, layer, shapes).
**   gexec   TIME TID EXEC_ID GRAPH_ID                     (version 3)
**           an executable graph instantiated from graph GRAPH_ID
**   overhead KIND START END                  CUPTI's own time: KIND is
**           instrumentation, buffer_flush, buffer_request, resource,
**           driver_compiler, module_loading, lazy_function_loading,
**           command_buffer_full, uvm_init or unknown
**   dropped COUNT REASON                     records lost: REASON cupti
**           (CUPTI had no buffer), untimed (no timestamps: CUPTI's device
**           buffers ran out), after_duration (--duration) or nvtx (NVTX
**           ranges lost: out of memory, nesting deeper than 4096)
**   note    TEXT                             what the collector could not
**           do ("no GPU found", "CUPTI subscriber already in use", ...)
**   chunk   NLINES                           closes a chunk: the number of
**           lines since the previous chunk line (or the magic line)
**
** The collector writes while the program runs, one chunk per write(2), so
** a program that crashes leaves every chunk written so far: a version 2
** file without an end line is read up to its last chunk line, with a note.
** A reader ignores lines whose first field it does not know (later minor
** additions); a new major layout changes the version.
*/
#ifndef GPUPROF_RECORD_FORMAT_H
#define GPUPROF_RECORD_FORMAT_H

#define GPREC_MAGIC "GPUPROF-REC\t"
#define GPREC_VERSION 1          /* what libgpuprof writes */
#define GPREC_VERSION_COLLECTOR 3 /* what the collector writes (2: before graph nodes) */

/* Range kinds, in the order of this list's indexes. */
enum gprec_kind {
	GPREC_PUSH, GPREC_STARTEND, GPREC_MARK, GPREC_TIMER,
	GPREC_ITERATION, GPREC_FORWARD, GPREC_BACKWARD, GPREC_UPDATE,
	GPREC_KIND__COUNT
};
#define GPREC_KIND_NAMES \
	{"push", "startend", "mark", "timer", "iteration", "forward", "backward", "update"}

#endif
