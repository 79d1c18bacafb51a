/*
** tap.h: a small TAP emitter for C unit tests, read by automake's
** tap-driver.sh.
**
**   plan_lazy();               the plan is printed by done_testing()
**   ok(cond, "fmt", ...);      one test point
**   is_int(got, want, "fmt"), is_str(got, want, "fmt")
**   return done_testing();     exit status 1 if any point failed
*/
#ifndef GRAFT_TAP_H
#define GRAFT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void plan_lazy(void) {}

static inline int
tap_point(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_n++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return pass;
}

static inline int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pass = tap_point(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

static inline int
tap_is_int(long long got, long long want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = got == want;
	va_start(ap, fmt);
	tap_point(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got %lld, want %lld\n", got, want);
	return pass;
}

static inline int
tap_is_str(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = got && want ? strcmp(got, want) == 0 : got == want;
	va_start(ap, fmt);
	tap_point(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got  \"%s\"\n#   want \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
	return pass;
}

#define ok(c, ...) tap_ok(!!(c), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(g, w, ...) tap_is_int((long long)(g), (long long)(w), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(g, w, ...) tap_is_str((g), (w), __FILE__, __LINE__, __VA_ARGS__)

static inline int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
