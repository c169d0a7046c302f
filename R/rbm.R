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
#' @references Salakhutdinov, R. and Murray, I. (2008). On the quantitative
#'   analysis of deep belief networks. ICML.
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

#' @export
print.rbm <- function(x, ...) {
  check_dots_used(...)
  validate_rbm(x, "x")
  cat(sprintf("<rbm> %d visible x %d hidden units\n", x$n_visible, x$n_hidden))
  if (!is.null(x$method)) {
    h <- x$history
    cat(sprintf("  trained by %s for %d epochs", x$method, nrow(h)))
    if (nrow(h)) cat(sprintf(" (final reconstruction error %.3f, %.1f s)",
                             h$reconstruction_error[nrow(h)], sum(h$time)))
    cat("\n")
  }
  if (!is.null(x$log_z_track) && nrow(x$log_z_track)) {   # rbm_train(track_log_z = TRUE)
    h <- x$history
    cat(sprintf("  log Z tracked by RTS at %d steps: %.3f nats at the end (tracking %.0f%% of the time)\n",
                nrow(x$log_z_track), x$log_z_track$log_z[nrow(x$log_z_track)],
                100 * sum(h$track_time) / max(sum(h$time), 1e-9)))
    tr <- x$log_z_track
    cat(sprintf("  (se %.3f); %s\n", tr$se[nrow(tr)], if (length(x$track_flags))
      paste("unreliable:", paste(x$track_flags, collapse = "; ")) else "no tracking flags"))
  }
  if (x$n_hidden > 0)
    cat(sprintf("  |W| mean %.4g, max %.4g; a in [%.3g, %.3g]; b in [%.3g, %.3g]\n",
                mean(abs(x$W)), max(abs(x$W)), min(x$a), max(x$a), min(x$b), max(x$b)))
  else cat(sprintf("  product of Bernoullis; a in [%.3g, %.3g]\n", min(x$a), max(x$a)))
  invisible(x)
}

#' @export
summary.rbm <- function(object, ...) {
  check_dots_used(...)
  validate_model(object, "object")
  print(object, ...)
  invisible(object)
}

#' Plot a trained RBM
#'
#' @param x an `rbm`.
#' @param type `"history"` (per epoch: the train and validation
#'   log-likelihood for models trained with `rbm_train(track_log_z = TRUE)`,
#'   else the reconstruction error; for trained models), `"log_z"` (the
#'   tracked log Z after every tracking step of `rbm_train(track_log_z =
#'   TRUE)`, with the checks of `track$check_every` as points) or `"filters"` (the weights of the first hidden units as images,
#'   for 784-visible MNIST models or any square number of visible units).
#' @param n_filters number of hidden units to show with `type = "filters"`.
#' @param ... passed to the base graphics calls.
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 16, epochs = 2, progress = FALSE)
#' plot(m)
#' plot(m, type = "filters")
#' @export
plot.rbm <- function(x, type = c("history", "log_z", "filters"), n_filters = 16L, ...) {
  validate_model(x, "x")
  type <- match_arg(type, "type")
  if (type == "log_z") {
    d <- rbm_log_z_track_data(x)
    plot(d$track$update, d$track$log_z, type = "l", col = "blue",
         ylim = range(d$track$log_z, d$check$log_z), xlab = "parameter update",
         ylab = "log Z (nats)", main = "RBM training: log Z tracked by RTS", ...)
    if (nrow(d$check)) graphics::points(d$check$update, d$check$log_z, pch = 19, col = "red")
    graphics::legend("bottomright", c("RTS (tracked)", if (nrow(d$check)) "check (exact / AIS)"),
                     col = c("blue", if (nrow(d$check)) "red"), lty = c(1, if (nrow(d$check)) NA),
                     pch = c(NA, if (nrow(d$check)) 19), bty = "n")
    return(invisible(x))
  }
  if (type == "history") {
    h <- x$history
    if (is.null(h) || nrow(h) == 0L)
      stop_no_call("This rbm has no training history; use `type = \"filters\"`.")
    if (!is.null(h$train_ll) && any(!is.na(h$train_ll))) {
      # log-likelihood tracked by rbm_train(track_log_z = TRUE) (RTS, every epoch) or by its
      # held-out check (exact / AIS log Z, every `eval_every` epochs: only those rows)
      how <- if (is.null(h$log_z_method)) "RTS" else
        paste(unique(stats::na.omit(h$log_z_method)), collapse = "/")
      h <- h[!is.na(h$train_ll), , drop = FALSE]
      has_valid <- !is.null(h$valid_ll) && any(!is.na(h$valid_ll))
      rng <- range(h$train_ll, if (has_valid) h$valid_ll, na.rm = TRUE)
      plot(h$epoch, h$train_ll, type = "n", ylim = rng, xlab = "epoch",
           ylab = "mean log-likelihood (nats per example)",
           main = sprintf("RBM training: log-likelihood per epoch (log Z by %s)", how), ...)
      graphics::lines(h$epoch, h$train_ll, col = "blue")
      graphics::points(h$epoch, h$train_ll, pch = 20, col = "blue")
      if (has_valid) {
        graphics::lines(h$epoch, h$valid_ll, col = "red")
        graphics::points(h$epoch, h$valid_ll, pch = 20, col = "red")
      }
      graphics::legend("bottomright", c("train", if (has_valid) "validation"),
                       col = c("blue", if (has_valid) "red"), lty = 1, pch = 20, bty = "n")
      return(invisible(x))
    }
    plot(h$epoch, h$reconstruction_error, type = "n", xlab = "epoch",
         ylab = "reconstruction error (per example)",
         main = "RBM training: reconstruction error per epoch", ...)
    graphics::lines(h$epoch, h$reconstruction_error)
    graphics::points(h$epoch, h$reconstruction_error, pch = 20)
  } else {
    side <- filter_side(x)
    k <- filter_count(x, n_filters)
    nc <- ceiling(sqrt(k))
    nr <- ceiling(k / nc)
    op <- graphics::par(mfrow = c(nr, nc), mar = c(0.2, 0.2, 0.2, 0.2), oma = c(0, 0, 2.5, 0))
    on.exit(graphics::par(op))
    for (j in seq_len(k)) {
      img <- matrix(x$W[, j], side, side, byrow = TRUE)[, side:1]
      graphics::image(img, col = grDevices::gray.colors(64, 0, 1), axes = FALSE, ...)
    }
    graphics::title(sprintf("RBM filters: weights of the first %d hidden units (black low, white high)",
                            k), outer = TRUE)
  }
  invisible(x)
}

