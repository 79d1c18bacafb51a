# graft.m4: autoconf support for projects that build against graft: its
# library, and its graftc run on their .rules files at build time.  make
# install puts it in $(datadir)/aclocal.                     serial 1
#
# GRAFT_INIT([MIN-VERSION], [ACTION-IF-FOUND], [ACTION-IF-NOT-FOUND])
#   Finds graft through pkg-config (at least MIN-VERSION, when given) and
#   substitutes:
#     GRAFT_CFLAGS, GRAFT_LIBS  compile and link against libgraft
#     GRAFT, GRAFTC             the graft and graftc installed with it
#     GRAFT_LIBDIR              where libgraft is (for an rpath)
#     GRAFT_RULESETSDIR         the sources of the rulesets shipped with it
#     GRAFT_RULES               a GNU make rule that runs $(GRAFTC)
#                               $(GRAFTCFLAGS) on NAME.rules into
#                               NAME-rules.c: put the line @GRAFT_RULES@
#                               in Makefile.am, and list NAME-rules.c
#                               among a target's nodist sources
#   Without ACTION-IF-NOT-FOUND, a graft not found stops configure.
m4_pattern_allow([^AM_V_GEN$])
AC_DEFUN([GRAFT_INIT], [
  PKG_PROG_PKG_CONFIG
  PKG_CHECK_MODULES([GRAFT], [graft m4_ifval([$1], [>= $1])], [graft_found=yes], [graft_found=no])
  AS_IF([test "x$graft_found" = xyes], [
    PKG_CHECK_VAR([GRAFT], [graft], [graft])
    PKG_CHECK_VAR([GRAFTC], [graft], [graftc])
    PKG_CHECK_VAR([GRAFT_LIBDIR], [graft], [libdir])
    PKG_CHECK_VAR([GRAFT_RULESETSDIR], [graft], [rulesetsdir])
    AS_IF([test -x "$GRAFTC"], [],
          [AC_MSG_ERROR([graft.pc names $GRAFTC as its graftc, which is not there])])
    $2
  ], [m4_default([$3], [AC_MSG_ERROR([graft m4_ifval([$1], [$1 or newer ])was not found ($GRAFT_PKG_ERRORS): install it, or point PKG_CONFIG_PATH at its lib/pkgconfig])])])
  GRAFT_RULES='%-rules.c: %.rules $(GRAFTC)
	$(AM_V_GEN)$(GRAFTC) $(GRAFTCFLAGS) -o $[@] $<'
  AC_SUBST([GRAFT_RULES])
  m4_ifdef([AM_SUBST_NOTMAKE], [AM_SUBST_NOTMAKE([GRAFT_RULES])])
])
