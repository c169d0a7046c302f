# plot() for every logz_estimate: the default method (the estimate with its
# interval) and the methods of the estimators with traces (ais, ais on a
# function, arm, raise, rts, smc). The samplers', comparisons', schedules' and
# RBMs' plots are in R/plot_samples.R; autoplot() follows the same split.

#' Plot a log Z estimate
#'
#' The default `plot()` for any [logz_estimate] (exact values, EP, RAISE,
#' the MIP baselines, ...): the estimate on a log Z axis (nats) with its 95%
#' normal interval \eqn{\pm 1.96\,\mathrm{se}} when a standard error is
#' available, the 3-sd bounds where the estimator reports them (AIS), and an
#' upper bound where only one is known (Perturb-and-MAP). Estimators with
#' traces have richer methods: [plot.logz_ais()], [plot.logz_arm()],
#' [plot.logz_rts()], [plot.logz_samples()], [mip_sample()] (bounds, cost).
#' RAISE results ([raise()]) add `type = "examples"` (the implied log Z of
#' each example, with the mean and its 95% interval) and `type = "ess"` (the
#' per-example ESS as a fraction of the chains, with the 0.1 line under which
#' the weights are unreliable).
#'
#' @param x a `logz_estimate`.
#' @param type `"estimate"` (all classes); for RAISE also `"examples"` (the
#'   default) or `"ess"`.
#' @param main,xlab titles; `NULL` for the default.
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' m <- rbm(matrix(c(0.5, -0.3, 0.2, 0.1), 2, 2))
#' plot(log_partition(m))                  # the exact value
#' set.seed(1)
#' plot(log_partition(m, method = "ais", n_chains = 30, progress = FALSE,
#'                    schedule = schedule_linear(50)), type = "estimate")
#' @export
plot.logz_estimate <- function(x, type = "estimate", main = NULL, xlab = "log Z (nats)", ...) {
  check_estimate(x, "x")
  if (!identical(type, "estimate"))
    stop_no_call(sprintf("`type` must be \"estimate\" for a %s result, not %s.", class(x)[1],
                         describe(type)))
  est <- as.double(x$log_z)
  se <- as.double(if (is.null(x$se)) NA_real_ else x$se)
  ci <- if (is.finite(se) && se > 0) est + c(-1, 1) * stats::qnorm(0.975) * se else NULL
  bnd <- x$bounds[is.finite(x$bounds)]
  upper <- x$log_z_upper
  vals <- c(est, ci, bnd, upper)
  vals <- vals[is.finite(vals)]
  if (!length(vals)) vals <- 0
  xlim <- range(vals) + c(-1, 1) * max(0.05 * diff(range(vals)), 0.05 * max(1, abs(vals)), 1e-3)
  if (is.null(main))
    main <- if (is.finite(est))
      sprintf("%s: log Z = %.4f%s", x$method, est,
              if (is.finite(se) && se > 0) sprintf(" (se %.4f)", se) else "")
    else sprintf("%s: no log Z estimate", x$method)
  plot(xlim, c(0, 1), type = "n", yaxt = "n", xlab = xlab, ylab = "", main = main, ...)
  leg <- list(txt = character(), lty = integer(), pch = integer(), col = character())
  add <- function(txt, lty, pch, col) {
    leg$txt <<- c(leg$txt, txt); leg$lty <<- c(leg$lty, lty)
    leg$pch <<- c(leg$pch, pch); leg$col <<- c(leg$col, col)
  }
  if (!is.null(ci)) {
    graphics::segments(ci[1], 0.5, ci[2], 0.5, lwd = 3, col = "steelblue")
    add("95% interval (1.96 se)", 1L, NA_integer_, "steelblue")
  }
  if (length(bnd)) {
    graphics::abline(v = bnd, lty = 2, col = "grey40")
    add("3-sd bounds", 2L, NA_integer_, "grey40")
  }
  if (!is.null(upper) && is.finite(upper)) {
    graphics::points(upper, 0.5, pch = 25, bg = "red", col = "red")
    add("upper bound on log Z", NA_integer_, 25L, "red")
  }
  if (is.finite(est)) {
    exact <- inherits(x, "logz_exact")
    graphics::points(est, 0.5, pch = if (exact) 18 else 19, cex = 1.5)
    add(if (exact) "exact value" else "estimate", NA_integer_, if (exact) 18L else 19L, "black")
  }
  if (length(leg$txt))
    graphics::legend("topright", legend = leg$txt, lty = leg$lty, pch = leg$pch, col = leg$col,
                     pt.bg = leg$col, bty = "n", lwd = ifelse(is.na(leg$lty), NA, 2))
  invisible(x)
}

