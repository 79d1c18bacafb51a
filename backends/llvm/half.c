/*
** half.c: float16 in the llvm backend.  Half values are loaded and
** stored as i16 and computed in float; a sum or product is rounded back
** to half after every step, as the reference (ref/) rounds it, so that
** float16 results are its own bit for bit.
*/
#define _POSIX_C_SOURCE 200809L
#include "llvmi.h"

/* float16 data are i16 in buffers (copies move their bits untouched); an
** op's map function computes in float on the exactly widened values, and
** the result is rounded once to half (to nearest even, every NaN 0x7e00),
** as the reference stores a float16 result.  For + - * / and sqrt that
** is the correctly rounded half result (float has more than 2 * 11 + 2
** bits); a double is first rounded to an odd float (ll_ho_f64), which then
** rounds to half without error. */


/* ll_h_load: float16 bits (i16) widened to float */
LLVMValueRef
ll_h_load(G *g, LLVMValueRef bits)
{
	return LLVMBuildFPExt(g->b, LLVMBuildBitCast(g->b, bits, g->f16, ""), g->f32, "");
}

/* ll_h_store: float v rounded to float16 bits (i16); NaN is 0x7e00 */
LLVMValueRef
ll_h_store(G *g, LLVMValueRef v)
{
	LLVMValueRef h = LLVMBuildBitCast(g->b, LLVMBuildFPTrunc(g->b, v, g->f16, ""), g->i16, "");

	return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, ""), LLVMConstInt(g->i16, 0x7e00, 0), h, "");
}

/* ll_ho_f64: double d rounded to float, to odd (an inexact result gets its
** last bit set, toward zero first), so that rounding it to half rounds d */
LLVMValueRef
ll_ho_f64(G *g, LLVMValueRef d)
{
	LLVMValueRef f = LLVMBuildFPTrunc(g->b, d, g->f32, ""), back = LLVMBuildFPExt(g->b, f, g->f64, "");
	LLVMValueRef u = LLVMBuildBitCast(g->b, f, g->i32, ""), a[1], big, inexact;

	a[0] = back;
	big = ll_callf(g, "llvm.fabs.f64", g->f64, a, 1);
	a[0] = d;
	big = LLVMBuildFCmp(g->b, LLVMRealOGT, big, ll_callf(g, "llvm.fabs.f64", g->f64, a, 1), "");
	inexact = LLVMBuildFCmp(g->b, LLVMRealONE, back, d, "");
	u = LLVMBuildSub(g->b, u, LLVMBuildZExt(g->b, big, g->i32, ""), "");
	u = LLVMBuildOr(g->b, u, LLVMBuildZExt(g->b, inexact, g->i32, ""), "");
	return LLVMBuildBitCast(g->b, u, g->f32, "");
}

/* ll_h_round: d rounded to float16 and widened back to double, as the
** reference rounds a constant that meets float16 data */
double ll_h_round(double d) { return ir_f32_from_f16(ref_f16(d)); }

/* ll_h_rnd: float v rounded to half and widened back: one step of a float16
** accumulator, which the reference rounds after every add and multiply
** (a NaN stays a NaN; ll_h_store makes it 0x7e00) */
LLVMValueRef
ll_h_rnd(G *g, LLVMValueRef v)
{
	return LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, v, g->f16, ""), g->f32, "");
}

/* ll_h_cvt: v of dtype from converted to dtype to as the reference's cast
** does, float16 on either side as its bits (i16): widened exactly from
** half; to half through a float (a double through one rounded to odd),
** rounded once, as ll_cvt() converts to float */
LLVMValueRef
ll_h_cvt(G *g, LLVMValueRef v, DType from, DType to)
{
	if (from == DT_FLOAT16) {
		v = ll_h_load(g, v);
		from = DT_FLOAT32;
	}
	if (to != DT_FLOAT16)
		return ll_cvt(g, v, from, to);
	return ll_h_store(g, from == DT_FLOAT64 ? ll_ho_f64(g, v) : ll_cvt(g, v, from, DT_FLOAT32));
}

/* h_val: v of dtype from cast to float16, as a float: how the reference
** reads an operand into a float16 accumulator */
static LLVMValueRef
h_val(G *g, LLVMValueRef v, DType from)
{
	return ll_h_load(g, from == DT_FLOAT16 ? v : ll_h_cvt(g, v, from, DT_FLOAT16));
}

/* ll_h_opnd: v of dtype from read into an accumulator of dtype to (for
** float16, a float holding a half: h_val) */
LLVMValueRef
ll_h_opnd(G *g, LLVMValueRef v, DType from, DType to)
{
	return to == DT_FLOAT16 ? h_val(g, v, from) : ll_h_cvt(g, v, from, to);
}

/* ll_h_mac: *acc + x * y in the accumulator dtype dt, stored to acc (a
** float, for float16 rounded to half at each step as the reference
** rounds it) */
void
ll_h_mac(G *g, LLVMValueRef acc, LLVMValueRef x, LLVMValueRef y, DType dt)
{
	LLVMValueRef p = LLVMBuildFMul(g->b, x, y, ""), v;
	LLVMTypeRef t = LLVMTypeOf(p);

	if (dt == DT_FLOAT16)
		p = ll_h_rnd(g, p);
	v = LLVMBuildFAdd(g->b, LLVMBuildLoad2(g->b, t, acc, ""), p, "");
	LLVMBuildStore(g->b, dt == DT_FLOAT16 ? ll_h_rnd(g, v) : v, acc);
}
