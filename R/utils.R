# Internal helpers: errors, argument and field checks, numerics, RNG state,
# interrupts.

# Error without the call (posterior's stop_no_call): messages name the argument,
# what was expected and what was given.
stop_no_call <- function(...) stop(..., call. = FALSE)

describe <- function(x) {
  if (is.null(x)) return("NULL")
  cls <- paste(class(x), collapse = "/")
  if (length(x) == 1L && is.atomic(x)) return(sprintf("%s %s", cls, format(x)))
  if (!is.null(dim(x))) return(sprintf("a %s of dimension %s", cls, paste(dim(x), collapse = " x ")))
  sprintf("a %s of length %d", cls, length(x))
}

check_count <- function(x, name, min = 1L, max = .Machine$integer.max, bytes_each = NULL) {
  # a count of things in memory: refuse with the figure before the range check
  if (!is.null(bytes_each) && is.numeric(x) && length(x) == 1L && !is.na(x) && x >= 1 &&
      is.numeric(bytes_each) && length(bytes_each) == 1L && !is.na(bytes_each))
    check_memory(as.double(x) * bytes_each, sprintf("`%s` = %s", name, format(x)))
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
      x != round(x) || x < min || x > max) {
    big <- is.numeric(x) && length(x) == 1L && !is.na(x) && x > max && max >= .Machine$integer.max
    stop_no_call(sprintf("`%s` must be a whole number between %s and %s, not %s%s.",
                         name, format(min), format(max), describe(x),
                         if (big) " (beyond R's integer range)" else ""))
  }
  as.integer(x)
}

# The package option `logz.<name>` (listed in ?logz-package), or `default`
# when it is unset. With `number = TRUE`, a value that is not one number
# >= `lower` (not NA) gives `default` too.
logz_option <- function(name, default, number = FALSE, lower = -Inf) {
  x <- getOption(paste0("logz.", name), default)
  if (number && !(is.numeric(x) && length(x) == 1L && !is.na(x) && x >= lower)) default else x
}

# The memory limit (bytes) of the size checks: option logz.max_bytes,
# else the LOGZ_MAX_BYTES environment variable, else `fallback`.
memory_limit <- function(fallback) {
  opt <- logz_option("max_bytes", NULL)
  if (!is.null(opt)) return(as.double(opt))
  env <- suppressWarnings(as.numeric(Sys.getenv("LOGZ_MAX_BYTES", "")))
  if (is.finite(env) && env > 0) env else fallback
}

# Refuse a request whose memory would exceed `limit` bytes (default:
# memory_limit(16e9)), with the figure.
check_memory <- function(bytes, what, limit = NULL) {
  if (is.null(limit)) limit <- memory_limit(16e9)
  if (!is.finite(bytes) || bytes >= limit)
    stop_no_call(sprintf("%s would need %s GB of memory (limit %s GB); use a smaller size.",
                         what, format(signif(bytes / 1e9, 3)), format(signif(limit / 1e9, 3))))
  invisible(bytes)
}

# n_chains: the memory of the chains' states (`per_chain` bytes each) is
# checked before the count, so that 2e9 chains are refused with the figure.
check_chains <- function(n_chains, per_chain, name = "n_chains") {
  if (is.numeric(n_chains) && length(n_chains) == 1L && !is.na(n_chains) && n_chains >= 1)
    check_memory(as.double(n_chains) * (per_chain + 64),
                 sprintf("`%s` = %s chains", name, format(n_chains)))
  check_count(n_chains, name)
}

# Parameters so large that energies (sums of |parameter|) overflow or come
# within a few doublings of overflow: the samplers' Inf - Inf would give NaN or
# a silently wrong finite log Z. `total` is the largest possible |energy|.
check_energy_scale <- function(total, what, limit = 1e300) {
  if (is.na(total) || total > limit)
    stop_no_call(sprintf(paste0("%s are too large: the largest |energy| (sum of their absolute ",
                                "values) is %s, beyond %s where double precision overflows; ",
                                "rescale them."), what, format(total), format(limit)))
  invisible(total)
}

# match.arg() whose error names the argument: `x` one of the choices in the
# caller's formal default for `name` (or `choices`).
match_arg <- function(x, name, choices = NULL) {
  if (is.null(choices)) choices <- eval(formals(sys.function(sys.parent()))[[name]])
  if (identical(x, choices)) return(choices[1])
  if (!is.character(x) || length(x) != 1L || is.na(x) || !x %in% choices) {
    hit <- if (is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x))
      choices[startsWith(choices, x)] else character()
    if (length(hit) == 1L) return(hit)
    stop_no_call(sprintf("`%s` must be one of %s, not %s.", name,
                         paste0('"', choices, '"', collapse = ", "), describe(x)))
  }
  x
}

