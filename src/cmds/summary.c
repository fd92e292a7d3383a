/*
** gpuprof summary.  (Stub: not implemented yet.)
*/
#include <stdio.h>

#include "cmds/cmds.h"

int cmd_summary(int argc, char **argv)
{
	fprintf(stderr, "gpuprof summary: not implemented yet\n");
	return GP_EXIT_FAIL;
}
