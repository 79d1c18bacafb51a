/*
** run.h: `graft run` (driver/run.c), which runs the pipeline's module
** (pipeline.h) on a backend.
*/
#ifndef GRAFT_RUN_H
#define GRAFT_RUN_H

/* graft run ARGS: argv[0] is "run"; returns the exit status */
int drv_run(int argc, char **argv);

#endif