#' @rdname plot.logz_estimate
#' @export
plot.logz_raise <- function(x, type = c("examples", "ess", "estimate"), main = NULL,
                            xlab = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, "estimate", main = main, ...))
  d <- x$diagnostics
  M <- x$counts[["chains"]]
  if (type == "examples") {
    ci <- x$log_z + c(-1, 1) * stats::qnorm(0.975) * x$se
    yl <- range(d$log_z, ci[is.finite(ci)])
    yl[2] <- yl[2] + 0.3 * diff(yl)           # room for the legend
    plot(d$example, d$log_z, type = "n", ylim = yl, xlab = or_default(xlab, "example"),
         ylab = "implied log Z (nats)",
         main = or_default(main, sprintf("RAISE: implied log Z per example (mean %.4f)", x$log_z)),
         ...)
    if (all(is.finite(ci)))
      graphics::rect(0, ci[1], nrow(d) + 1, ci[2], col = grDevices::adjustcolor("steelblue", 0.25),
                     border = NA)
    graphics::points(d$example, d$log_z, pch = 20)
    graphics::abline(h = x$log_z, col = "steelblue", lwd = 2)
    graphics::legend("topright", c("example", "mean", "95% interval of the mean"),
                     pch = c(20, NA, 15), lty = c(NA, 1, NA), lwd = c(NA, 2, NA),
                     col = c("black", "steelblue", grDevices::adjustcolor("steelblue", 0.25)),
                     pt.cex = c(1, 1, 2), bty = "n", horiz = FALSE)
  } else {
    plot(d$example, d$ess / M, type = "n", ylim = c(0, 1), xlab = or_default(xlab, "example"),
         ylab = "ESS / chains",
         main = or_default(main, sprintf("RAISE: ESS per example (M = %d chains)", M)),
         ...)
    graphics::points(d$example, d$ess / M, pch = 20)
    graphics::abline(h = 0.1, lty = 2, col = "red")
    graphics::legend("right", c("example", "0.1 (unreliable below)"), pch = c(20, NA),
                     lty = c(NA, 2), col = c("black", "red"), bg = "white", box.col = NA)
  }
  invisible(x)
}

#' Plot an AIS run
#'
#' @param x a `logz_ais` result.
#' @param type `"ess"` (ESS of the on-the-fly weights as a fraction of the M
#'   chains against beta, with the 0.1 line under which the weights are
#'   unreliable), `"log_z"` (running estimate of log \eqn{Z_\beta} in nats
#'   against beta, with the final 3-sd bounds), `"weights"` (histogram of the
#'   final log weights relative to their maximum), `"schedule"` (beta against
#'   step) or `"estimate"` (see [plot.logz_estimate()]).
#' @param main the title; `NULL` for the default (method and key figures).
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(40, sd = 0.3), 10, 4))
#' fit <- ais(m, schedule_linear(200), n_chains = 50, progress = FALSE)
#' plot(fit, type = "ess")
#' plot(fit, type = "log_z")
#' @export
plot.logz_ais <- function(x, type = c("ess", "log_z", "weights", "schedule", "estimate"),
                          main = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  d <- x$diagnostics
  M <- x$counts[["chains"]]
  switch(type,
    ess = {
      plot(d$beta, d$ess / M, type = "n", ylim = c(0, 1), xlab = expression(beta),
           ylab = "ESS / M (on-the-fly weights)",
           main = or_default(main, sprintf("%s: effective sample size (M = %d chains)",
                                           x$method, M)), ...)
      graphics::lines(d$beta, d$ess / M)
      graphics::abline(h = 0.1, lty = 2, col = "red")
      legend_free(list(list(x = d$beta, y = d$ess / M), list(h = 0.1)),   # R/plot_legend.R
                  c("ESS / M", "0.1 (unreliable below)"), lty = c(1, 2), col = c("black", "red"),
                  bty = "n")
    },
    log_z = {
      fin <- x$bounds[is.finite(x$bounds)]
      rng <- range(d$log_z, fin)
      rng[2] <- rng[2] + 0.4 * diff(rng)      # room for the legend above the data
      plot(d$beta, d$log_z, type = "n", ylim = rng, xlab = expression(beta),
           ylab = expression("running estimate of log " * Z[beta] * " (nats)"),
           main = or_default(main, sprintf("%s: running log Z (final %.4f, se %.4f)", x$method,
                                           x$log_z, x$se)),
           ...)
      graphics::lines(d$beta, d$log_z)
      graphics::abline(h = fin, lty = 2, col = "grey40")
      legend_free(list(list(x = d$beta, y = d$log_z), list(h = fin)),
                  c("running estimate", "final 3-sd bounds"), lty = c(1, 2),
                  col = c("black", "grey40"), bty = "n")
    },
    weights = {
      lw <- x$log_weights - max(x$log_weights)
      graphics::hist(lw, breaks = "FD", xlab = "log weight - max log weight (nats)",
                     ylab = "chains",
                     main = or_default(main, sprintf("%s: final log weights (ESS %.1f of %d)",
                                                     x$method, x$ess, M)),
                     ...)
    },
    schedule = {
      plot(d$step, d$beta, type = "n", xlab = "step k", ylab = expression(beta[k]),
           main = or_default(main, sprintf("%s: %s schedule, %d steps", x$method,
                                          attr(x$schedule, "name"), nrow(d))), ...)
      graphics::lines(d$step, d$beta)
    },
    estimate = plot.logz_estimate(x, main = main, ...))
  invisible(x)
}

