/*
** gpuprof advise.  (Stub: not implemented yet.)
*/
#include <stdio.h>

#include "cmds/cmds.h"

int cmd_advise(int argc, char **argv)
{
	fprintf(stderr, "gpuprof advise: not implemented yet\n");
	return GP_EXIT_FAIL;
}