check_number <- function(x, name, lower = -Inf, upper = Inf, lower_open = FALSE,
                         upper_open = FALSE) {
  bad <- !is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
    (if (lower_open) x <= lower else x < lower) ||
    (if (upper_open) x >= upper else x > upper)
  if (bad) {
    rng <- sprintf("%s%s, %s%s", if (lower_open) "(" else "[", format(lower),
                   format(upper), if (upper_open) ")" else "]")
    stop_no_call(sprintf("`%s` must be a finite number in %s, not %s.", name, rng, describe(x)))
  }
  as.double(x)
}

check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    stop_no_call(sprintf("`%s` must be TRUE or FALSE, not %s.", name, describe(x)))
  x
}

check_finite_numeric <- function(x, name, len = NULL) {
  if (!is.numeric(x))
    stop_no_call(sprintf("`%s` must be numeric, not %s.", name, describe(x)))
  if (anyNA(x) || any(!is.finite(x)))
    stop_no_call(sprintf("`%s` must not contain NA, NaN or infinite values.", name))
  if (!is.null(len) && length(x) != len)
    stop_no_call(sprintf("`%s` must have length %d, not %d.", name, len, length(x)))
  invisible(x)
}

# A 0/1 data matrix from a matrix, data frame or vector (one example per row).
as_binary_matrix <- function(data, name = "data", n_col = NULL) {
  if (is.data.frame(data)) {
    ok <- vapply(data, function(col) is.numeric(col) || is.logical(col), logical(1))
    if (!all(ok))
      stop_no_call(sprintf("`%s` must have only numeric or logical columns; column %s is not.",
                           name, names(data)[which(!ok)[1]]))
    data <- as.matrix(data)
  }
  if (is.null(dim(data)) && (is.numeric(data) || is.logical(data))) {
    data <- matrix(data, nrow = 1L)
  }
  if (!is.matrix(data) || !(is.numeric(data) || is.logical(data)))
    stop_no_call(sprintf("`%s` must be a 0/1 matrix or data frame, not %s.", name, describe(data)))
  if (nrow(data) == 0L || ncol(data) == 0L)
    stop_no_call(sprintf("`%s` is empty (%d x %d).", name, nrow(data), ncol(data)))
  if (anyNA(data))
    stop_no_call(sprintf("`%s` must not contain NA values.", name))
  bad <- if (is.logical(data)) 0 else first_non_binary(data)
  if (bad > 0)
    stop_no_call(sprintf("`%s` must be binary (0/1); found values such as %s.", name,
                         format(data[bad])))
  if (!is.null(n_col) && ncol(data) != n_col)
    stop_no_call(sprintf("`%s` must have %d columns (one per visible unit), not %d.",
                         name, n_col, ncol(data)))
  storage.mode(data) <- "double"
  dimnames(data) <- NULL
  data
}

# The index of the first element of numeric `x` (no NAs) that is neither 0 nor
# 1, or 0: in slices of 2^20 elements with an interrupt check between them, so
# that the check of a large data set stays interruptible.
first_non_binary <- function(x) {
  n <- length(x)
  step <- 1048576
  for (i0 in seq(0, n - 1, by = step)) {
    idx <- seq.int(i0 + 1, min(n, i0 + step))
    xi <- x[idx]
    ok <- xi == 0 | xi == 1
    if (!all(ok)) return(idx[which(!ok)[1]])
    if (n > step) check_interrupt()
  }
  0
}

# stats::rnorm(n, 0, sd) drawn in slices of 2^20 with an interrupt check
# between them (the same numbers as one call: R's normals are drawn in turn).
rnorm_chunked <- function(n, sd) {
  step <- 1048576
  if (n <= step) return(stats::rnorm(n, sd = sd))
  out <- numeric(n)
  for (i0 in seq(0, n - 1, by = step)) {
    idx <- seq.int(i0 + 1, min(n, i0 + step))
    out[idx] <- stats::rnorm(length(idx), sd = sd)
    check_interrupt()
  }
  out
}

# log(exp(a) + exp(b)) elementwise, without overflow.
log_add_exp <- function(a, b) pmax(a, b) + log1p(exp(-abs(a - b)))

softplus <- function(x) log_add_exp(x, 0)

# log of the effective sample size (sum w)^2 / sum w^2 of log weights `lw`;
# weights of zero (-Inf) are dropped, and none left gives -Inf.
log_ess <- function(lw) {
  lw <- lw[lw > -Inf]
  if (!length(lw)) return(-Inf)
  2 * log_sum_exp(lw) - log_sum_exp(2 * lw)
}

log_sum_exp <- function(x) {
  m <- max(x)
  if (!is.finite(m)) return(m)
  m + log(sum(exp(x - m)))
}

