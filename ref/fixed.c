/*
** fixed.c: the Q31 fixed-point multipliers of qnn.requantize (ref.h),
** which the interpreter and every backend take from here.
*/
#include <math.h>

#include "ref.h"

int
ref_fixed(double d, RefFixed *f)
{
	int exp;
	int64_t q;

	f->mul = 0;
	f->shift = 0;
	if (!isfinite(d))
		return 0;
	if (d == 0)
		return 1;
	/* frexp: d = sig * 2^exp, sig in [0.5, 1); sig * 2^31 rounded, and a
	   rounding up to 2^31 is 2^30 with one more shift */
	q = (int64_t)round(frexp(d, &exp) * 2147483648.0);
	if (q == ((int64_t)1 << 31)) {
		q /= 2;
		exp++;
	}
	f->mul = (int32_t)q;
	f->shift = exp;
	return 1;
}
