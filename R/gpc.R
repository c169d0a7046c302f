#' Gaussian-process probit classification models
#'
#' `gpc()` builds a Gaussian-process classifier with probit likelihood,
#' \eqn{p(y_i | f_i) = \Phi(y_i f_i)}, \eqn{y_i \in \{-1, +1\}}, and prior
#' \eqn{f \sim N(0, K)} with the RBF covariance
#' \deqn{K_{ij} = \sigma^2 \exp(-|x_i - x_j|^2 / (2 \ell^2)).}{K_ij = amplitude^2 exp(-|x_i - x_j|^2 / (2 lengthscale^2)).}
#' Its evidence \eqn{Z = p(y) = \int \prod_i \Phi(y_i f_i) N(f; 0, K) df} is,
#' writing the probit as unit Gaussian noise \eqn{z = f + \epsilon}, the
#' orthant probability \eqn{P(y_i z_i > 0 \ \forall i)} with
#' \eqn{z \sim N(0, K + I)} (Fraccaro, Paquet & Winther 2016, Eq. 10). The
#' model stores \eqn{K}, \eqn{K + I} and its upper Cholesky factor (LAPACK
#' `dpotrf` through [chol()]). Estimate log Z with [arm()], [ais()] or
#' [ep_log_z()].
#'
#' @param formula a formula `response ~ inputs`. The response is a factor with
#'   two levels (the first is class -1, the second +1), a logical (`TRUE` is
#'   +1) or numeric with values -1 and +1, and both classes must occur. Inputs
#'   are taken from the model frame as for [lm()]: numeric columns, factors
#'   expanded into contrasts, no intercept.
#' @param data a data frame (or list / environment) holding the variables.
#' @param lengthscale the RBF length scale \eqn{\ell > 0}, in the units of the
#'   inputs.
#' @param amplitude the RBF amplitude \eqn{\sigma > 0} (the prior standard
#'   deviation of each \eqn{f_i}), at most \eqn{1/\sqrt{\epsilon} \approx 6.7 \times 10^7}
#'   (beyond it \eqn{\sigma^2} swamps the unit probit noise in double precision).
#' @param subset an optional vector selecting rows of `data`, as in [lm()].
#' @param na.action what to do with missing values, e.g. [na.omit]; when not
#'   given, missing values in the variables used are an error.
#' @return An object of class `"gpc"`: a list with `x` (n x d input matrix),
#'   `y` (labels in -1/+1), `levels` (the response's class labels for -1 and
#'   +1), `K` (n x n prior covariance), `sigma` (\eqn{K + I}), `chol` (upper
#'   Cholesky factor of `sigma`), `lengthscale`, `amplitude`, `n`, `terms`,
#'   `call`.
#' @section Errors: `lengthscale` or `amplitude` not a positive finite number;
#'   `amplitude` above \eqn{6.7 \times 10^7};
#'   a response with other than two classes (e.g. only one class present) or
#'   numeric values other than -1/+1; missing values in the variables used when
#'   `na.action` is not given; non-numeric inputs other than factors; fewer
#'   than two rows. Every method refuses a `gpc` whose fields were edited (labels
#'   other than -1/+1 in `y`, a `K` that is not the kernel of `x`, a `sigma` or
#'   `chol` that does not match), naming the field.
#' @references
#' * Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive resample-move
#'   algorithm for estimating normalizing constants. arXiv:1604.01972 (Section 4, Eq.
#'   10).
#' * Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian Processes for Machine
#'   Learning. MIT Press (Chapter 3).
#' @seealso [ep_log_z()], [arm()], [ais.gpc()]
#' @examples
#' d <- data.frame(x1 = c(-2, -1.5, -1, 0.5, 1, 2), x2 = c(0, 1, 0, 1, 0, 1),
#'                 cls = factor(c("a", "a", "a", "b", "b", "b")))
#' m <- gpc(cls ~ x1 + x2, d, lengthscale = 1, amplitude = 2)
#' m
#' ep_log_z(m)
#' @export
gpc <- function(formula, data, lengthscale, amplitude = 1, subset, na.action) {
  call <- match.call()
  if (missing(formula) || !inherits(formula, "formula"))
    stop_no_call("`formula` must be a formula `response ~ inputs`.")
  if (missing(lengthscale))
    stop_no_call("`lengthscale` must be given (a positive number).")
  lengthscale <- check_number(lengthscale, "lengthscale", lower = 0, lower_open = TRUE)
  amplitude <- check_number(amplitude, "amplitude", lower = 0, lower_open = TRUE,
                            upper = gpc_max_amplitude)
  no_na_action <- missing(na.action)
  mf <- match.call(expand.dots = FALSE)
  mf <- mf[c(1L, match(c("formula", "data", "subset", "na.action"), names(mf), 0L))]
  mf$drop.unused.levels <- TRUE
  if (no_na_action) mf$na.action <- quote(stats::na.pass)
  mf[[1L]] <- quote(stats::model.frame)
  mf <- eval(mf, parent.frame())
  if (no_na_action && anyNA(mf)) {
    bad <- names(mf)[vapply(mf, anyNA, logical(1))]
    stop_no_call(sprintf(paste0("`data` has missing values in %s (variables of `formula`); ",
                                "remove them or pass `na.action = na.omit`."),
                         paste(bad, collapse = ", ")))
  }
  tt <- attr(mf, "terms")
  if (attr(tt, "response") == 0L)
    stop_no_call("`formula` must have a response (class labels) on its left-hand side.")
  yl <- gpc_response(stats::model.response(mf), deparse(formula[[2L]]))
  attr(tt, "intercept") <- 0L
  x <- stats::model.matrix(tt, mf)
  attr(x, "assign") <- NULL
  attr(x, "contrasts") <- NULL
  if (ncol(x) == 0L) stop_no_call("`formula` must have at least one input on its right-hand side.")
  if (!all(is.finite(x)))
    stop_no_call("the inputs of `formula` must be finite (found NA, NaN or infinite values).")
  if (nrow(x) < 2L) stop_no_call(sprintf("`data` must have at least two rows, not %d.", nrow(x)))
  new_gpc(x, yl$y, yl$levels, lengthscale, amplitude, terms = tt, call = call)
}

