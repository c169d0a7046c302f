# Validators of the package's objects: what each constructor guarantees,
# re-checked for objects classed by hand or edited after construction, so that
# no broken field reaches the C engines. Each names the broken field as
# `<name>$<field>`. Constructors and the methods that take these objects call
# them on entry. The validator of a model built in the models layer sits beside
# its constructor (validate_rbm() in R/rbm.R, ...); this file holds
# validate_model(), which dispatches to them, and the validators of objects
# whose constructors run an engine (bases, MIP models, samples, comparisons).
# The field checks they share (need_*(), bad_field()) are in R/utils.R.

# ---- models ------------------------------------------------------------------

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

# ---- bases and results -------------------------------------------------------

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

# ---- estimates as arguments -----------------------------------------------------

# `x` must be a logz_estimate whose common fields (log Z, se, method, flags)
# are sound; with `fields`, also those its class's own print and plot methods
# read (estimate_fields in R/estimate.R).
check_estimate <- function(x, name = "x", fields = FALSE) {
  if (inherits(x, "logz_mip")) validate_mip(x, name)
  if (!inherits(x, "logz_estimate"))
    stop_no_call(sprintf("`%s` must be a logz_estimate (a result of ais(), rts(), arm(), ...), not %s.",
                         name, describe(x)))
  validate_estimate(x, name, fields)
}