# The RNG state at entry (creating one if the session has none yet), stored in
# results so that a run can be reproduced with `.Random.seed <- x$seed`.
rng_state <- function() {
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) stats::runif(1)
  get(".Random.seed", envir = globalenv(), inherits = FALSE)
}

# Evaluate `expr` with the global RNG seeded by `seed`, restoring the state at
# entry afterwards (`seed = NULL`: use and advance the global RNG as usual).
with_seed <- function(seed, expr) {
  if (is.null(seed)) return(expr)
  seed <- check_count(seed, "seed", min = -.Machine$integer.max)
  keep_rng_state({
    set.seed(seed)
    expr
  })
}

# Evaluate `expr` and restore R's RNG state at entry (no state at entry: none
# afterwards), so that the random numbers `expr` draws change nothing outside.
keep_rng_state <- function(expr) {
  old <- if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
    get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    if (is.null(old)) {
      if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
        rm(".Random.seed", envir = globalenv())
    } else {
      assign(".Random.seed", old, envir = globalenv())
    }
  })
  expr
}

check_threads <- function(threads) check_count(threads, "threads", min = 1L, max = 1024L)

# The messages of R's setTimeLimit() errors, as R translates them.
time_limit_messages <- function() {
  gettext(c("reached elapsed time limit", "reached CPU time limit",
            "reached session elapsed time limit", "reached session CPU time limit"), domain = "R")
}

# tryCatch(expr, error = handler) that lets R's time-limit errors through. R
# clears the limits as it signals one, so a handler that swallowed it would
# leave the rest of the call running with no limit (interrupts are not
# errors and pass through any error handler).
catch_error <- function(expr, handler) {
  tryCatch(expr, error = function(e) {
    if (conditionMessage(e) %in% time_limit_messages()) stop(e)
    handler(e)
  })
}

# requireNamespace(pkg, quietly = TRUE) whose loading honours time limits
# (requireNamespace() turns every error, a time limit's too, into FALSE).
namespace_available <- function(pkg) {
  isNamespaceLoaded(pkg) || catch_error({
    suppressWarnings(suppressMessages(suppressPackageStartupMessages(loadNamespace(pkg))))
    TRUE
  }, function(e) FALSE)
}

# Which BLAS/LAPACK R uses, for benchmark and demo headers.
blas_info <- function() {
  blas <- tryCatch(extSoftVersion()[["BLAS"]], error = function(e) "")
  lapack <- tryCatch(La_library(), error = function(e) "")
  paste0("BLAS: ", if (nzchar(blas)) blas else "unknown",
         "; LAPACK: ", if (nzchar(lapack)) lapack else "unknown")
}

# Error on arguments that reached an S3 method's `...` without being used (a
# misspelt or unknown argument would otherwise be ignored silently), naming
# them and suggesting the closest formal argument of the method, like base R's
# chkDots() but an error. Call it as `check_dots_used(...)` from a method whose
# `...` must be empty; `.fn` names the function in the message (default: the
# caller), `.valid` the argument names to suggest from (default: the caller's
# formals). The arguments are not evaluated.
check_dots_used <- function(..., .fn = NULL, .valid = NULL) {
  if (...length() == 0L) return(invisible(NULL))
  caller <- sys.function(sys.parent())
  if (is.null(.fn)) {
    cl <- sys.call(sys.parent())
    .fn <- if (is.null(cl)) "this function" else deparse(cl[[1L]])[1L]
    # dispatched methods show the generic's name in sys.call(); use the method's
    gen <- dispatched_method_name(sys.parent())
    if (!is.null(gen)) .fn <- gen
  }
  if (is.null(.valid)) .valid <- setdiff(names(formals(caller)), "...")
  exprs <- as.list(substitute(list(...)))[-1L]
  nms <- names(exprs)
  if (is.null(nms)) nms <- character(length(exprs))
  named <- nms[nzchar(nms)]
  n_unnamed <- sum(!nzchar(nms))
  fn <- sub("\\(\\)$", "", .fn)
  msg <- if (!length(named)) {
    sprintf("%d unused unnamed argument%s in %s().", n_unnamed, if (n_unnamed > 1L) "s" else "", fn)
  } else {
    sprintf("unused argument%s %s%s in %s().", if (length(exprs) > 1L) "s" else "",
            paste0("`", named, "`", collapse = ", "),
            if (n_unnamed) sprintf(" and %d unnamed", n_unnamed) else "", fn)
  }
  hints <- character()
  for (nm in named) {
    s <- suggest_name(nm, .valid)
    if (!is.na(s) && identical(s, nm)) {
      msg <- paste0(msg, sprintf(" `%s` does not apply to this kind of model.", nm))
      next
    }
    if (!is.na(s)) hints <- c(hints, if (length(named) > 1L)
      sprintf("`%s` (for `%s`)", s, nm) else sprintf("`%s`", s))
  }
  if (length(hints)) msg <- paste0(msg, " Did you mean ", paste(hints, collapse = ", "), "?")
  stop_no_call(msg)
}