#' Free energy of an RBM
#'
#' The free energy \eqn{F(v) = -v'a - \sum_j \log(1 + e^{b_j + v'W_j})}{F(v) = -v'a - sum_j softplus(b_j + v'W_j)}
#' of each visible vector, so that `log p(v) = -F(v) - log Z`.
#'
#' @param model an `rbm`.
#' @param data 0/1 matrix or data frame with `n_visible` columns (or one 0/1
#'   vector of length `n_visible`).
#' @return numeric vector, one free energy (in nats) per row of `data`.
#' @section Errors: `data` with NA, non-binary values, or the wrong number of
#'   columns.
#' @examples
#' m <- rbm(matrix(0.1, 784, 2))
#' head(free_energy(m, mnist$x[1:5, ]))
#' @export
free_energy <- function(model, data) UseMethod("free_energy")

#' @export
free_energy.rbm <- function(model, data) {
  validate_model(model)
  data <- as_binary_matrix(data, "data", n_col = model$n_visible)
  lin <- drop(data %*% model$a)
  if (model$n_hidden == 0L) return(-lin)
  pre <- data %*% model$W
  pre <- sweep(pre, 2L, model$b, `+`)
  -lin - rowSums(softplus(pre))
}

#' Average log-likelihood of data under an RBM
#'
#' `mean(-free_energy(model, data)) - log_z`: the average log-probability per
#' example, in nats.
#'
#' With `method = "sandwich"`, log Z is estimated twice: by [ais()] (whose
#' estimate is stochastically too low, so the log-likelihood it implies is an
#' upper estimate) and by [raise()] from the examples themselves (a stochastic
#' lower bound of the log-likelihood), as Burda, Grosse & Salakhutdinov (2015)
#' propose. The pair brackets the truth on average when the annealed model
#' (the distribution of AIS's forward chain) fits `data` no worse than the model
#' does, which holds for data drawn from the model and usually for real data
#' with a long enough schedule, but not always: with a short schedule and a model
#' with mass far from the data, RAISE's bound can exceed the true
#' log-likelihood (see [raise()], "What it bounds").
#'
#' @param model an `rbm`.
#' @param data 0/1 matrix or data frame with `n_visible` columns.
#' @param log_z the log partition function: a number, or a `logz_estimate`
#'   (e.g. from [ais()]); when missing, [exact_log_z()] is used (small models
#'   only) with `method = "plain"`, and [ais()] is run with `method =
#'   "sandwich"` (an AIS estimate given here is used instead).
#' @param per_example if `TRUE`, return one log-likelihood per row instead of
#'   the average (with `method = "sandwich"`, the interval is then a matrix with
#'   one row per example).
#' @param method `"plain"` (one log Z) or `"sandwich"` (AIS and RAISE).
#' @param ... with `method = "sandwich"`: arguments for [ais()] and [raise()]
#'   (`schedule`, `n_chains`, `sweeps_per_step`, `base`, `threads`, `progress`;
#'   without `schedule`, RAISE runs the schedule AIS's pilot chose, see
#'   [schedule_pilot()]);
#'   `n_chains` is the number of AIS chains and `raise_chains` (default 10) the
#'   number of RAISE chains per example.
#' @return A number (or a vector with `per_example = TRUE`). When `log_z` is an
#'   AIS estimate with `bounds`, the attribute `"bounds"` gives the matching
#'   interval of the average log-likelihood (the lower log Z bound gives the upper
#'   log-likelihood bound). With `method = "sandwich"`, the number is the
#'   AIS-based value and the attributes are `"interval"` (`c(lower = <RAISE>,
#'   upper = <AIS>)`, or an `nrow(data)` x 2 matrix with columns `lower`,
#'   `upper` when `per_example = TRUE`), `"crossed"` (one value, or one per
#'   example with `per_example = TRUE`), `"flags"`, `"ais"` and `"raise"` (the
#'   two fits). Both ends are stochastic: they bracket the truth
#'   on average, and a single pair can cross when both are within their Monte
#'   Carlo error of the truth. An inverted interval is never returned: when the
#'   RAISE lower end comes out above the AIS upper end, `"crossed"` is `TRUE`,
#'   the interval is the union of the two ends widened by 2 se each
#'   (\eqn{[\min(l - 2 se_l, u - 2 se_u), \max(l + 2 se_l, u + 2 se_u)]}, with
#'   the AIS se as \eqn{se_u}; \eqn{se_l} is the RAISE se over examples for the
#'   average, and for each example with `per_example = TRUE` that example's own
#'   Monte Carlo se over its RAISE chains, the `se` column of the RAISE fit's
#'   `diagnostics`), and a "sandwich crossed" flag
#'   (in `"flags"`, warned with class `logz_unreliable`) says by how much and
#'   whether the crossing lies within 3 combined se (noise) or beyond (a bias;
#'   see [logz_reliability]).
#' @section Errors: bad `data` (see [free_energy()]); `log_z` not a finite
#'   number or estimate; a missing `log_z` for a model too large to enumerate;
#'   with `method = "sandwich"`, a `log_z` that is not an [ais()] estimate.
#' @references Burda, Y., Grosse, R. B. and Salakhutdinov, R. (2015). Accurate
#'   and conservative estimates of MRF log-likelihood using reverse annealing.
#'   AISTATS.
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' log_likelihood(m, mnist$x[501:600, ])
#' log_likelihood(m, mnist$x[501:510, ], method = "sandwich",
#'                schedule = schedule_linear(100), n_chains = 50, progress = FALSE)
#' @export
log_likelihood <- function(model, data, log_z, per_example = FALSE,
                           method = c("plain", "sandwich"), ...) {
  check_rbm(model)
  method <- match_arg(method, "method")
  if (method == "plain") check_dots_used(...)
  check_own_argument_names(...names(), c("per_example", "log_z", "data"), "log_likelihood")
  check_flag(per_example, "per_example")
  if (method == "sandwich")
    return(log_likelihood_sandwich(model, data, if (missing(log_z)) NULL else log_z,
                                   per_example = per_example, ...))
  bounds <- NULL
  if (missing(log_z)) {
    log_z <- exact_log_z(model)
  } else if (inherits(log_z, "logz_estimate")) {
    bounds <- log_z$bounds
    log_z <- log_z$log_z
  }
  check_number(log_z, "log_z")
  ll <- -free_energy(model, data) - log_z
  if (per_example) return(ll)
  out <- mean(ll)
  if (!is.null(bounds)) attr(out, "bounds") <- c(lower = out + log_z - bounds[[2]],
                                                 upper = out + log_z - bounds[[1]])
  out
}

