# Validators of the package's objects: what each constructor guarantees,
# re-checked for objects classed by hand or edited after construction, so that
# no broken field reaches the C engines. Each names the broken field as
# `<name>$<field>`. Constructors and the methods that take these objects call
# them on entry.

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

# ---- models ------------------------------------------------------------------

validate_rbm <- function(model, name = "model") {
  need_list(model, name, "rbm()")
  W <- model$W
  if (!is.matrix(W) || !is.numeric(W) || nrow(W) < 1L)
    bad_field(name, "W", "be a numeric n_visible x n_hidden matrix", W)
  if (anyNA(W) || any(!is.finite(W)))
    stop_no_call(sprintf("`%s$W` must be finite (no NA, NaN or Inf).", name))
  need_numeric(model, name, "a", nrow(W))
  need_numeric(model, name, "b", ncol(W))
  need_count(model, name, "n_visible", nrow(W))
  need_count(model, name, "n_hidden", ncol(W), min = 0)
  if (!is.null(model$base_rate)) need_numeric(model, name, "base_rate", nrow(W))
  validate_rbm_training(model, name)
  check_energy_scale(sum(abs(W)) + sum(abs(model$a)) + sum(abs(model$b)),
                     sprintf("The parameters of `%s`", name))
  invisible(model)
}

# The fields rbm_train() adds (each optional): `method`, `history` and
# `log_z_track`, read by the rbm's print, summary and plot methods.
validate_rbm_training <- function(model, name) {
  if (!is.null(model$method)) need_string(model, name, "method")
  h <- model$history
  if (!is.null(model$method) && is.null(h))
    bad_field(name, "history", "be the training history of rbm_train() (a data frame)", h)
  if (!is.null(h) && (!is.data.frame(h) || !"epoch" %in% names(h)))
    bad_field(name, "history", "be a data frame with an `epoch` column", h)
  tr <- model$log_z_track
  if (!is.null(tr) && (!is.data.frame(tr) || !all(c("update", "epoch", "log_z") %in% names(tr))))
    bad_field(name, "log_z_track", "be a data frame with columns update, epoch and log_z", tr)
  invisible(model)
}

validate_ising <- function(model, name = "model") {
  need_list(model, name, "ising()")
  n <- need_count(model, name, "n")
  e <- model$edges
  if (!is.data.frame(e) || !all(c("from", "to", "weight") %in% names(e)))
    bad_field(name, "edges", "be a data frame with columns from, to and weight", e)
  for (col in c("from", "to")) {
    v <- e[[col]]
    if (!is.numeric(v) || anyNA(v) || any(v != round(v)) || any(v < 1 | v > n))
      stop_no_call(sprintf("`%s$edges$%s` must hold whole node indices in 1..%d.", name, col,
                           as.integer(n)))
  }
  if (any(e$from == e$to))
    stop_no_call(sprintf("`%s$edges` has a self edge (row %d).", name, which(e$from == e$to)[1]))
  if (anyDuplicated(pmin(e$from, e$to) * (n + 1) + pmax(e$from, e$to)))
    stop_no_call(sprintf("`%s$edges` couples a pair of nodes twice.", name))
  w <- e$weight
  if (!is.numeric(w) || anyNA(w) || any(!is.finite(w)))
    stop_no_call(sprintf("`%s$edges$weight` must hold finite numbers.", name))
  need_numeric(model, name, "field", n)
  sp <- need_string(model, name, "spins", c("pm1", "01"))
  if (!identical(as.double(model$values), if (sp == "pm1") c(-1, 1) else c(0, 1)))
    bad_field(name, "values", sprintf("be %s for spins = \"%s\"",
                                      if (sp == "pm1") "c(-1, 1)" else "c(0, 1)", sp), model$values)
  col <- model$colour
  if (!is.null(col) && (!is.numeric(col) || length(col) != n || anyNA(col) ||
                        !all(col %in% c(0, 1)) || any(col[e$from] == col[e$to])))
    bad_field(name, "colour", "be NULL or a 0/1 two-colouring of the nodes", col)
  if (!is.null(model$names) && (!is.character(model$names) || length(model$names) != n))
    bad_field(name, "names", sprintf("be NULL or %d node names", as.integer(n)), model$names)
  g <- model$grid
  if (!is.null(g) && (!is.numeric(g) || length(g) != 2L || anyNA(g) || prod(g) != n))
    bad_field(name, "grid", sprintf("be NULL or c(rows, cols) with rows * cols = %d", as.integer(n)), g)
  check_energy_scale(sum(abs(w)) + sum(abs(model$field)),
                     sprintf("The weights and fields of `%s`", name))
  invisible(model)
}

