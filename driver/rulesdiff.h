/*
** rulesdiff.h: `graft rules-diff` (rulesdiff.c).
*/
#ifndef GRAFT_RULESDIFF_H
#define GRAFT_RULESDIFF_H

/* graft rules-diff OLD NEW [options] MODEL...: argv[0] is "rules-diff".
** Returns the exit status: 0 nothing changed, 1 something did, 2 an error. */
int drv_rules_diff(int argc, char **argv);

#endif
