/*
** version.h: which graft this is (made by configure from version.h.in).
*/
#ifndef GRAFT_VERSION_H
#define GRAFT_VERSION_H

#define GRAFT_VERSION_MAJOR 0
#define GRAFT_VERSION_MINOR 1
#define GRAFT_VERSION_PATCH 0
#define GRAFT_VERSION_STRING "0.1.0"
/* one number that grows with each release: 10000 * major + 100 * minor + patch */
#define GRAFT_VERSION (GRAFT_VERSION_MAJOR * 10000 + GRAFT_VERSION_MINOR * 100 + GRAFT_VERSION_PATCH)

#endif