validate_gpc <- function(model, name = "model") {
  need_list(model, name, "gpc()")
  y <- model$y
  if (!is.numeric(y) || length(y) < 2L) bad_field(name, "y", "hold -1/+1 labels", y)
  if (anyNA(y) || any(!y %in% c(-1, 1)))
    stop_no_call(sprintf("`%s$y` must hold only -1/+1 labels; found %s.", name,
                         format(y[is.na(y) | !y %in% c(-1, 1)][1])))
  n <- length(y)
  need_count(model, name, "n", n)
  x <- need_matrix(model, name, "x", nrow = n)
  ls <- model$lengthscale
  if (!is.numeric(ls) || length(ls) != 1L || is.na(ls) || !is.finite(ls) || ls <= 0)
    bad_field(name, "lengthscale", "be a positive finite number", ls)
  a <- model$amplitude
  if (!is.numeric(a) || length(a) != 1L || is.na(a) || !is.finite(a) || a <= 0 ||
      a > gpc_max_amplitude)
    bad_field(name, "amplitude", sprintf("be a positive number at most %g", gpc_max_amplitude), a)
  K <- need_matrix(model, name, "K", n, n)
  if (max(abs(K - gpc_kernel(x, ls, a))) > 1e-8 * a^2)
    stop_no_call(sprintf(paste0("`%s$K` is not the RBF kernel of `%s$x` with its `lengthscale` ",
                                "and `amplitude`; build the model with gpc()."), name, name))
  S <- need_matrix(model, name, "sigma", n, n)
  I1 <- diag(n)
  if (max(abs(S - K - I1)) > 1e-8 * (1 + a^2))
    stop_no_call(sprintf("`%s$sigma` must be `%s$K` plus the identity.", name, name))
  R <- need_matrix(model, name, "chol", n, n)
  v <- sin(seq_len(n))
  if (any(R[lower.tri(R)] != 0) || any(diag(R) <= 0) ||
      max(abs(crossprod(R, R %*% v) - S %*% v)) > 1e-6 * (1 + a^2) * sum(abs(v)))
    stop_no_call(sprintf("`%s$chol` must be the upper Cholesky factor of `%s$sigma`.", name, name))
  invisible(model)
}

validate_mip_model <- function(model, name = "model") {
  need_list(model, name, "mip_model()")
  obj <- need_numeric(model, name, "objective")
  n <- length(obj)
  if (n < 1L) bad_field(name, "objective", "have length >= 1", obj)
  need_count(model, name, "n", n)
  A <- model$A
  if (!is.matrix(A) || !is.numeric(A) || ncol(A) != n)
    bad_field(name, "A", sprintf("be a numeric matrix with %d columns", n), A)
  if (anyNA(A) || any(!is.finite(A)))
    stop_no_call(sprintf("`%s$A` must be finite (no NA, NaN or Inf).", name))
  need_numeric(model, name, "rlo", nrow(A), finite = FALSE)
  need_numeric(model, name, "rhi", nrow(A), finite = FALSE)
  if (any(model$rlo > model$rhi) || any(model$rlo == Inf) || any(model$rhi == -Inf))
    stop_no_call(sprintf("`%s$rlo` and `%s$rhi` must be row bounds with rlo <= rhi.", name, name))
  o <- model$offset
  if (!is.numeric(o) || length(o) != 1L || is.na(o) || !is.finite(o))
    bad_field(name, "offset", "be a finite number", o)
  invisible(model)
}

# ---- A* targets and proposals -------------------------------------------------

validate_proposal <- function(proposal, name = "proposal") {
  need_list(proposal, name, "a proposal constructor such as proposal_normal()")
  d <- need_count(proposal, name, "dim")
  fam <- proposal$family
  if (!is.numeric(fam) || length(fam) != d || anyNA(fam) || !all(fam %in% PROP_FAMILY))
    bad_field(name, "family", sprintf("hold %d family codes in 1..%d", as.integer(d),
                                      length(PROP_FAMILY)), fam)
  need_matrix(proposal, name, "par", 3L, d)
  p <- proposal$par
  pos <- function(row, fams, what) {
    j <- which(fam %in% PROP_FAMILY[fams] & !(p[row, ] > 0))
    if (length(j))
      stop_no_call(sprintf("`%s$par[%d, %d]` (the %s of dimension %d, %s) must be positive, not %s.",
                           name, row, j[1], what, j[1], names(PROP_FAMILY)[fam[j[1]]],
                           format(p[row, j[1]])))
  }
  pos(2L, c("normal", "cauchy", "student"), "scale")
  pos(1L, "exponential", "rate")
  pos(3L, "student", "degrees of freedom")
  j <- which(fam == PROP_FAMILY[["uniform"]] & !(p[1, ] < p[2, ]))
  if (length(j))
    stop_no_call(sprintf("`%s$par` of the uniform dimension %d must have lower < upper, not [%s, %s].",
                         name, j[1], format(p[1, j[1]]), format(p[2, j[1]])))
  invisible(proposal)
}

