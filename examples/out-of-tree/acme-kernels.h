/*
** acme-kernels.h: the C kernels of acme's ops (acme-kernels.c), which
** need only <graft/kernel.h>.
*/
#ifndef ACME_KERNELS_H
#define ACME_KERNELS_H

#include <graft/kernel.h>

/* acme.clip_cast's attributes, and acme.chan_scale's, in their schemas'
** order (acme.c, acme.rules) */
enum { ACME_CC_MIN, ACME_CC_MAX, ACME_CC_DTYPE };
enum { ACME_CS_SCALE, ACME_CS_BIAS, ACME_CS_AXIS, ACME_CS_ROUNDING, ACME_CS_DTYPE };

/* the kernels: each one's symbol is its name */
graft_kernel acme_clip_cast;
graft_kernel acme_chan_scale;

#endif
