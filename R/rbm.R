#' Restricted Boltzmann machines
#'
#' `rbm()` builds a binary restricted Boltzmann machine with joint distribution
#' \deqn{p(v, h) = \exp(v'a + h'b + v'Wh) / Z,\quad v \in \{0,1\}^{n_v}, h \in \{0,1\}^{n_h}.}{p(v, h) = exp(v'a + h'b + v'W h) / Z.}
#' `rbm_base_rate()` builds the base-rate model of Salakhutdinov & Murray
#' (2008): `W = 0`, `b = 0` and visible biases the logits of the smoothed pixel
#' means `(count + 0.05 N) / (1.05 N)`, the usual starting point of AIS.
#'
#' @param W numeric matrix, visible x hidden (`n_visible` rows, `n_hidden`
#'   columns), the couplings. Finite values only.
#' @param a numeric vector of length `n_visible`, the visible biases
#'   (default zeros).
#' @param b numeric vector of length `n_hidden`, the hidden biases (default zeros).
#' @return An object of class `"rbm"`: a list with `W`, `a`, `b`, `n_visible`,
#'   `n_hidden`, and (for trained models) `base_rate` (visible biases of the
#'   training data's base-rate model, used by [ais()] by default), `history`
#'   and `method`.
#' @section Errors: non-numeric or non-finite parameters, `W` not a matrix,
#'   or bias lengths that do not match `W`; parameters whose absolute values
#'   sum beyond 1e300 (energies would overflow double precision). Every method
#'   refuses an `rbm` whose fields were edited into an invalid state, naming
#'   the field (e.g. `model$a` of the wrong length).
#' @references
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
#' @seealso [rbm_train()], [exact_log_z()], [ais()], [free_energy()]
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(12, sd = 0.5), 4, 3), a = rnorm(4), b = rnorm(3))
#' m
#' exact_log_z(m)
#' base <- rbm_base_rate(mnist$x[1:1000, ])
#' base
#' @export
rbm <- function(W, a = NULL, b = NULL) {
  if (!is.matrix(W) || !is.numeric(W))
    stop_no_call(sprintf("`W` must be a numeric matrix (visible x hidden), not %s.", describe(W)))
  if (nrow(W) < 1L)
    stop_no_call("`W` must have at least one row (visible unit).")
  nv <- nrow(W)
  nh <- ncol(W)
  if (is.null(a)) a <- numeric(nv)
  if (is.null(b)) b <- numeric(nh)
  check_finite_numeric(W, "W")
  check_finite_numeric(a, "a", len = nv)
  check_finite_numeric(b, "b", len = nh)
  check_energy_scale(sum(abs(W)) + sum(abs(a)) + sum(abs(b)), "`W`, `a` and `b`")
  storage.mode(W) <- "double"
  dimnames(W) <- NULL
  m <- new_rbm(W, as.double(a), as.double(b))
  validate_rbm(m)
  m
}

new_rbm <- function(W, a, b, ...) {
  structure(list(W = W, a = a, b = b, n_visible = nrow(W), n_hidden = ncol(W), ...),
            class = "rbm")
}

#' @rdname rbm
#' @param data 0/1 matrix or data frame, one example per row (`n_visible`
#'   columns). NA and non-binary values are errors.
#' @param n_hidden number of hidden units of the returned model (their weights
#'   and biases are zero; the base rate model's hidden layer only adds
#'   `n_hidden * log(2)` to log Z).
#' @export
rbm_base_rate <- function(data, n_hidden = 0L) {
  data <- as_binary_matrix(data, "data")
  n_hidden <- check_count(n_hidden, "n_hidden", min = 0L)
  a0 <- base_rate_bias(data)
  m <- new_rbm(matrix(0, ncol(data), n_hidden), a0, numeric(n_hidden))
  validate_rbm(m)
  m
}

base_rate_bias <- function(data) {
  n <- nrow(data)
  p <- (colSums(data) + 0.05 * n) / (1.05 * n)
  log(p) - log1p(-p)
}

is_rbm <- function(x) inherits(x, "rbm")

check_rbm <- function(model, name = "model") {
  if (!is_rbm(model))
    stop_no_call(sprintf("`%s` must be an rbm (see rbm() or rbm_train()), not %s.", name,
                         describe(model)))
  validate_rbm(model, name)
}

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