# Labels -1/+1 from a two-class response (named `name` in messages).
gpc_response <- function(r, name) {
  what <- sprintf("The response `%s` of `formula`", name)
  if (is.factor(r)) {
    r <- droplevels(r)
    if (nlevels(r) != 2L)
      stop_no_call(sprintf("%s must have two classes; found %d (%s).", what, nlevels(r),
                           paste(levels(r), collapse = ", ")))
    return(list(y = unname(ifelse(as.integer(r) == 2L, 1, -1)), levels = levels(r)))
  }
  if (is.logical(r)) {
    if (length(unique(r)) != 2L)
      stop_no_call(sprintf("%s must have two classes; found only %s.", what, format(r[1])))
    return(list(y = unname(ifelse(r, 1, -1)), levels = c("FALSE", "TRUE")))
  }
  if (is.numeric(r) && is.null(dim(r))) {
    if (!all(r %in% c(-1, 1)))
      stop_no_call(sprintf("%s must be -1/+1 when numeric; found %s.", what,
                           format(r[!r %in% c(-1, 1)][1])))
    if (length(unique(r)) != 2L)
      stop_no_call(sprintf("%s must have two classes; found only %s.", what, format(r[1])))
    return(list(y = unname(as.double(r)), levels = c("-1", "1")))
  }
  stop_no_call(sprintf("%s must be a two-level factor, logical or -1/+1, not %s.", what,
                       describe(r)))
}

# Above 1 / sqrt(eps) (6.7e7) the prior variance amplitude^2 swamps the unit
# variance of the probit noise in K + I (the 1 is lost in double precision),
# the Cholesky factor of K + I is that of a singular K, and the likelihood
# terms log Phi(y f) reach -amplitude^2 / 2: EP and AIS lose all accuracy
# (and amplitude^2 overflows beyond 1.3e154).
gpc_max_amplitude <- 1 / sqrt(.Machine$double.eps)

new_gpc <- function(x, y, levels, lengthscale, amplitude, ...) {
  K <- gpc_kernel(x, lengthscale, amplitude)
  sigma <- K
  diag(sigma) <- diag(sigma) + 1
  structure(list(x = x, y = y, levels = levels, K = K, sigma = sigma, chol = chol(sigma),
                 lengthscale = lengthscale, amplitude = amplitude, n = length(y), ...),
            class = "gpc")
}

# The RBF covariance amplitude^2 exp(-|x_i - x_j|^2 / (2 lengthscale^2)). The
# inputs are first scaled by a power of two (exact) into [-1, 1] and centred,
# and the distances are taken from coordinate differences (stats::dist), so
# that neither a common shift of the inputs (cancellation in |x|^2 - 2 x'y)
# nor inputs near the double range (overflow of squared distances) change K.
gpc_kernel <- function(x, lengthscale, amplitude) {
  m <- max(abs(x))
  s <- if (m > 0) 2^min(ceiling(log2(m)), 1023) else 1
  xs <- x / s
  xs <- xs - rep(colMeans(xs), each = nrow(xs))
  d2 <- as.matrix(stats::dist(xs))^2
  r <- (s / lengthscale)^2
  E <- d2 * r / 2
  E[d2 == 0] <- 0
  K <- amplitude^2 * exp(-E)
  if (!is.null(rownames(x))) dimnames(K) <- list(rownames(x), rownames(x))
  diag(K) <- amplitude^2
  K
}

is_gpc <- function(x) inherits(x, "gpc")

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