#' @rdname ais_function
#' @param x a `logz_ais_function` result.
#' @param type `"ess"`, `"log_z"`, `"weights"`, `"schedule"`, `"estimate"`
#'   (see [plot.logz_ais()]) or `"accept"`.
#' @param main the title; `NULL` for the default.
#' @export
plot.logz_ais_function <- function(x, type = c("ess", "log_z", "weights", "schedule", "accept",
                                               "estimate"), main = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  if (type != "accept") return(NextMethod(type = type, main = main))
  d <- x$diagnostics[!is.na(x$diagnostics$accept), ]
  op <- graphics::par(mar = c(5, 4, 4, 4) + 0.1)
  on.exit(graphics::par(op))
  plot(d$beta, d$accept, type = "n", ylim = c(0, 1), xlab = expression(beta),
       ylab = "Metropolis acceptance fraction",
       main = or_default(main, sprintf("AIS on an R log density: acceptance (%s step scale)",
                                       x$adapt)), ...)
  graphics::lines(d$beta, d$accept)
  graphics::abline(h = x$target_accept, lty = 2, col = "red")
  s <- d$step_scale
  rs <- range(s)
  if (diff(rs) == 0) rs <- rs * c(0.5, 1.5)
  graphics::lines(d$beta, (s - rs[1]) / diff(rs), col = "steelblue", lty = 3, lwd = 2)
  at <- pretty(rs)
  at <- at[at >= rs[1] & at <= rs[2]]
  graphics::axis(4, at = (at - rs[1]) / diff(rs), labels = format(at), col.axis = "steelblue")
  graphics::mtext(expression("step scale " * s[k] * " (right axis)"), side = 4, line = 2.5,
                  col = "steelblue")
  legend_free(list(list(x = d$beta, y = d$accept), list(h = x$target_accept),   # R/plot_legend.R
                   list(x = d$beta, y = (s - rs[1]) / diff(rs))),
              c("acceptance", sprintf("target %.2f", x$target_accept), "step scale"),
              lty = c(1, 2, 3), lwd = c(1, 1, 2), col = c("black", "red", "steelblue"), bty = "n")
  invisible(x)
}

