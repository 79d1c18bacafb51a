/*
** chanrun.c: runs chan.relay compiled by `graft --emit c` or `--emit obj`
** (its graft_main, the calling convention of graft's backends/c/c.h),
** linked with acme-kernels.c, on chan.npy's values; prints its two
** results, one line each, and exits with graft_main's return value.
*/
#include <stdint.h>
#include <stdio.h>

int32_t graft_main(const void *const *in, void *const *out);

int
main(void)
{
	static const int32_t x[6] = { -300, -3, 0, 5, 70, -100 };
	int8_t r0[6];
	int32_t r1[6];
	const void *in[1] = { x };
	void *out[2] = { r0, r1 };
	int32_t rc = graft_main(in, out);

	for (int i = 0; i < 6; i++)
		printf("%d%c", r0[i], i < 5 ? ' ' : '\n');
	for (int i = 0; i < 6; i++)
		printf("%d%c", (int)r1[i], i < 5 ? ' ' : '\n');
	return (int)rc;
}
