/*
** file.c: reading whole files, and writing output files without ever
** replacing what the user named with something else.
**
** An output path is one of:
**  - "-": standard output, written directly;
**  - an existing device, FIFO or socket (after following symbolic links):
**    opened and written directly, as a shell's redirection would, never
**    replaced (as root, `graft -o /dev/null` used to replace /dev/null
**    with a regular file);
**  - an existing regular file (after following symbolic links): written
**    under a temporary name in the final file's own directory, given that
**    file's mode and owner, then renamed over it, so that the file is
**    whole or untouched and a symbolic link still points at it.  Where
**    renaming would lose something (the file has other hard links, its
**    owner cannot be kept, its directory is not writable), the whole
**    output is first written to a temporary file, then copied into the
**    file in place;
**  - nothing yet (a dangling symbolic link is followed to where it
**    points): a temporary file in the directory renamed into place,
**    created with mode 0666 less the umask.
** A directory is refused.  Nothing is ever written through a temporary
** name that already exists (O_EXCL), and a failed or aborted output
** leaves no temporary file and the original untouched (but for a device
** or FIFO, which has no "untouched").
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir.h"

/* ---------------------------------------------------------------- reading */

int
ir_read_file_in(Arena *a, const char *path, size_t max, char **buf, size_t *len, const char **what)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *b;
	int r;

	*buf = NULL;
	*len = 0;
	*what = "open";
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size <= max) {
		size_t n = (size_t)st.st_size;
		b = ir_arena_raw(a, n + 1);
		if (fread(b, 1, n, f) == n && getc(f) == EOF && !ferror(f)) {
			fclose(f);
			b[n] = 0;
			*buf = b;
			*len = n;
			return 0;
		}
		ir_arena_giveback(a, b, n + 1);
	}
	/* not regular, or it changed while read: as a stream */
	fclose(f);
	if ((r = ir_read_file(path, max, &b, len, what)) != 0)
		return r;
	*buf = ir_arena_raw(a, *len + 1);
	memcpy(*buf, b, *len + 1);
	free(b);
	return 0;
}

int
ir_read_file(const char *path, size_t max, char **buf, size_t *len, const char **what)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0, n = 0;
	int err;

	*buf = NULL;
	*len = 0;
	*what = "open";
	if (!f)
		return -1;
	for (;;) {
		size_t got;
		if (n == cap) {
			if (cap > max) {
				fclose(f);
				free(b);
				return -2;
			}
			cap = cap ? cap * 2 : 65536;
			b = ir_xrealloc(b, cap + 1);
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f) || n > max) {
		err = errno;
		fclose(f);
		free(b);
		*what = "read";
		errno = err;
		return n > max ? -2 : -1;
	}
	fclose(f);
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/* ---------------------------------------------------------------- writing */

enum {
	OUT_STDOUT = 1,     /* f is stdout */
	OUT_DIRECT,         /* f is the device or FIFO itself */
	OUT_RENAME,         /* f is tmp, renamed over target */
	OUT_COPY,           /* f is tmp (or an unnamed file), copied into target */
};

/* oerr: records what failed in o->msg; returns -1 */
static int
oerr(IrOut *o, int err, const char *fmt, const char *arg)
{
	char what[200];

	snprintf(what, sizeof what, fmt, arg);
	snprintf(o->msg, sizeof o->msg, "%s%s%s", what, err ? ": " : "", err ? strerror(err) : "");
	errno = err;
	return -1;
}