#' Plot an RTS run
#'
#' @param x a `logz_rts` result.
#' @param type `"ladder"` (\eqn{\log Z_k} against \eqn{\beta_k} with 2-se bars,
#'   minus the straight line between its ends so the curvature shows; `exact`
#'   values overlaid if given), `"c_hat"` (\eqn{\hat c_k} of each initial
#'   iteration and of the final run against the prior \eqn{r_k} and the
#'   visit-deficit threshold \eqn{r_k / 10} of the warning, log scale) or
#'   `"trace"` (the RTS estimate of log Z over the final run's sweeps).
#' @param exact optional exact \eqn{\log Z_k} in nats (numeric, length K) for
#'   `type = "ladder"`.
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- ising_grid(3, 3, coupling = 0.3)
#' fit <- rts(m, K = 10, n_chains = 10, sweeps = 200, progress = FALSE)
#' plot(fit, type = "c_hat")
#' plot(fit, type = "trace")
#' @export
plot.logz_rts <- function(x, type = c("ladder", "c_hat", "trace"), exact = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  d <- x$log_z_k
  K <- nrow(d)
  if (!is.null(exact) && (!is.numeric(exact) || length(exact) != K))
    stop_no_call(sprintf("`exact` must be a numeric vector of length K = %d (log Z_k), not %s.",
                         K, describe(exact)))
  switch(type,
    ladder = {
      line <- d$log_z[1] + (d$log_z[K] - d$log_z[1]) * d$beta
      y <- d$log_z - line
      lo <- y - 2 * d$se
      hi <- y + 2 * d$se
      rng <- range(lo, hi, if (!is.null(exact)) exact - line, na.rm = TRUE)
      plot(d$beta, y, type = "n", ylim = rng, xlab = expression("inverse temperature " * beta[k]),
           ylab = expression(log ~ Z[k] ~ "- chord (nats)"),
           main = expression("RTS ladder: log " * Z[k] * " minus the chord between its ends"), ...)
      graphics::segments(d$beta, lo, d$beta, hi, col = "grey60")
      graphics::points(d$beta, y, pch = 20, cex = 0.6)
      if (!is.null(exact)) graphics::lines(d$beta, exact - line, col = "red")
      bars <- list(x = rep(d$beta, each = 3L), y = as.vector(rbind(lo, hi, NA)))
      legend_free(c(list(list(x = d$beta, y = y, points = TRUE), bars),   # R/plot_legend.R
                    if (!is.null(exact)) list(list(x = d$beta, y = exact - line))),
                  bty = "n", cex = 0.8,
                  legend = c("RTS (Eq. 12)", "+/- 2 se", if (!is.null(exact)) "exact"),
                  pch = c(20, NA, if (!is.null(exact)) NA),
                  lty = c(NA, 1, if (!is.null(exact)) 1),
                  col = c("black", "grey60", if (!is.null(exact)) "red"))
    },
    c_hat = {
      cc <- rbind(x$init$c_hat, d$c_hat)
      cc[cc <= 0] <- NA
      floor_line <- d$prior / 10
      rng <- range(cc, d$prior, floor_line, na.rm = TRUE)
      plot(d$k, d$prior, type = "n", log = "y", ylim = rng,
           xlab = "temperature index k (beta from 0 to 1)",
           ylab = expression(hat(c)[k] ~ "(probability, log scale)"),
           main = expression("Temperature marginals " * hat(c)[k] * " against the prior " * r[k]),
           ...)
      n <- nrow(cc)
      cols <- grDevices::gray(seq(0.8, 0.3, length.out = max(n - 1L, 1L)))
      for (i in seq_len(n - 1L)) graphics::lines(d$k, cc[i, ], col = cols[i])
      graphics::lines(d$k, cc[n, ], col = "blue", lwd = 2)
      graphics::lines(d$k, d$prior, col = "red", lty = 2)
      graphics::lines(d$k, floor_line, col = "orange", lty = 3)
      drawn <- c(lapply(seq_len(n), function(i) list(x = d$k, y = cc[i, ])),
                 list(list(x = d$k, y = d$prior), list(x = d$k, y = floor_line)))
      legend_free(drawn, bty = "n", cex = 0.8,   # R/plot_legend.R
                  legend = c(if (n > 1L) "initial iterations (light to dark)", "final run",
                             expression("prior " * r[k]),
                             expression("visit-deficit threshold " * r[k] / 10)),
                  lty = c(if (n > 1L) 1, 1, 2, 3), lwd = c(if (n > 1L) 1, 2, 1, 1),
                  col = c(if (n > 1L) "grey50", "blue", "red", "orange"))
    },
    trace = {
      tr <- x$diagnostics
      plot(tr$sweep, tr$log_z, type = "l", xlab = "sweeps of the final run (per chain)",
           ylab = "RTS estimate of log Z (nats)",
           main = "RTS estimate of log Z over the final run", ...)
      graphics::abline(h = x$log_z + c(-2, 2) * x$se, lty = 2, col = "grey40")
      legend_free(list(list(x = tr$sweep, y = tr$log_z), list(h = x$log_z + c(-2, 2) * x$se)),
                  bty = "n", cex = 0.8,   # R/plot_legend.R
                  legend = c("running estimate", "final +/- 2 se"),
                  lty = c(1, 2), col = c("black", "grey40"))
    })
  invisible(x)
}