log_likelihood_sandwich <- function(model, data, log_z, per_example = FALSE,
                                    schedule = NULL, n_chains = 100L,
                                    raise_chains = 10L, ...) {
  data <- as_binary_matrix(data, "data", n_col = model$n_visible)
  fit_ais <- if (is.null(log_z)) {
    ais(model, schedule = schedule, n_chains = n_chains, ...)
  } else if (inherits(log_z, "logz_ais")) {
    log_z
  } else {
    stop_no_call(sprintf(paste0("`log_z` must be an ais() estimate (or missing) with ",
                                "`method = \"sandwich\"`, not %s."), describe(log_z)))
  }
  # RAISE runs the schedule AIS ran (chosen by AIS's pilot by default)
  if (is.null(schedule)) schedule <- fit_ais$schedule
  fit_raise <- raise(model, data, schedule = schedule, n_chains = raise_chains, ...)
  neg_f <- -free_energy(model, data)
  avg <- sandwich_check(fit_raise$log_likelihood, mean(neg_f) - fit_ais$log_z, fit_raise$se,
                        fit_ais$se)
  if (per_example) {
    upper <- neg_f - fit_ais$log_z
    # per example: the RAISE end's own Monte Carlo se over its chains (R/raise.R),
    # and the AIS se (the upper ends share the one log Z estimate)
    pe <- sandwich_check(fit_raise$log_p, upper, fit_raise$diagnostics$se, fit_ais$se)
    interval <- pe$interval
    crossed <- pe$crossed
  } else {
    upper <- mean(neg_f) - fit_ais$log_z
    interval <- avg$interval[1, ]
    crossed <- avg$crossed
  }
  structure(upper, interval = interval, crossed = crossed, flags = avg$flag, ais = fit_ais,
            raise = fit_raise)
}