# A function that passes `...` on to an engine: a name in `...` that is a
# misspelling of one of the function's own arguments (`own`) is an error that
# names it, before the engine, which knows nothing of those arguments, reports
# it without the hint.
check_own_argument_names <- function(nms, own, fn) {
  for (nm in nms[nzchar(nms)]) {
    if (nm %in% own) next
    s <- suggest_name(nm, own)
    if (!is.na(s))
      stop_no_call(sprintf("unused argument `%s` in %s(). Did you mean `%s`?", nm, fn, s))
  }
  invisible(NULL)
}

# The method name ("ais.rbm") of the frame `n` when it was reached by S3
# dispatch, else NULL.
dispatched_method_name <- function(n) {
  if (n < 1L) return(NULL)
  env <- sys.frame(n)
  gen <- get0(".Generic", envir = env, inherits = FALSE)
  cls <- get0(".Class", envir = env, inherits = FALSE)
  if (is.null(gen) || !length(cls)) {
    if (!is.null(gen)) return(paste0(gen, ".default"))
    return(NULL)
  }
  paste0(gen, ".", cls[1L])
}

# The formal argument name closest to `name` (edit distance at most 2, or a
# third of its length), else NA.
suggest_name <- function(name, valid) {
  if (!length(valid)) return(NA_character_)
  d <- drop(utils::adist(name, valid, ignore.case = TRUE))
  best <- which.min(d)
  if (d[best] <= max(2L, nchar(name) %/% 3L)) valid[best] else NA_character_
}

# `name$field` must <what>, not <describe(value)>.
bad_field <- function(name, field, what, value) {
  stop_no_call(sprintf("`%s$%s` must %s, not %s.", name, field, what, describe(value)))
}

# The object must be a list (e.g. not structure(1, class = "rbm")).
need_list <- function(x, name, what) {
  if (!is.list(x) || is.data.frame(x))
    stop_no_call(sprintf("`%s` must be a list as built by %s, not %s.", name, what,
                         describe(unclass(x))))
  invisible(x)
}

# A numeric field of length `len` (any length if NULL), finite unless `finite`
# is FALSE (then only NA is refused).
need_numeric <- function(x, name, field, len = NULL, finite = TRUE) {
  v <- x[[field]]
  what <- paste0("be a numeric vector", if (!is.null(len)) sprintf(" of length %d", len) else "")
  if (!is.numeric(v) || (!is.null(len) && length(v) != len)) bad_field(name, field, what, v)
  if (anyNA(v) || (finite && any(!is.finite(v)))) {
    k <- which(is.na(v) | (finite & !is.finite(v)))[1]
    stop_no_call(sprintf("`%s$%s` must be %s; element %d is %s.", name, field,
                         if (finite) "finite" else "free of NA", k, format(v[k])))
  }
  invisible(v)
}

need_matrix <- function(x, name, field, nrow = NULL, ncol = NULL) {
  v <- x[[field]]
  if (!is.matrix(v) || !is.numeric(v) || (!is.null(nrow) && nrow(v) != nrow) ||
      (!is.null(ncol) && ncol(v) != ncol))
    bad_field(name, field, sprintf("be a numeric %s x %s matrix",
                                   if (is.null(nrow)) "n" else nrow,
                                   if (is.null(ncol)) "d" else ncol), v)
  if (anyNA(v) || any(!is.finite(v)))
    stop_no_call(sprintf("`%s$%s` must be finite (no NA, NaN or Inf).", name, field))
  invisible(v)
}

need_count <- function(x, name, field, value = NULL, min = 1) {
  v <- x[[field]]
  if (!is.numeric(v) || length(v) != 1L || is.na(v) || !is.finite(v) || v != round(v) || v < min)
    bad_field(name, field, sprintf("be a whole number >= %d", min), v)
  if (!is.null(value) && v != value)
    stop_no_call(sprintf("`%s$%s` is %s but the object's data give %d.", name, field, format(v),
                         as.integer(value)))
  invisible(v)
}

need_string <- function(x, name, field, choices = NULL) {
  v <- x[[field]]
  if (!is.character(v) || length(v) != 1L || is.na(v) || (!is.null(choices) && !v %in% choices))
    bad_field(name, field, if (is.null(choices)) "be a single string" else
      sprintf("be one of %s", paste0('"', choices, '"', collapse = ", ")), v)
  invisible(v)
}

euler_gamma <- 0.5772156649015329

# Honour interrupts and time limits from a long loop written in R (src/util.c).
check_interrupt <- function() invisible(.Call(C_check_interrupt))

or_default <- function(x, default) if (is.null(x)) default else x
