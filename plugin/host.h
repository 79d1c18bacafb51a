/*
** host.h: graft's side of plugins (plugin.c), for api/ and driver/: loading
** one, registering one linked in, and what loaded plugins registered.  The
** plugin's side is the public plugin.h.
*/
#ifndef GRAFT_HOST_H
#define GRAFT_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plugin.h"
#include "rewrite.h"

/* plugin_load: loads the plugin at path (a name without '/' is looked up
** as dlopen() does).  Returns 0, or 1 with a message in err: it does not
** load, has no entry point, was built for another ABI (both named), is
** loaded already, or its init() fails. */
int plugin_load(const char *path, char *err, size_t nerr);

/* plugin_peek_abi: the ABI the plugin file at path was built for (the
** first field of its entry point) into *abi, read from the file without
** loading it (peek.c); 0, or -1 when the file is no ELF shared object of
** this machine's byte order that defines the entry point, or -2 when it
** is one whose program headers or loadable segments lie past its end. */
int plugin_peek_abi(const char *path, uint32_t *abi);

/* plugin_register: registers what pl brings, as loading it would, for a
** plugin linked into the program (where names it in messages).  Returns
** 0, or 1 with a message in err. */
int plugin_register(const graft_plugin_info *pl, const char *where, char *err, size_t nerr);

/* plugin_matcher: the ruleset or target table called name that a loaded
** plugin registered, or NULL; plugin_matchers: all *n of them, in load
** order. */
const Ruleset *plugin_matcher(const char *name);
const Ruleset *const *plugin_matchers(uint32_t *n);

/* plugin_list: the plugins loaded, "name version (path)" a line, to f. */
void plugin_list(FILE *f);

#endif
