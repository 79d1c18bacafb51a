/*
** objcache.h: the llvm backend's cache of compiled objects, keyed by what
** they were compiled from, so that an unchanged model prepares again in
** milliseconds (its LLVM module is still built and hashed).
**
** The key hashes the module's unoptimized bitcode with everything else
** that decides the objects: the constants kept out of the module (the
** llvm backend's blobs), LLVM's version, the machine (triple, CPU,
** features), the optimization level and the number of parts it is
** compiled in.  An entry is one file per part, DIR/KEY.K-N.o, written
** under a temporary name and renamed, so that a reader sees a whole file
** or none.  The directory is $GRAFT_CACHE_DIR, else $XDG_CACHE_HOME/graft,
** else $HOME/.cache/graft; GRAFT_CACHE_DIR set but empty turns the cache
** off.  Past 256 MiB of entries the least recently used go, down to 192.
*/
#ifndef GRAFT_OBJCACHE_H
#define GRAFT_OBJCACHE_H

#include <stddef.h>
#include <stdint.h>

/* A cache key: 128 bits, printed as 32 hex digits. */
typedef struct ObjKey {
	uint64_t h[2];
} ObjKey;

/* be_objcache_key: k for the n bytes of data and the string extra */
void be_objcache_key(ObjKey *k, const void *data, size_t n, const char *extra);

/* be_objcache_dir: the cache directory (malloc'd), or NULL when the cache
** is off or no directory is known */
char *be_objcache_dir(void);

/* be_objcache_load: part k of n of entry key from dir into *data (malloc'd,
** *size bytes), its use recorded for the eviction; 0, or -1 when there
** is none (a damaged file is removed) */
int be_objcache_load(const char *dir, const ObjKey *key, int k, int n, void **data, size_t *size);

/* be_objcache_store: writes part k of n of entry key (size bytes of data)
** into dir, creating it, then evicts the least recently used entries
** past the size limit; failures leave the cache as it was (it is only a
** cache) */
void be_objcache_store(const char *dir, const ObjKey *key, int k, int n, const void *data, size_t size);

#endif
