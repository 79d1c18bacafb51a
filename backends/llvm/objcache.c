/*
** objcache.c: the llvm backend's cache of compiled objects (objcache.h).
**
** An entry's file is a header, then the object: the magic "GRAFTOC1", the
** object's size (8 bytes, little-endian as the machine is: entries are
** this machine's) and its hash (be_objcache_key of the object, 16
** bytes).  A file whose header does not match what follows it (cut
** short, overwritten) is no entry: it is removed, and the object compiled
** again.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* utimensat, st_mtim */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ir.h"
#include "objcache.h"

enum {
	OC_MAX = 256,           /* MiB of entries before the eviction */
	OC_KEEP = 192,          /* MiB left after it */
	OC_HEAD = 32            /* bytes of an entry's header */
};

static const char magic[8] = "GRAFTOC1";

/* rotl: x rotated left by r (0 < r < 64) */
static uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* avalanche: every bit of x made to depend on every other */
static uint64_t
avalanche(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15u;      /* 2^64 / the golden ratio, odd */
	x ^= x >> 29;
	x *= 0xd6e8feb86659fd93u;
	return x ^ x >> 32;
}

/* be_objcache_key: see objcache.h.  Two lanes over 8-byte words (FNV's
** 64-bit prime in one, another odd multiplier and a rotation in the
** other), the tail and the length folded in, each lane finished by
** avalanche(); then extra the same way into both. */
void
be_objcache_key(ObjKey *k, const void *data, size_t n, const char *extra)
{
	const unsigned char *p = data;
	uint64_t a = 0xcbf29ce484222325u, b = 0x6a09e667f3bcc909u, w;
	size_t i = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (; i + 8 <= n; i += 8) {
			memcpy(&w, p + i, 8);
			a = (a ^ w) * 0x100000001b3u;
			b = rotl(b + w, 27) * 0x94d049bb133111ebu;
		}
		w = 0;
		memcpy(&w, p + i, n - i);
		a = (a ^ w ^ n) * 0x100000001b3u;
		b = rotl(b + w + n, 27) * 0x94d049bb133111ebu;
		p = (const unsigned char *)extra;
		n = strlen(extra);
		i = 0;
	}
	k->h[0] = avalanche(a ^ rotl(b, 17));
	k->h[1] = avalanche(b ^ rotl(a, 41));
}

/* be_objcache_dir: see objcache.h */
char *
be_objcache_dir(void)
{
	const char *e = getenv("GRAFT_CACHE_DIR"), *base;
	char *dir;
	size_t n;

	if (e)
		return *e ? strdup(e) : NULL;
	if ((base = getenv("XDG_CACHE_HOME")) && *base == '/') {
		n = strlen(base) + sizeof "/graft";
		dir = malloc(n);
		if (dir)
			snprintf(dir, n, "%s/graft", base);
		return dir;
	}
	if (!(base = getenv("HOME")) || *base != '/')
		return NULL;
	n = strlen(base) + sizeof "/.cache/graft";
	dir = malloc(n);
	if (dir)
		snprintf(dir, n, "%s/.cache/graft", base);
	return dir;
}

/* entry: the path of part k of n of key in dir into buf */
static void
entry(char *buf, size_t nbuf, const char *dir, const ObjKey *key, int k, int n)
{
	snprintf(buf, nbuf, "%s/%016llx%016llx.%d-%d.o", dir, (unsigned long long)key->h[0], (unsigned long long)key->h[1],
	         k, n);
}

/* be_objcache_load: see objcache.h */
int
be_objcache_load(const char *dir, const ObjKey *key, int k, int n, void **data, size_t *size)
{
	char path[4096], *buf;
	const char *what;
	size_t len;
	uint64_t nobj;
	ObjKey sum;

	entry(path, sizeof path, dir, key, k, n);
	if (ir_read_file(path, SIZE_MAX - 1, &buf, &len, &what) != 0)
		return -1;
	if (len > OC_HEAD)
		memcpy(&nobj, buf + 8, 8);
	if (len <= OC_HEAD || memcmp(buf, magic, 8) || nobj != len - OC_HEAD ||
	    (be_objcache_key(&sum, buf + OC_HEAD, len - OC_HEAD, ""), memcmp(&sum, buf + 16, 16))) {
		free(buf);
		unlink(path);
		return -1;
	}
	memmove(buf, buf + OC_HEAD, len - OC_HEAD);
	utimensat(AT_FDCWD, path, NULL, 0);     /* used now: the eviction keeps it */
	*data = buf;
	*size = len - OC_HEAD;
	return 0;
}

/* mkdirs: dir and its missing parents; 0 or -1 */
static int
mkdirs(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof path)
		return -1;
	memcpy(path, dir, n + 1);
	for (char *s = path + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(path, 0755) != 0 && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* A file of the cache, for the eviction. */
typedef struct Ent {
	char name[64];
	time_t mtime;
	long nsec;
	off_t size;
} Ent;

/* older: qsort's order of Ents, least recently used first */
static int
older(const void *x, const void *y)
{
	const Ent *a = x, *b = y;

	if (a->mtime != b->mtime)
		return a->mtime < b->mtime ? -1 : 1;
	if (a->nsec != b->nsec)
		return a->nsec < b->nsec ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* evict: past OC_MAX MiB of entries (KEY.K-N.o) in dir, removes the least
** recently used down to OC_KEEP */
static void
evict(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	Ent *e = NULL;
	size_t ne = 0, cap = 0;
	off_t total = 0;
	char path[4096];
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		if (len < 34 || len >= sizeof e->name || strcmp(de->d_name + len - 2, ".o") || de->d_name[32] != '.' ||
		    strspn(de->d_name, "0123456789abcdef") != 32)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (ne == cap) {
			Ent *m = realloc(e, (cap = cap ? 2 * cap : 64) * sizeof *e);
			if (!m)
				break;
			e = m;
		}
		memcpy(e[ne].name, de->d_name, len + 1);
		e[ne].mtime = st.st_mtim.tv_sec;
		e[ne].nsec = st.st_mtim.tv_nsec;
		e[ne].size = st.st_size;
		total += st.st_size;
		ne++;
	}
	closedir(d);
	if (total > (off_t)OC_MAX << 20) {
		qsort(e, ne, sizeof *e, older);
		for (size_t i = 0; i < ne && total > (off_t)OC_KEEP << 20; i++) {
			snprintf(path, sizeof path, "%s/%s", dir, e[i].name);
			if (unlink(path) == 0)
				total -= e[i].size;
		}
	}
	free(e);
}

/* be_objcache_store: see objcache.h */
void
be_objcache_store(const char *dir, const ObjKey *key, int k, int n, const void *data, size_t size)
{
	char path[4096];
	unsigned char head[OC_HEAD];
	uint64_t len = size;
	ObjKey sum;
	IrOut o;

	if (mkdirs(dir) != 0)
		return;
	be_objcache_key(&sum, data, size, "");
	memcpy(head, magic, 8);
	memcpy(head + 8, &len, 8);
	memcpy(head + 16, &sum, 16);
	entry(path, sizeof path, dir, key, k, n);
	if (ir_out_open(&o, path, 0) != 0)
		return;
	if (fwrite(head, 1, OC_HEAD, o.f) != OC_HEAD || fwrite(data, 1, size, o.f) != size) {
		ir_out_abort(&o);
		return;
	}
	if (ir_out_commit(&o) == 0)
		evict(dir);
}
