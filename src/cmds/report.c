/*
** gpuprof report.  (Stub: not implemented yet.)
*/
#include <stdio.h>

#include "cmds/cmds.h"

int cmd_report(int argc, char **argv)
{
	fprintf(stderr, "gpuprof report: not implemented yet\n");
	return GP_EXIT_FAIL;
}
