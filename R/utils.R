# Internal helpers: errors, argument checks, numerics, RNG state, progress.

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

check_count <- function(x, name, min = 1L, max = .Machine$integer.max) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
      x != round(x) || x < min || x > max) {
    stop_no_call(sprintf("`%s` must be a whole number between %s and %s, not %s.",
                         name, format(min), format(max), describe(x)))
  }
  as.integer(x)
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
  if (!all(data == 0 | data == 1))
    stop_no_call(sprintf("`%s` must be binary (0/1); found values such as %s.", name,
                         format(data[which(data != 0 & data != 1)[1]])))
  if (!is.null(n_col) && ncol(data) != n_col)
    stop_no_call(sprintf("`%s` must have %d columns (one per visible unit), not %d.",
                         name, n_col, ncol(data)))
  storage.mode(data) <- "double"
  dimnames(data) <- NULL
  data
}

softplus <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))

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

# Evaluate `expr` with the global RNG seeded by `seed`, restoring the previous
# state afterwards (`seed = NULL`: use and advance the global RNG as usual).
with_seed <- function(seed, expr) {
  if (is.null(seed)) return(expr)
  seed <- check_count(seed, "seed", min = -.Machine$integer.max)
  old <- if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
    get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    if (is.null(old)) rm(".Random.seed", envir = globalenv())
    else assign(".Random.seed", old, envir = globalenv())
  })
  set.seed(seed)
  expr
}

check_threads <- function(threads) check_count(threads, "threads", min = 1L, max = 1024L)

# A text progress bar on stderr-like console output, or a no-op.
progress_bar <- function(show, max) {
  if (!isTRUE(show) || max < 1) return(list(update = function(i) NULL, close = function() NULL))
  pb <- utils::txtProgressBar(min = 0, max = max, style = 3)
  list(update = function(i) utils::setTxtProgressBar(pb, i), close = function() close(pb))
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
    if (!is.na(s)) hints <- c(hints, if (length(named) > 1L)
      sprintf("`%s` (for `%s`)", s, nm) else sprintf("`%s`", s))
  }
  if (length(hints)) msg <- paste0(msg, " Did you mean ", paste(hints, collapse = ", "), "?")
  stop_no_call(msg)
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
