/*
** run.c: the `graft run` command.  (Being written: see issue 5.)
*/
#include <stdio.h>

#include "run.h"

int
graft_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "graft: error: 'graft run' is not written yet\n");
	return 2;
}