validate_astar_target <- function(target, name = "target") {
  need_list(target, name, "astar_target()")
  validate_proposal(target$proposal, paste0(name, "$proposal"))
  need_count(target, name, "dim", target$proposal$dim)
  need_string(target, name, "name")
  m <- target$model
  if (!is.numeric(m) || length(m) != 1L || !m %in% ASTAR_MODEL)
    bad_field(name, "model", sprintf("be a model code in %s", paste(ASTAR_MODEL, collapse = ", ")), m)
  if (!is.numeric(target$par) || anyNA(target$par) || any(!is.finite(target$par)))
    bad_field(name, "par", "be a finite numeric vector", target$par)
  d <- target$dim
  kind <- names(ASTAR_MODEL)[match(m, ASTAR_MODEL)]
  need_par <- function(k) if (length(target$par) != k)
    bad_field(name, "par", sprintf("have length %d for model \"%s\"", k, kind), target$par)
  need_X <- function(nc) {
    X <- target$X
    if (!is.matrix(X) || !is.double(X) || ncol(X) != nc || nrow(X) < 1L)
      bad_field(name, "X", sprintf("be a double matrix with %d column%s", nc, if (nc > 1) "s" else ""), X)
    if (anyNA(X) || any(!is.finite(X))) stop_no_call(sprintf("`%s$X` must be finite.", name))
  }
  switch(kind,
    r = for (f in c("log_lik", "bound"))
      if (!is.function(target[[f]])) bad_field(name, f, "be a function", target[[f]]),
    expr = {
      pr <- target$program
      if (!is.list(pr) || !is.integer(pr$op) || !is.integer(pr$arg) ||
          length(pr$op) != length(pr$arg) || !is.double(pr$const) || !is.matrix(pr$data) ||
          !identical(as.integer(pr$dim), as.integer(d)))
        bad_field(name, "program", sprintf("be a compiled %d-D expression (astar_target(expr = ))",
                                           as.integer(d)), pr)
    },
    peaky = {
      need_par(1L)
      if (d != 1L || target$par <= 0)
        stop_no_call(sprintf("`%s` (\"peaky\") must be 1-D with `par` (a) > 0.", name))
    },
    clutter = {
      need_par(2L)
      need_X(d)
      if (!(target$par[1] > 0 && target$par[1] < 1 && target$par[2] > 0))
        stop_no_call(sprintf("`%s$par` (\"clutter\") must be an inlier weight in (0, 1) and a positive sd.",
                             name))
    },
    cauchy_regression = {
      need_par(3L)
      need_X(d)
      if (!target$par[3] %in% GAUSS_BOUND)
        bad_field(name, "par", "end with a bound code (0, 1 or 2)", target$par)
      y <- target$y
      if (!is.double(y) || length(y) != nrow(target$X) || anyNA(y) || any(!is.finite(y)))
        bad_field(name, "y", sprintf("be %d finite numbers (one per row of `X`)", nrow(target$X)), y)
      if (target$par[1] < 0) bad_field(name, "par", "start with a prior sd >= 0", target$par)
    },
    gaussian_mean = {
      need_par(2L)
      need_X(1L)
      if (d != 1L || target$par[1] <= 0 || !target$par[2] %in% GAUSS_BOUND)
        stop_no_call(sprintf("`%s` (\"gaussian_mean\") must be 1-D with a positive sd and a bound code.",
                             name))
    })
  invisible(target)
}

# ---- bases, schedules, results -----------------------------------------------

validate_base <- function(base, name = "base") {
  need_list(base, name, "logz_base()")
  need_string(base, name, "type")
  b <- need_numeric(base, name, "bias")
  need_count(base, name, "n", length(b))
  need_numeric(base, name, "marginals", length(b))
  if (any(base$marginals < 0 | base$marginals > 1))
    bad_field(name, "marginals", "lie in [0, 1]", base$marginals)
  need_numeric(base, name, "log_z0", 1L)
  invisible(base)
}