#' @rdname exact_log_z
#' @export
exact_log_z.rbm <- function(model, layer = c("auto", "hidden", "visible"),
                            max_states = 2^26, threads = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  layer <- match_arg(layer, "layer")
  validate_rbm(model)
  check_number(max_states, "max_states", lower = 1)
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  t0 <- proc.time()[["elapsed"]]
  done <- function(lz, how) logz_exact_of(lz, how, proc.time()[["elapsed"]] - t0, match.call())
  nv <- model$n_visible
  nh <- model$n_hidden
  if (nh == 0L || all(model$W == 0))
    return(done(sum(softplus(model$a)) + sum(softplus(model$b)), "closed form (no couplings)"))
  if (layer == "auto") layer <- if (nh <= nv) "hidden" else "visible"
  n <- if (layer == "hidden") nh else nv
  if (n > 40 || 2^n > max_states)
    stop_no_call(sprintf(paste0("exact_log_z(): enumerating the %s layer needs 2^%d states, ",
                                "more than `max_states` = %s. Use ais() for this model, ",
                                "or raise `max_states`."), layer, n, format(max_states)))
  how <- sprintf("enumeration of the 2^%d states of the %s layer", n, layer)
  if (progress && n >= chunk_min_units) return(done(rbm_exact_chunked(model, layer, threads), how))
  done(rbm_exact_log_z(model$W, model$a, model$b, layer, threads), how)
}

# The layer of an RBM that rbm_exact_log_z() enumerates (enum logz_rbm_layer in
# src/logz.h); the other is summed out in closed form.
RBM_LAYER <- c(hidden = 0L, visible = 1L)

# log Z of the RBM (W: nv x nh, a: nv, b: nh) by enumerating `layer` (a name of
# RBM_LAYER; at most 40 units) on `threads` threads (src/rbm.c).
rbm_exact_log_z <- function(W, a, b, layer, threads) {
  if (!is.matrix(W)) internal_error("`W` must be a matrix.")
  a <- internal_double(a, "a", nrow(W))
  b <- internal_double(b, "b", ncol(W))
  layer <- internal_code(layer, RBM_LAYER, "layer")
  if ((if (layer == RBM_LAYER[["hidden"]]) ncol(W) else nrow(W)) > 40L)
    internal_error("enumeration is for at most 40 units.")
  .Call(C_rbm_exact_log_z, internal_double(W, "W"), a, b, layer,
        internal_count(threads, "threads"))
}

# The filters plots (plot.rbm, autoplot.rbm): the side of the square image of
# the visible units, and how many hidden units to show.
filter_side <- function(x) {
  side <- round(sqrt(x$n_visible))
  if (side * side != x$n_visible)
    stop_no_call(sprintf("`type = \"filters\"` needs a square number of visible units, not %d.",
                         x$n_visible))
  side
}

filter_count <- function(x, n_filters) {
  k <- min(check_count(n_filters, "n_filters"), x$n_hidden)
  if (k < 1L) stop_no_call("This rbm has no hidden units to show.")
  k
}

# The tracked log Z of rbm_train(track_log_z = TRUE) for plot(type = "log_z"):
# list(track (update, log_z), check (update, log_z: the epochs' checks)).
rbm_log_z_track_data <- function(x) {
  tr <- x$log_z_track
  if (is.null(tr) || !nrow(tr))
    stop_no_call("This rbm has no tracked log Z; train it with rbm_train(track_log_z = TRUE).")
  h <- x$history
  last <- tapply(tr$update, tr$epoch, max)
  ok <- if (is.null(h$check_log_z)) logical(0) else !is.na(h$check_log_z)
  check <- data.frame(update = as.numeric(last[as.character(h$epoch[ok])]),
                      log_z = h$check_log_z[ok])
  list(track = tr, check = check)
}