# Why MBAR has no se in a printed RTS result.
rts_mbar_no_se <- function(x) or_default(x$mbar_se_note, "not available")

#' Plot an adaptive resample-move run
#'
#' @param x a `logz_arm` result.
#' @param type `"particles"` (particles used R_n against iteration n),
#'   `"ess"` (ESS of the smoothed weights as a fraction gamma of R_n, with the
#'   gamma threshold), `"log_z"` (running estimate of log Z_n, nats) or
#'   `"estimate"` (see [plot.logz_estimate()]).
#' @param main the title; `NULL` for the default.
#' @param run `NULL` (default: with `repeats > 1`, the median over the runs
#'   with a band from the smallest to the largest) or the number of one run.
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' fit <- arm(ising_grid(3, 4, coupling = 0.6), particles = 100, repeats = 3,
#'            progress = FALSE)
#' plot(fit, type = "particles")
#' plot(fit, type = "ess")
#' plot(fit, type = "log_z", run = 2)
#' @export
plot.logz_arm <- function(x, type = c("particles", "ess", "log_z", "estimate"), run = NULL,
                          main = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, main = main, ...))
  runs <- sort(unique(x$diagnostics$run))
  if (!is.null(run)) {
    run <- check_count(run, "run", max = max(runs))
    runs <- run
  }
  d <- x$diagnostics[x$diagnostics$run %in% runs, ]
  col <- switch(type, particles = "particles", ess = "gamma", log_z = "log_z")
  n <- sort(unique(d$n))
  Y <- vapply(runs, function(j) {
    dj <- d[d$run == j, ]
    dj[[col]][match(n, dj$n)]
  }, numeric(length(n)))
  Y <- matrix(Y, length(n))
  band <- ncol(Y) > 1L
  mid <- apply(Y, 1L, stats::median, na.rm = TRUE)
  lo <- apply(Y, 1L, min, na.rm = TRUE)
  hi <- apply(Y, 1L, max, na.rm = TRUE)
  ylab <- switch(type, particles = expression("particles " * R[n]),
                 ess = expression(gamma == R[eff] / R[n]),
                 log_z = expression("running estimate of log " * Z[n] * " (nats)"))
  main <- if (!is.null(main)) main else
    switch(type, particles = sprintf("%s: particles per iteration", x$method),
                 ess = sprintf("%s: ESS fraction of the smoothed weights", x$method),
                 log_z = sprintf("%s: running log Z (final %.4f)", x$method,
                                 if (band) x$log_z else x$log_z_runs[runs[1]]))
  ylim <- if (type == "ess") c(0, 1) else range(lo, hi, finite = TRUE)
  plot(range(n), ylim, type = "n", xlab = "iteration n (variables added)", ylab = ylab,
       main = main, ...)
  ltype <- if (type == "particles") "s" else "l"
  txt <- if (band) sprintf("median over %d runs", ncol(Y)) else sprintf("run %d", runs[1])
  lty <- 1
  lcol <- "black"
  if (band) {
    xs <- if (ltype == "s") rep(n, each = 2)[-1] else n
    st <- function(v) if (ltype == "s") rep(v, each = 2)[-2 * length(v)] else v
    graphics::polygon(c(xs, rev(xs)), c(st(lo), rev(st(hi))),
                      col = grDevices::adjustcolor("steelblue", 0.3), border = NA)
    txt <- c(txt, "min-max over runs")
    lty <- c(lty, NA)
    lcol <- c(lcol, grDevices::adjustcolor("steelblue", 0.3))
  }
  graphics::lines(n, mid, type = ltype)
  if (type == "ess") {
    graphics::abline(h = x$gamma_threshold, lty = 2, col = "red")
    txt <- c(txt, sprintf("threshold gamma = %g (resample below)", x$gamma_threshold))
    lty <- c(lty, 2)
    lcol <- c(lcol, "red")
  }
  drawn <- list(list(x = n, y = mid))
  if (band)   # the band's edges and interior
    drawn <- c(drawn, lapply(c(0, 0.25, 0.5, 0.75, 1), function(f)
      list(x = n, y = lo + f * (hi - lo))))
  if (type == "ess") drawn <- c(drawn, list(list(h = x$gamma_threshold)))
  legend_free(drawn, txt, lty = lty, col = lcol, pch = ifelse(is.na(lty), 15, NA), pt.cex = 2,
              bty = "n")   # R/plot_legend.R
  invisible(x)
}