validate_laplace <- function(fit, name = "base") {
  need_list(fit, name, "laplace_base()")
  d <- need_count(fit, name, "dim")
  need_numeric(fit, name, "mode", d)
  C <- need_matrix(fit, name, "chol_cov", d, d)
  if (any(C[lower.tri(C)] != 0) || any(diag(C) <= 0))
    bad_field(name, "chol_cov", "be an upper-triangular factor with a positive diagonal",
              fit$chol_cov)
  need_numeric(fit, name, "log_det", 1L)
  df <- fit$df
  if (!is.numeric(df) || length(df) != 1L || is.na(df) || !(df > 0))
    bad_field(name, "df", "be a positive number or Inf", df)
  invisible(fit)
}

validate_mip <- function(x, name = "x") {
  need_list(x, name, "mip_sample()")
  v <- x$value
  if (!is.numeric(v) || length(v) < 1L || anyNA(v))
    bad_field(name, "value", "hold the runs' perturbed values (numeric, no NA)", v)
  u <- x$upper
  if (!is.numeric(u) || length(u) != length(v) || anyNA(u))
    bad_field(name, "upper", sprintf("hold %d upper bounds (numeric, no NA)", length(v)), u)
  e <- x$exact
  if (!is.logical(e) || length(e) != length(v) || anyNA(e))
    bad_field(name, "exact", sprintf("be %d TRUE/FALSE values", length(v)), e)
  need_string(x, name, "method")
  invisible(x)
}

# The validator of `x`'s class (nothing for classes without one), for the
# doors of functions that take several kinds of object.
validate_model <- function(x, name = "model") {
  if (inherits(x, "rbm")) validate_rbm(x, name)
  else if (inherits(x, "ising")) validate_ising(x, name)
  else if (inherits(x, "gpc")) validate_gpc(x, name)
  else if (inherits(x, "logz_mip_model")) validate_mip_model(x, name)
  else if (inherits(x, "logz_astar_target")) validate_astar_target(x, name)
  else if (inherits(x, "logz_proposal")) validate_proposal(x, name)
  else if (inherits(x, "logz_base")) validate_base(x, name)
  else if (inherits(x, "logz_laplace")) validate_laplace(x, name)
  else if (inherits(x, "logz_mip")) validate_mip(x, name)
  else if (inherits(x, "logz_schedule")) validate_schedule_object(x, name)
  else if (inherits(x, "logz_bayes_model")) validate_bayes_model(x, name)
  else if (inherits(x, "logz_comparison")) validate_comparison(x, name)
  invisible(x)
}

validate_bayes_model <- function(model, name = "model") {
  need_list(model, name, "bayes_model()")
  for (f in c("log_prior", "log_lik", "prior_sampler"))
    if (!is.function(model[[f]])) bad_field(name, f, "be a function", model[[f]])
  need_count(model, name, "dim")
  for (f in c("vectorized", "has_gradient")) {
    v <- model[[f]]
    if (!is.logical(v) || length(v) != 1L || is.na(v)) bad_field(name, f, "be TRUE or FALSE", v)
  }
  for (f in c("gradient_prior", "gradient_lik")) {
    v <- model[[f]]
    if (if (model$has_gradient) !is.function(v) else !is.null(v))
      bad_field(name, f, if (model$has_gradient) "be a function (`has_gradient` is TRUE)"
                         else "be NULL (`has_gradient` is FALSE)", v)
  }
  invisible(model)
}

# A table of compare_estimates() (class logz_comparison) and its `exact`.
validate_comparison <- function(x, name = "x") {
  if (!is.data.frame(x))
    stop_no_call(sprintf("`%s` must be a data frame as built by compare_estimates(), not %s.",
                         name, describe(unclass(x))))
  if (!is.character(x$name)) bad_field(name, "name", "be a character column", x$name)
  for (f in c("log_z", "se", "conf.low", "conf.high"))
    if (!is.numeric(x[[f]])) bad_field(name, f, "be a numeric column", x[[f]])
  if (any(x$se < 0, na.rm = TRUE)) bad_field(name, "se", "be >= 0 or NA", x$se)
  ex <- attr(x, "exact")
  if (!is.null(ex) && (!is.numeric(ex) || length(ex) != 1L || !is.finite(ex)))
    stop_no_call(sprintf("`attr(%s, \"exact\")` must be NULL or one finite number, not %s.", name,
                         describe(ex)))
  invisible(x)
}

# ---- estimates -----------------------------------------------------------------