/* resolve: the file a symbolic link at path finally names, followed link
** by link (at most 40, as the kernel does), in a fresh string; NULL with
** errno set if path is not a link that leads anywhere (ELOOP for a loop) */
static char *
resolve(const char *path)
{
	char *cur = NULL, link[PATH_MAX];
	const char *p = path;

	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		ssize_t n;
		if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur ? cur : (errno = EINVAL, NULL);
		if ((n = readlink(p, link, sizeof link - 1)) < 0) {
			free(cur);
			return NULL;
		}
		link[n] = 0;
		if (link[0] == '/' || !strchr(p, '/')) {
			free(cur);
			cur = strdup(link);
		} else {
			/* relative to the directory holding the link */
			size_t dl = (size_t)(strrchr(p, '/') - p) + 1;
			char *next = ir_xmalloc(dl + (size_t)n + 1);
			memcpy(next, p, dl);
			memcpy(next + dl, link, (size_t)n + 1);
			free(cur);
			cur = next;
		}
		if (!cur)
			ir_die("out of memory");
		p = cur;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* maketmp: a new temporary file next to target (target.tmpPID.K),
** created exclusively, open for reading back too; its name in o->tmp.  Returns the descriptor, or -1
** with errno set. */
static int
maketmp(IrOut *o)
{
	size_t len = strlen(o->target) + 48;
	int fd = -1;

	o->tmp = ir_xmalloc(len);
	for (unsigned k = 0; fd < 0 && k < 1000; k++) {
		snprintf(o->tmp, len, "%s.tmp%ld.%u", o->target, (long)getpid(), k);
		fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int err = errno;
		free(o->tmp);
		o->tmp = NULL;
		errno = err;
	}
	return fd;
}

/* openfail: ir_out_open's failure: records it, lets go of what o holds */
static int
openfail(IrOut *o, int err, const char *fmt, const char *arg)
{
	oerr(o, err, fmt, arg);
	ir_out_abort(o);
	errno = err;
	return -1;
}

/* ir_out_open: see ir.h */
int
ir_out_open(IrOut *o, const char *path, unsigned flags)
{
	struct stat st;
	int fd = -1, exists;

	memset(o, 0, sizeof *o);
	o->path = path;
	o->flags = flags;
	if (strcmp(path, "-") == 0) {
		o->kind = OUT_STDOUT;
		o->f = stdout;
		return 0;
	}
	exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return oerr(o, errno, "%s", "cannot write it");
	if (exists && S_ISDIR(st.st_mode))
		return oerr(o, EISDIR, "%s", "cannot write it");
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or socket: write to it, never replace it */
		if ((fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0 || !(o->f = fdopen(fd, "wb"))) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			return oerr(o, err, "%s", "cannot write it");
		}
		o->kind = OUT_DIRECT;
		return 0;
	}

	/* a regular file, existing or new: the data goes to the file a chain
	   of symbolic links ends at, in that file's directory */
	o->target = resolve(path);
	if (!o->target && errno == ELOOP)
		return openfail(o, ELOOP, "%s", "cannot follow its symbolic links");
	if (!o->target && !(o->target = strdup(path)))
		ir_die("out of memory");
	if (exists && access(o->target, W_OK) != 0)
		return openfail(o, errno, "%s", "cannot write it");
	fd = maketmp(o);
	if (fd < 0 && !exists)
		return openfail(o, errno, "%s", "cannot create a temporary file beside it");
	o->kind = OUT_RENAME;
	if (fd >= 0 && exists) {
		/* the new file takes the old one's mode and owner; where that
		   cannot be (or other names link to it), it is copied in place */
		if (fchmod(fd, st.st_mode & 07777) != 0 || st.st_nlink > 1 ||
		    ((st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0))
			o->kind = OUT_COPY;
	} else if (fd < 0) {
		/* the directory is not writable, the file is: stage the output
		   in an unnamed temporary file and copy it in */
		FILE *t = tmpfile();
		if (!t)
			return openfail(o, errno, "%s", "cannot create a temporary file");
		o->f = t;
		o->kind = OUT_COPY;
		return 0;
	}
	if (!(o->f = fdopen(fd, "w+b"))) {
		int err = errno;
		close(fd);
		return openfail(o, err, "%s", "cannot open a temporary file");
	}
	return 0;
}

/* copyin: the staged output in o->f copied into o->target in place;
** 0, or -1 with the error recorded */
static int
copyin(IrOut *o)
{
	char buf[65536];
	size_t n;
	int fd, rc = 0;

	if (fflush(o->f) != 0 || fseek(o->f, 0, SEEK_SET) != 0)
		return oerr(o, errno, "%s", "cannot read back the temporary file");
	if ((fd = open(o->target, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)) < 0)
		return oerr(o, errno, "%s", "cannot write it");
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, o->f)) > 0)
		for (size_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				rc = oerr(o, w < 0 ? errno : EIO, "%s", "cannot write it");
				break;
			}
			off += (size_t)w;
		}
	if (rc == 0 && ferror(o->f))
		rc = oerr(o, EIO, "%s", "cannot read back the temporary file");
	if (rc == 0 && (o->flags & IR_OUT_SYNC) && fsync(fd) != 0)
		rc = oerr(o, errno, "%s", "cannot sync it");
	if (close(fd) != 0 && rc == 0)
		rc = oerr(o, errno, "%s", "cannot write it");
	return rc;
}

/* ir_out_commit: see ir.h */
int
ir_out_commit(IrOut *o)
{
	int rc = 0;

	if (!o->f)
		return oerr(o, EBADF, "%s", "not open");
	if (fflush(o->f) != 0 || ferror(o->f))
		rc = oerr(o, errno ? errno : EIO, "%s", "cannot write it");
	if (o->kind == OUT_STDOUT) {
		o->f = NULL;
		return rc;
	}
	if (rc == 0 && o->kind == OUT_RENAME && (o->flags & IR_OUT_SYNC) && fsync(fileno(o->f)) != 0)
		rc = oerr(o, errno, "%s", "cannot sync it");
	if (rc == 0 && o->kind == OUT_COPY)
		rc = copyin(o);
	if (fclose(o->f) != 0 && rc == 0)
		rc = oerr(o, errno, "%s", "cannot write it");
	o->f = NULL;
	if (rc == 0 && o->kind == OUT_RENAME && rename(o->tmp, o->target) != 0)
		rc = oerr(o, errno, "%s", "cannot rename a temporary file over it");
	if (o->tmp && (rc != 0 || o->kind == OUT_COPY))
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return rc;
}

/* ir_out_abort: see ir.h */
void
ir_out_abort(IrOut *o)
{
	if (o->f && o->kind != OUT_STDOUT)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	o->f = NULL;
	o->tmp = o->target = NULL;
}