#' Plot an adaptive tempering SMC run
#'
#' @param x a `logz_smc` result.
#' @param type `"schedule"` (the betas each replicate chose against the
#'   temperature index), `"ess"` (the ESS fraction after each reweighting,
#'   with the resampling threshold), `"log_z"` (the running log Z of each
#'   replicate against beta), `"ti"` (the weighted mean of the log ratio
#'   \eqn{\ell} against beta, whose integral is thermodynamic integration's
#'   log Z), `"accept"` (mean acceptance at each temperature, with its
#'   target) or `"estimate"` (see [plot.logz_estimate()]).
#' @param main the title; `NULL` for the default.
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' f <- function(x) -sum(x^2) / 2
#' set.seed(1)
#' fit <- smc(f, gradient = function(x) -x, start = c(1, 1), particles = 100, progress = FALSE)
#' plot(fit, type = "schedule")
#' plot(fit, type = "ti")
#' @export
plot.logz_smc <- function(x, type = c("schedule", "ess", "log_z", "ti", "accept", "estimate"),
                          main = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, main = main, ...))
  d <- x$diagnostics
  runs <- sort(unique(d$run))
  xcol <- if (type == "schedule") "step" else "beta"
  ycol <- switch(type, schedule = "beta", ess = "ess", log_z = "log_z", ti = "mean_ell",
                 accept = "accept")
  y <- d[[ycol]]
  if (type == "ess") y <- y / x$counts[["particles"]]
  keep <- is.finite(y)
  ylim <- switch(type, ess = c(0, 1), accept = c(0, 1), range(y[keep]))
  ylab <- switch(type, schedule = expression(beta), ess = "ESS / N after reweighting",
                 log_z = "running log Z (nats)",
                 ti = expression("weighted mean of " * ell * " = log f - log " * p[0]),
                 accept = "mean acceptance")
  main <- or_default(main, switch(type,
    schedule = sprintf("SMC: temperatures chosen (CESS %g)", x$cess),
    ess = "SMC: ESS after each reweighting", log_z = sprintf("SMC: running log Z (final %.4f)", x$log_z),
    ti = sprintf("SMC: thermodynamic integrand (TI %.4f)", x$ti[["log_z"]]),
    accept = "SMC: acceptance of the moves"))
  plot(range(d[[xcol]][keep]), ylim, type = "n",
       xlab = if (xcol == "step") "temperature index" else expression(beta), ylab = ylab,
       main = main, ...)
  cols <- grDevices::hcl.colors(max(length(runs), 2L), "Dark 3")
  drawn <- list()
  for (j in seq_along(runs)) {
    dj <- d[d$run == runs[j] & is.finite(d[[ycol]]), ]
    yj <- dj[[ycol]]
    if (type == "ess") yj <- yj / x$counts[["particles"]]
    graphics::lines(dj[[xcol]], yj, col = cols[j], type = if (type == "schedule") "s" else "l")
    drawn[[j]] <- list(x = dj[[xcol]], y = yj)
  }
  if (type == "ess") graphics::abline(h = x$resample_threshold, lty = 2, col = "red")
  if (type == "accept") graphics::abline(h = x$target_accept, lty = 2, col = "red")
  h <- switch(type, ess = x$resample_threshold, accept = x$target_accept, NULL)
  legend_free(c(drawn, if (!is.null(h)) list(list(h = h))),   # R/plot_legend.R
              sprintf("%d replicate%s", length(runs), if (length(runs) == 1L) "" else "s"),
              lty = 1, col = cols[1], bty = "n")
  invisible(x)
}
