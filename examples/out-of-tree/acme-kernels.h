/*
** acme-kernels.h: the C kernels of acme's ops (acme-kernels.c), which
** need only <graft/kernel.h>.
*/
#ifndef ACME_KERNELS_H
#define ACME_KERNELS_H

#include <graft/kernel.h>

/* acme.chan_scale's attributes, in its schema's order (acme.c, acme.rules) */
enum { ACME_CS_SCALE, ACME_CS_BIAS, ACME_CS_AXIS, ACME_CS_ROUNDING, ACME_CS_DTYPE };

/* acme.chan_scale: the kernel's symbol is its name */
graft_kernel acme_chan_scale;

#endif
