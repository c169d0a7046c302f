# Checks on what crosses into C, shared by the R wrappers of the C routines (each
# routine has one wrapper, its only .Call site, next to the R code that uses it
# most). A failure is a bug of the package, since the user-facing functions
# validate their arguments first, and is reported as an internal error.

internal_error <- function(msg) stop_no_call(paste("internal error:", msg))

# One whole number >= min, as an integer.
internal_count <- function(x, what, min = 1L) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x != round(x) || x < min ||
      x > .Machine$integer.max)
    internal_error(sprintf("`%s` must be a whole number >= %d, not %s.", what, min, describe(x)))
  as.integer(x)
}

# Numbers as doubles (dimensions kept), of length `len` unless NULL.
internal_double <- function(x, what, len = NULL) {
  if (!is.numeric(x) && !is.logical(x))
    internal_error(sprintf("`%s` must be numeric, not %s.", what, describe(x)))
  if (!is.null(len) && length(x) != len)
    internal_error(sprintf("`%s` must have length %s, not %d.", what, format(len), length(x)))
  if (!is.double(x)) storage.mode(x) <- "double"
  x
}

# Whole numbers as integers (dimensions kept), of length `len` unless NULL.
internal_integer <- function(x, what, len = NULL) {
  if (!is.numeric(x) || anyNA(x) || any(x != round(x)))
    internal_error(sprintf("`%s` must be whole numbers, not %s.", what, describe(x)))
  if (!is.null(len) && length(x) != len)
    internal_error(sprintf("`%s` must have length %s, not %d.", what, format(len), length(x)))
  if (!is.integer(x)) storage.mode(x) <- "integer"
  x
}

# One number, as a double.
internal_number <- function(x, what) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x))
    internal_error(sprintf("`%s` must be one number, not %s.", what, describe(x)))
  as.double(x)
}

# One TRUE or FALSE.
internal_flag <- function(x, what) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    internal_error(sprintf("`%s` must be TRUE or FALSE, not %s.", what, describe(x)))
  x
}

# The code of `value` in `codes` (a named integer vector mirroring an enum of
# src/logz.h), given as one of its names.
internal_code <- function(value, codes, what) {
  if (!is.character(value) || length(value) != 1L || !value %in% names(codes))
    internal_error(sprintf("`%s` must be one of %s, not %s.", what,
                           paste0('"', names(codes), '"', collapse = ", "), describe(value)))
  codes[[value]]
}

# The streams of M chains: a 6 x M double matrix (M = any when NULL).
internal_streams <- function(x, M = NULL) {
  if (!is.double(x) || length(x) %% 6L != 0L || (!is.null(M) && length(x) != 6L * M))
    internal_error(sprintf("`streams` must be a 6 x %s double matrix, not %s.",
                           if (is.null(M)) "M" else format(M), describe(x)))
  x
}

# An external pointer to a store the C code keeps (`what` names it).
internal_pointer <- function(x, what) {
  if (typeof(x) != "externalptr")
    internal_error(sprintf("not %s: %s.", what, describe(x)))
  x
}

# A chain state: NULL (not drawn yet) or a rows x M double matrix.
internal_chains <- function(x, what, rows, M) {
  if (is.null(x)) return(NULL)
  internal_double(x, what, len = as.double(rows) * M)
}

# The progress callback of a C loop (logz_tick() in src/util.c): control$tick (a function of the
# number of samples done, or absent) and control$tick_every, checked.
internal_tick <- function(control) {
  if (is.null(control$tick)) return(list())
  if (!is.function(control$tick)) internal_error("`tick` must be a function.")
  list(tick = control$tick, tick_every = internal_count(control$tick_every, "tick_every"))
}

# The Ising model list of the C engines (from ising_c_model()): n, from, to
# (0-based edge ends), weight, field, lo, hi, and, when asked for, order (a
# 0-based sweep or elimination order) and a0 (the base field), checked and
# with the C types.
internal_ising_model <- function(cm, order = FALSE, a0 = FALSE) {
  if (!is.list(cm)) internal_error("the Ising model must be a list.")
  n <- internal_count(cm$n, "n")
  cm$n <- n
  cm$from <- internal_integer(cm$from, "from")
  cm$to <- internal_integer(cm$to, "to", length(cm$from))
  cm$weight <- internal_double(cm$weight, "weight", length(cm$from))
  cm$field <- internal_double(cm$field, "field", n)
  cm$lo <- internal_number(cm$lo, "lo")
  cm$hi <- internal_number(cm$hi, "hi")
  if (order) cm$order <- internal_integer(cm$order, "order", n)
  if (a0) cm$a0 <- internal_double(cm$a0, "a0", n)
  cm
}

# The control list every chunked annealing routine reads through
# logz_chunk_unpack() (src/util.c): threads, sweeps, final, log_z0.
internal_chunk_control <- function(control)
  list(threads = internal_count(control$threads, "threads"),
       sweeps = internal_count(control$sweeps, "sweeps"),
       final = internal_flag(control$final, "final"),
       log_z0 = internal_number(control$log_z0, "log_z0"))

# `x` is a single integer code among `codes` (a named vector above).
mip_check_code <- function(x, codes, what) {
  if (!is.integer(x) || length(x) != 1L || !x %in% codes)
    internal_error(sprintf("%s must be one of %s, not %s", what,
                               paste(sprintf("%s = %d", names(codes), codes), collapse = ", "),
                               describe(x)))
  invisible(x)
}

# The value model the engine reads (mip_c_model()).
mip_check_c_model <- function(cm) {
  if (!is.list(cm) || !is.integer(cm$n) || length(cm$n) != 1L || !is.double(cm$c0))
    internal_error("bad mip model list")
  mip_check_code(cm$kind, MIP_KIND, "the model's kind")
  invisible(cm)
}

# A partial-assignment matrix crossing to C: integers, NA (free) or 0/1.
mip_check_fix <- function(fix, n) {
  if (!is.integer(fix) || !is.matrix(fix) || nrow(fix) != n || !all(fix[!is.na(fix)] %in% 0:1))
    internal_error("fixings must be an n x J integer matrix of NA, 0 and 1")
  invisible(fix)
}
