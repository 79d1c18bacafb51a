/*
** run.h: the `graft run` command (driver/run.c).
*/
#ifndef GRAFT_RUN_H
#define GRAFT_RUN_H

/* graft run ARGS: argv[0] is "run"; returns the exit status */
int graft_run(int argc, char **argv);

#endif
