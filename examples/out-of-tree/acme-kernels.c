/*
** acme-kernels.c: the C kernels of acme's ops (<graft/kernel.h>), the one
** definition of what each computes.  It needs nothing of graft's but that
** header, so it goes three places: into the plugin (acme.c registers it,
** and graft's ref, c and llvm backends all call it), and into whatever
** links the code `graft --emit c` or `--emit obj` writes for a model that
** uses acme's ops (that code calls acme_chan_scale by name).
**
**   acme.clip_cast(data, a_min, a_max, dtype = "int8")
**
** clips an integer tensor of up to 32 bits to [a_min, a_max], then
** truncates it to 8 bits as cast does (int8 and uint8 alike).
**
**   acme.chan_scale(data, scale, bias, axis = 1, rounding = "floor",
**                   dtype = "int8")
**
** scales each channel (along axis) of an int8, int32 or float32 tensor
** by its own factor: y = round(x * scale[c]) + bias[c] in double, with
** rounding "floor" or "nearest" (halves away from zero), then saturated
** to dtype (int8, uint8 or int32; float32 takes it as it is).  A NaN in
** the data is a run-time error.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <graft/kernel.h>

#include "acme-kernels.h"

/* get: element i of t as a double */
static double
get(const graft_tensor *t, int64_t i)
{
	switch (t->dtype) {
	case GRAFT_DT_INT8: return ((const int8_t *)t->data)[i];
	case GRAFT_DT_INT32: return ((const int32_t *)t->data)[i];
	default: return ((const float *)t->data)[i];
	}
}

/* put: v, saturated, as element i of t */
static void
put(graft_tensor *t, int64_t i, double v)
{
	switch (t->dtype) {
	case GRAFT_DT_INT8: ((int8_t *)t->data)[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); break;
	case GRAFT_DT_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); break;
	case GRAFT_DT_INT32:
		((int32_t *)t->data)[i] = (int32_t)(v < -2147483648.0 ? -2147483648.0 : v > 2147483647.0 ? 2147483647.0 : v);
		break;
	default: ((float *)t->data)[i] = (float)v; break;
	}
}

int
acme_chan_scale(const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout, const graft_attr *attrs)
{
	const graft_tensor *x = &in[0];
	const graft_attr *scale = &attrs[ACME_CS_SCALE], *bias = &attrs[ACME_CS_BIAS];
	int64_t n = 1, inner = 1, axis = attrs[ACME_CS_AXIS].i;
	int nearest = strcmp(attrs[ACME_CS_ROUNDING].s, "nearest") == 0;

	if (nin != 1 || nout != 1 || axis < 0 || axis >= x->rank)
		return 1;
	for (int32_t k = 0; k < x->rank; k++)
		n *= x->shape[k];
	for (int32_t k = (int32_t)axis + 1; k < x->rank; k++)
		inner *= x->shape[k];
	for (int64_t i = 0; i < n; i++) {
		int64_t c = i / inner % x->shape[axis];
		double v = get(x, i);
		if (v != v)
			return 2;       /* a NaN: no value to give */
		v *= scale->floats[c];
		v = nearest ? (v < 0 ? -floor(-v + 0.5) : floor(v + 0.5)) : floor(v);
		put(out, i, v + (double)bias->ints[c]);
	}
	return 0;
}

/* ld: element i of an integer tensor of up to 32 bits */
static int64_t
ld(const graft_tensor *t, int64_t i)
{
	switch (t->dtype) {
	case GRAFT_DT_INT8: return ((const int8_t *)t->data)[i];
	case GRAFT_DT_UINT8: return ((const uint8_t *)t->data)[i];
	case GRAFT_DT_INT16: return ((const int16_t *)t->data)[i];
	case GRAFT_DT_UINT16: return ((const uint16_t *)t->data)[i];
	case GRAFT_DT_INT32: return ((const int32_t *)t->data)[i];
	default: return ((const uint32_t *)t->data)[i];
	}
}

int
acme_clip_cast(const graft_tensor *in, uint32_t nin, graft_tensor *out, uint32_t nout, const graft_attr *attrs)
{
	int64_t n = 1, lo = (int64_t)attrs[ACME_CC_MIN].f, hi = (int64_t)attrs[ACME_CC_MAX].f;

	if (nin != 1 || nout != 1)
		return 1;
	for (int32_t k = 0; k < in[0].rank; k++)
		n *= in[0].shape[k];
	for (int64_t i = 0; i < n; i++) {
		int64_t v = ld(&in[0], i);
		v = v < lo ? lo : v > hi ? hi : v;
		((unsigned char *)out->data)[i] = (unsigned char)(uint64_t)v;
	}
	return 0;
}
