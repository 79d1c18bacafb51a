/*
** table.c: the table of backends (backends.def), apart from backend.c so
** that the IR library, which holds the reference interpreter, does not
** pull in the compiling backends.
*/
#include <string.h>

#include "backend.h"

static const Backend *const backends[] = {
#define BACKEND(name) &be_##name,
#include "backends.def"
#undef BACKEND
};

const Backend *
be_find(const char *name)
{
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}