# The fields of each estimate class that its methods read, beyond the common
# ones: numeric vectors (`numeric`), c(value, se) pairs (`pairs`), data frames
# (`frames`) and the columns of `diagnostics` (`diag`).
estimate_fields <- list(
  logz_smc = list(numeric = "log_z_runs", pairs = c("ti", "ti_corrected", "stepping_stone"),
                  diag = c("run", "step", "beta", "ess", "log_z")),
  logz_arm = list(numeric = "log_z_runs", diag = c("run", "n", "ess", "log_z")),
  logz_rts = list(numeric = "betas", frames = c("log_z_k", "estimates"), diag = c("sweep", "log_z")),
  logz_ais = list(numeric = "log_weights", diag = c("step", "beta", "ess", "log_z")),
  logz_raise = list(numeric = "log_p", diag = c("example", "log_p", "log_z")),
  logz_astar = list(numeric = "gumbel"))

# A result of an estimator (class logz_estimate) as the methods need it: one
# log Z, an se that is NA or >= 0, the method's name, the time, counts, flags,
# a diagnostics data frame or NULL, and with `fields` the fields of its class
# (estimate_fields) that its print and plot methods read.
validate_estimate <- function(x, name = "x", fields = TRUE) {
  if (inherits(x, "logz_exact")) {
    v <- exact_value(x)
    if (!is.numeric(v) || length(v) != 1L || is.na(v))
      stop_no_call(sprintf("`%s` must be one number (a logz_exact), not %s.", name,
                           describe(unclass(v))))
    if (!identical(as.double(attr(x, "se")), 0))
      stop_no_call(sprintf("`%s$se` must be 0 (an exact value), not %s.", name, describe(attr(x, "se"))))
    return(invisible(x))
  }
  need_list(x, name, "an estimator such as ais(), rts(), arm() or smc()")
  lz <- x$log_z
  if (!is.numeric(lz) || length(lz) != 1L || is.nan(lz))
    bad_field(name, "log_z", "be one number", lz)
  se <- x$se
  if (!(is.numeric(se) || (is.logical(se) && all(is.na(se)))) || length(se) != 1L ||
      (!is.na(se) && se < 0))
    bad_field(name, "se", "be one number >= 0 or NA", se)
  need_string(x, name, "method")
  tm <- x$time
  if (!is.null(tm) && (!is.numeric(tm) && !(is.logical(tm) && all(is.na(tm))) || length(tm) != 1L))
    bad_field(name, "time", "be one number (seconds)", tm)
  if (!is.null(x$counts) && !is.numeric(x$counts))
    bad_field(name, "counts", "be a named numeric vector", x$counts)
  if (!is.character(x$flags)) bad_field(name, "flags", "be a character vector", x$flags)
  r <- x$reliable
  if (!is.logical(r) || length(r) != 1L || is.na(r)) bad_field(name, "reliable", "be TRUE or FALSE", r)
  spec <- if (fields) estimate_fields[[intersect(class(x), names(estimate_fields))[1]]]
  d <- x$diagnostics
  if (!is.data.frame(d) && !(is.null(d) && is.null(spec$diag)))
    bad_field(name, "diagnostics", "be a data frame", d)
  if (is.null(spec)) return(invisible(x))
  for (f in spec$numeric) {
    v <- x[[f]]
    if (!is.numeric(v) || !length(v)) bad_field(name, f, "be a numeric vector", v)
  }
  for (f in spec$pairs) {
    v <- x[[f]]
    if (!is.numeric(v) || length(v) != 2L) bad_field(name, f, "be c(log_z, se)", v)
  }
  for (f in spec$frames) if (!is.data.frame(x[[f]])) bad_field(name, f, "be a data frame", x[[f]])
  miss <- setdiff(spec$diag, names(d))
  if (length(miss))
    stop_no_call(sprintf("`%s$diagnostics` lacks the column%s %s.", name,
                         if (length(miss) > 1L) "s" else "", paste0("`", miss, "`", collapse = ", ")))
  invisible(x)
}

# A schedule object: its betas, and the pilots' table when schedule_pilot()
# chose it (attribute `chosen`).
validate_schedule_object <- function(x, name = "schedule") {
  validate_schedule(as.vector(unclass(x)), name)
  p <- attr(x, "pilot")
  if (!is.null(attr(x, "chosen")) &&
      (!is.data.frame(p) || !all(c("shape", "var_log_w") %in% names(p)) ||
       !is.numeric(attr(x, "pilot_sweeps")) || !is.numeric(attr(x, "budget"))))
    stop_no_call(sprintf(paste0("`attr(%s, \"pilot\")` must be the pilots' table of schedule_pilot() ",
                                "(with its `pilot_sweeps` and `budget`), not %s."), name, describe(p)))
  invisible(x)
}
