# Integer codes that R/mip*.R and src/mip*.c both read, by name: the enums
# mip_kind, mip_branching and mip_share of src/mip.h.

# A problem's kind: pairwise tables or a linear objective under constraints.
MIP_KIND <- c(pairwise = 0L, linear = 1L)
# The branching rule (`branching` of mip_sample()).
MIP_BRANCHING <- c(auto = 0L, most_fractional = 1L, first = 2L)
# How threads share the searches of one call: not at all, idle threads join
# running searches, or every thread joins each sample in turn (tests).
MIP_SHARE <- c(none = 0L, idle = 1L, forced = 2L)

# An argument built in R that the C engine would reject: a bug, not a user error.
mip_internal_error <- function(what) stop_no_call(paste0("internal error: ", what))

# `x` is a single integer code among `codes` (a named vector above).
mip_check_code <- function(x, codes, what) {
  if (!is.integer(x) || length(x) != 1L || !x %in% codes)
    mip_internal_error(sprintf("%s must be one of %s, not %s", what,
                               paste(sprintf("%s = %d", names(codes), codes), collapse = ", "),
                               describe(x)))
  invisible(x)
}

# The value model the engine reads (mip_c_model()).
mip_check_c_model <- function(cm) {
  if (!is.list(cm) || !is.integer(cm$n) || length(cm$n) != 1L || !is.double(cm$c0))
    mip_internal_error("bad mip model list")
  mip_check_code(cm$kind, MIP_KIND, "the model's kind")
  invisible(cm)
}

# A partial-assignment matrix crossing to C: integers, NA (free) or 0/1.
mip_check_fix <- function(fix, n) {
  if (!is.integer(fix) || !is.matrix(fix) || nrow(fix) != n || !all(fix[!is.na(fix)] %in% 0:1))
    mip_internal_error("fixings must be an n x J integer matrix of NA, 0 and 1")
  invisible(fix)
}

# RNG streams crossing to C: a 6 x J double matrix (rng_streams's layout).
mip_check_streams <- function(streams, J = NULL) {
  if (!is.double(streams) || !is.matrix(streams) || nrow(streams) != 6L ||
      (!is.null(J) && ncol(streams) != J))
    mip_internal_error("streams must be a 6 x J double matrix")
  invisible(streams)
}
