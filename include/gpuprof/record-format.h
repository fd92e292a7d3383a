/*
** The gpuprof recording format, version 1: what libgpuprof writes when
** GPUPROF_RECORD is set and what gpuprof's "gpuprof-rec" reader reads.
**
** Ownership: constants only.
**
** A recording is UTF-8 text, one record per line, fields separated by one
** TAB.  Text fields escape backslash, TAB, LF and CR as \\ \t \n \r.
** Integers are decimal, colours 8 hex digits (ARGB, 0 = none), times
** int64 nanoseconds of CLOCK_MONOTONIC.  Lines, in this order:
**
**   GPUPROF-REC <TAB> 1                      magic and version (first line)
**   meta   KEY VALUE                         pid, cmdline, clock, sync_level,
**                                            dropped_events, lib_version...
**   thread TID NAME
**   range  KIND TID END_TID START END COLOR ARG DOMAIN NAME
**          KIND is one of GPREC_KIND_NAMES; END_TID is the thread that
**          ended a start/end range (0 = TID); ARG is the iteration number
**          for "iteration", else 0; DOMAIN "" = the default NVTX domain.
**   timer  cpu|gpu COUNT TOTAL_NS MIN_NS MAX_NS SUMSQ_NS2 NAME
**          SUMSQ_NS2 = sum of squared durations, for the standard deviation
**   end    NRANGES NTIMERS                   trailer: a missing or wrong
**                                            trailer means a truncated file
** A reader ignores lines whose first field it does not know (later minor
** additions); a new major layout changes the version.
*/
#ifndef GPUPROF_RECORD_FORMAT_H
#define GPUPROF_RECORD_FORMAT_H

#define GPREC_MAGIC "GPUPROF-REC\t"
#define GPREC_VERSION 1

/* Range kinds, in the order of this list's indexes. */
enum gprec_kind {
	GPREC_PUSH, GPREC_STARTEND, GPREC_MARK, GPREC_TIMER,
	GPREC_ITERATION, GPREC_FORWARD, GPREC_BACKWARD, GPREC_UPDATE,
	GPREC_KIND__COUNT
};
#define GPREC_KIND_NAMES \
	{"push", "startend", "mark", "timer", "iteration", "forward", "backward", "update"}

#endif
