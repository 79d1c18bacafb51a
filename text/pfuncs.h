/*
** pfuncs.h: the grammar actions of relay.y, defined in text/parse.c.
** Every action tolerates a 0 node or type from an earlier error and then
** reports nothing more, so one mistake gives one message.
*/
#ifndef GRAFT_PFUNCS_H
#define GRAFT_PFUNCS_H

#include "parse.h"

List p_list_empty(Parser *p);
List p_scope_push(Parser *p);
void p_scope_reset(Parser *p);

void p_def(Parser *p, const Str *name, const YYLTYPE *l, List scope, uint32_t params, TypeId ret, NodeId body);
NodeId p_fn(Parser *p, List scope, uint32_t params, TypeId ret, NodeId body, const YYLTYPE *l);
void p_bare(Parser *p, NodeId fn, const YYLTYPE *l);
NodeId p_param(Parser *p, const Str *name, TypeId type, TypeId ann, const YYLTYPE *l);
uint32_t p_args(Parser *p, List nodes, List attrs);

void p_bind(Parser *p, const Str *name, const YYLTYPE *l, NodeId val, TypeId type);
NodeId p_annotate(Parser *p, NodeId n, TypeId type, const YYLTYPE *l);

NodeId p_local(Parser *p, const Str *name, const YYLTYPE *l);
NodeId p_global(Parser *p, const Str *name, const YYLTYPE *l);
NodeId p_scalar(Parser *p, const Num *v, const YYLTYPE *l);
NodeId p_bool(Parser *p, int v, const YYLTYPE *l);
NodeId p_meta(Parser *p, const Num *index, const YYLTYPE *l);
NodeId p_inline_const(Parser *p, uint32_t v, const YYLTYPE *vl,
                      const Str *key, const Str *dtype, const YYLTYPE *dl);
NodeId p_const_data(Parser *p, const YYLTYPE *vl, const Str *key, const Str *dtype, const YYLTYPE *dl);
NodeId p_call(Parser *p, const Str *op, const YYLTYPE *l, uint32_t args);
NodeId p_callfn(Parser *p, NodeId fn, uint32_t args, const YYLTYPE *l);
NodeId p_getitem(Parser *p, NodeId tuple, const Num *index, const YYLTYPE *l);
NodeId p_tuple(Parser *p, List fields, const YYLTYPE *l);

List p_node_first(Parser *p, NodeId n);
List p_node_more(Parser *p, List l, NodeId n);
List p_node_prepend(Parser *p, NodeId n, List l);

/* attribute values are pushed on Parser.avals and named by index */
uint32_t p_attr_key(Parser *p, const Str *name, uint32_t v, const YYLTYPE *l);
uint32_t p_attr_num(Parser *p, const Num *v, const YYLTYPE *l);
uint32_t p_attr_str(Parser *p, const Str *s, const YYLTYPE *l);
uint32_t p_attr_bool(Parser *p, int v, const YYLTYPE *l);
uint32_t p_attr_none(Parser *p, const YYLTYPE *l);
uint32_t p_attr_array(Parser *p, List elems, const YYLTYPE *l);
List p_attr_first(Parser *p, uint32_t v);
List p_attr_more(Parser *p, List l, uint32_t v);

TypeId p_type_scalar(Parser *p, const Str *dtype, const YYLTYPE *l);
TypeId p_type_tensor(Parser *p, List dims, const Str *dtype, const YYLTYPE *l);
TypeId p_type_tuple(Parser *p, List types);
TypeId p_type_fn(Parser *p, List params, TypeId ret);
List p_type_first(Parser *p, TypeId t);
List p_type_more(Parser *p, List l, TypeId t);
List p_type_prepend(Parser *p, TypeId t, List l);
List p_dim_first(Parser *p, int64_t d, const YYLTYPE *l);
List p_dim_more(Parser *p, List l, int64_t d, const YYLTYPE *dl);

#endif
