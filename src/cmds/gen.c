/*
** gpuprof gen.  (Stub: not implemented yet.)
*/
#include <stdio.h>

#include "cmds/cmds.h"

int cmd_gen(int argc, char **argv)
{
	fprintf(stderr, "gpuprof gen: not implemented yet\n");
	return GP_EXIT_FAIL;
}
