# autoplot() methods (ggplot2, in Suggests): the same pictures as plot() for
# every logz_estimate, registered only when ggplot2 is installed (roxygen
# @exportS3Method writes a delayed S3method(ggplot2::autoplot, ...)).

#' ggplot2 versions of the logz plots
#'
#' When ggplot2 is installed, `ggplot2::autoplot()` draws the pictures of the
#' `plot()` methods as `ggplot` objects that can be themed and combined, with
#' the same `type`s, titles, axis labels, legends and threshold lines: for AIS
#' (all models, [plot.logz_ais()]) the ESS as a fraction of M against beta
#' with the 0.1 line, the running log Z with the 3-sd bounds, the final log
#' weights or the schedule, and for [ais.function()] also the Metropolis
#' acceptance with its target and the step scale; for ARM/RM
#' ([plot.logz_arm()]) the ESS fraction gamma with its threshold, the running
#' log Z or the particle count, as the median over the repeats with a min-max
#' band; for RAISE the implied log Z per example or the per-example ESS; for
#' RTS ([plot.logz_rts()]) the ladder, the temperature marginals or the trace;
#' for any estimate (`type = "estimate"`) the value with its 95% interval.
#' The samplers ([plot.logz_samples()], [mip_sample()]), comparisons
#' ([compare_estimates()]), schedules ([plot.logz_schedule()]) and RBMs
#' ([plot.rbm()]) have methods too (see [autoplot.logz_samples()]).
#'
#' @param object a `logz_estimate`.
#' @param type as for the `plot()` method of the class; `"estimate"` for all
#'   estimates except RTS.
#' @param exact RTS `type = "ladder"`: optional exact \eqn{\log Z_k} (nats,
#'   length K).
#' @param ... ignored (an error if named arguments are given).
#' @return A `ggplot` object.
#' @section Errors: a `type` the class does not have (naming the choices).
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   m <- rbm(matrix(rnorm(40, sd = 0.3), 10, 4))
#'   fit <- ais(m, schedule_linear(100), n_chains = 30, progress = FALSE)
#'   ggplot2::autoplot(fit)
#'   ggplot2::autoplot(fit, type = "ess")
#' }
#' @name autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_estimate <- function(object, type = "estimate", ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  if (!identical(type, "estimate"))
    stop_no_call(sprintf("`type` must be \"estimate\" for a %s result, not %s.", class(object)[1],
                         describe(type)))
  se <- if (is.null(object$se)) NA_real_ else object$se
  exact <- inherits(object, "logz_exact")
  pts <- data.frame(x = c(object$log_z, object$log_z_upper), y = object$method,
                    what = c(if (exact) "exact value" else "estimate",
                             if (!is.null(object$log_z_upper)) "upper bound on log Z"))
  pts <- pts[is.finite(pts$x), , drop = FALSE]
  p <- ggplot2::ggplot(pts, ggplot2::aes(x = .data$x, y = .data$y)) +
    ggplot2::geom_point(ggplot2::aes(shape = .data$what), size = 3) +
    ggplot2::scale_shape_manual(values = c("estimate" = 19, "exact value" = 18,
                                           "upper bound on log Z" = 25)) +
    ggplot2::labs(x = "log Z (nats)", y = NULL, colour = NULL, shape = NULL,
                  title = if (is.finite(object$log_z))
                    sprintf("%s: log Z = %.4f", object$method, object$log_z)
                  else sprintf("%s: no log Z estimate", object$method)) +
    legend_below()
  if (is.finite(se) && se > 0) {
    ci <- data.frame(y = object$method, lo = object$log_z - stats::qnorm(0.975) * se,
                     hi = object$log_z + stats::qnorm(0.975) * se)
    p <- p + ggplot2::geom_errorbarh(ggplot2::aes(xmin = .data$lo, xmax = .data$hi,
                                                  y = .data$y, colour = "95% interval (1.96 se)"),
                                     data = ci, height = 0.2, inherit.aes = FALSE) +
      ggplot2::scale_colour_manual(values = "steelblue")
  }
  p
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_ais <- function(object, type = c("ess", "log_z", "weights", "schedule", "estimate"),
                              ...) {
  check_estimate(object, "object", fields = TRUE)
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  d <- object$diagnostics
  M <- object$counts[["chains"]]
  if (type == "weights") {
    lw <- data.frame(lw = object$log_weights - max(object$log_weights))
    return(ggplot2::ggplot(lw, ggplot2::aes(x = .data$lw)) +
      ggplot2::geom_histogram(bins = max(5L, min(50L, grDevices::nclass.FD(lw$lw))),
                              fill = "grey70", colour = "grey40") +
      ggplot2::labs(x = "log weight - max log weight (nats)", y = "chains",
                    title = sprintf("%s: final log weights (ESS %.1f of %d)", object$method,
                                    object$ess, M)) +
      legend_below())
  }
  if (type == "schedule")
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$step, y = .data$beta)) +
      ggplot2::geom_line() +
      ggplot2::labs(x = "step k", y = expression(beta[k]),
                    title = sprintf("%s: %s schedule, %d steps", object$method,
                                    attr(object$schedule, "name"), nrow(d))) +
      legend_below())
  if (type == "ess") {
    d$y <- d$ess / M
    lab <- c("ESS / M", "0.1 (unreliable below)")
    ggplot2::ggplot(d, ggplot2::aes(x = .data$beta, y = .data$y)) +
      ggplot2::geom_line(ggplot2::aes(linetype = lab[1], colour = lab[1])) +
      ggplot2::geom_hline(ggplot2::aes(yintercept = 0.1, linetype = lab[2], colour = lab[2])) +
      ggplot2::scale_linetype_manual(values = stats::setNames(c(1, 2), lab)) +
      ggplot2::scale_colour_manual(values = stats::setNames(c("black", "red"), lab)) +
      ggplot2::coord_cartesian(ylim = c(0, 1)) +
      ggplot2::labs(x = expression(beta), y = "ESS / M (on-the-fly weights)", linetype = NULL,
                    colour = NULL,
                    title = sprintf("%s: effective sample size (M = %d chains)", object$method, M)) +
      legend_below()
  } else {
    ggplot2::ggplot(d, ggplot2::aes(x = .data$beta, y = .data$log_z)) +
      ggplot2::geom_line(ggplot2::aes(linetype = "running estimate")) +
      ggplot2::geom_hline(ggplot2::aes(yintercept = .data$b, linetype = "final 3-sd bounds"),
                          data = data.frame(b = object$bounds[is.finite(object$bounds)]),
                          colour = "grey40") +
      ggplot2::scale_linetype_manual(values = c("running estimate" = 1,
                                                "final 3-sd bounds" = 2)) +
      ggplot2::labs(x = expression(beta), y = "running estimate of log Z (nats)",
                    linetype = NULL, title = sprintf("%s: running log Z", object$method)) +
      legend_below()
  }
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_arm <- function(object, type = c("ess", "log_z", "particles", "estimate"), ...) {
  check_estimate(object, "object", fields = TRUE)
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  col <- switch(type, particles = "particles", ess = "gamma", log_z = "log_z")
  d <- object$diagnostics
  s <- do.call(rbind, lapply(split(d[[col]], d$n), function(v)
    data.frame(mid = stats::median(v), lo = min(v), hi = max(v))))
  s$n <- as.numeric(names(split(d[[col]], d$n)))
  R <- length(unique(d$run))
  p <- ggplot2::ggplot(s, ggplot2::aes(x = .data$n)) +
    ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$lo, ymax = .data$hi,
                                      fill = sprintf("min-max over %d runs", R)), alpha = 0.3) +
    ggplot2::geom_line(ggplot2::aes(y = .data$mid, linetype = "median over runs",
                                    colour = "median over runs")) +
    ggplot2::scale_fill_manual(values = "steelblue") +
    ggplot2::labs(x = "iteration n (variables added)", fill = NULL, linetype = NULL, colour = NULL,
                  y = switch(type, particles = "particles R_n", ess = "gamma = R_eff / R_n",
                             log_z = "running estimate of log Z_n (nats)"),
                  title = sprintf("%s: %s", object$method,
                                  switch(type, particles = "particles per iteration",
                                         ess = "ESS fraction of the smoothed weights",
                                         log_z = "running log Z"))) +
    legend_below()
  if (type == "ess")
    p <- p + ggplot2::geom_hline(ggplot2::aes(yintercept = object$gamma_threshold,
                                              linetype = "gamma threshold",
                                              colour = "gamma threshold")) +
      ggplot2::scale_linetype_manual(values = c("median over runs" = 1, "gamma threshold" = 2)) +
      ggplot2::scale_colour_manual(values = c("median over runs" = "black",
                                              "gamma threshold" = "red")) +
      ggplot2::coord_cartesian(ylim = c(0, 1))
  else
    p <- p + ggplot2::scale_linetype_manual(values = c("median over runs" = 1)) +
      ggplot2::scale_colour_manual(values = c("median over runs" = "black"))
  p
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_ais_function <- function(object, type = c("ess", "log_z", "weights", "schedule",
                                                        "accept", "estimate"), ...) {
  check_estimate(object, "object", fields = TRUE)
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type != "accept") return(autoplot.logz_ais(object, type))
  d <- object$diagnostics[!is.na(object$diagnostics$accept), ]
  rs <- range(d$step_scale)
  if (diff(rs) == 0) rs <- rs * c(0.5, 1.5)
  lab <- c("acceptance", sprintf("target %.2f", object$target_accept), "step scale (right axis)")
  long <- data.frame(beta = d$beta, y = c(d$accept, (d$step_scale - rs[1]) / diff(rs)),
                     what = rep(lab[c(1, 3)], each = nrow(d)))
  ggplot2::ggplot(long, ggplot2::aes(x = .data$beta, y = .data$y)) +
    ggplot2::geom_line(ggplot2::aes(linetype = .data$what, colour = .data$what)) +
    ggplot2::geom_hline(ggplot2::aes(yintercept = object$target_accept, linetype = lab[2],
                                     colour = lab[2])) +
    ggplot2::scale_linetype_manual(values = stats::setNames(c(1, 2, 3), lab)) +
    ggplot2::scale_colour_manual(values = stats::setNames(c("black", "red", "steelblue"), lab)) +
    ggplot2::scale_y_continuous(limits = c(0, 1), sec.axis = ggplot2::sec_axis(
      ~ . * diff(rs) + rs[1], name = "step scale s_k")) +
    ggplot2::labs(x = expression(beta), y = "Metropolis acceptance fraction", linetype = NULL,
                  colour = NULL, title = sprintf("AIS on an R log density: acceptance (%s step scale)",
                                                 object$adapt)) +
    legend_below()
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_raise <- function(object, type = c("examples", "ess", "estimate"), ...) {
  check_estimate(object, "object", fields = TRUE)
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  d <- object$diagnostics
  M <- object$counts[["chains"]]
  if (type == "ess") {
    lab <- c("example", "0.1 (unreliable below)")
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$example, y = .data$ess / M)) +
      ggplot2::geom_point(ggplot2::aes(shape = lab[1])) +
      ggplot2::geom_hline(ggplot2::aes(yintercept = 0.1, linetype = lab[2]), colour = "red") +
      ggplot2::scale_shape_manual(values = stats::setNames(20, lab[1])) +
      ggplot2::scale_linetype_manual(values = stats::setNames(2, lab[2])) +
      ggplot2::coord_cartesian(ylim = c(0, 1)) +
      ggplot2::labs(x = "example", y = "ESS / chains", shape = NULL, linetype = NULL,
                    title = sprintf("RAISE: ESS per example (M = %d chains)", M)) +
      legend_below())
  }
  ci <- object$log_z + c(-1, 1) * stats::qnorm(0.975) * object$se
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$example, y = .data$log_z))
  if (all(is.finite(ci)))
    p <- p + ggplot2::geom_rect(ggplot2::aes(xmin = -Inf, xmax = Inf, ymin = ci[1], ymax = ci[2],
                                             fill = "95% interval of the mean"),
                                data = data.frame(x = 1), inherit.aes = FALSE, alpha = 0.25) +
      ggplot2::scale_fill_manual(values = "steelblue")
  p + ggplot2::geom_point(ggplot2::aes(shape = "example")) +
    ggplot2::geom_hline(ggplot2::aes(yintercept = object$log_z, linetype = "mean"),
                        colour = "steelblue", linewidth = 1) +
    ggplot2::scale_shape_manual(values = c(example = 20)) +
    ggplot2::labs(x = "example", y = "implied log Z (nats)", shape = NULL, linetype = NULL,
                  fill = NULL, title = sprintf("RAISE: implied log Z per example (mean %.4f)",
                                               object$log_z)) +
    legend_below()
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_rts <- function(object, type = c("ladder", "c_hat", "trace", "estimate"),
                              exact = NULL, ...) {
  check_estimate(object, "object", fields = TRUE)
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  d <- object$log_z_k
  K <- nrow(d)
  if (!is.null(exact) && (!is.numeric(exact) || length(exact) != K))
    stop_no_call(sprintf("`exact` must be a numeric vector of length K = %d (log Z_k), not %s.",
                         K, describe(exact)))
  if (type == "ladder") {
    line <- d$log_z[1] + (d$log_z[K] - d$log_z[1]) * d$beta
    l <- data.frame(beta = d$beta, y = d$log_z - line, lo = d$log_z - line - 2 * d$se,
                    hi = d$log_z - line + 2 * d$se)
    p <- ggplot2::ggplot(l, ggplot2::aes(x = .data$beta, y = .data$y)) +
      ggplot2::geom_errorbar(ggplot2::aes(ymin = .data$lo, ymax = .data$hi,
                                          colour = "+/- 2 se (Eq. 16)"), width = 0) +
      ggplot2::geom_point(ggplot2::aes(colour = "RTS (Eq. 12)"), size = 1)
    cols <- c("RTS (Eq. 12)" = "black", "+/- 2 se (Eq. 16)" = "grey60")
    if (!is.null(exact)) {
      p <- p + ggplot2::geom_line(ggplot2::aes(y = .data$ex, colour = "exact"),
                                  data = data.frame(beta = d$beta, ex = exact - line))
      cols <- c(cols, exact = "red")
    }
    return(p + ggplot2::scale_colour_manual(values = cols) +
      ggplot2::labs(x = expression("inverse temperature " * beta[k]),
                    y = expression(log ~ Z[k] ~ "- chord (nats)"), colour = NULL,
                    title = "RTS ladder: log Z_k minus the chord between its ends") +
      legend_below())
  }
  if (type == "trace") {
    b <- object$log_z + c(-2, 2) * object$se
    return(ggplot2::ggplot(object$diagnostics, ggplot2::aes(x = .data$sweep, y = .data$log_z)) +
      ggplot2::geom_line(ggplot2::aes(linetype = "running estimate")) +
      ggplot2::geom_hline(ggplot2::aes(yintercept = .data$b, linetype = "final +/- 2 se (Eq. 16)"),
                          data = data.frame(b = b[is.finite(b)]), colour = "grey40") +
      ggplot2::scale_linetype_manual(values = c("running estimate" = 1,
                                                "final +/- 2 se (Eq. 16)" = 2)) +
      ggplot2::labs(x = "sweeps of the final run (per chain)", y = "RTS estimate of log Z (nats)",
                    linetype = NULL, title = "RTS estimate of log Z over the final run") +
      legend_below())
  }
  cc <- rbind(object$init$c_hat, d$c_hat)
  n <- nrow(cc)
  lab <- c("initial iterations (light to dark)", "final run", "prior r_k",
           "visit-deficit threshold r_k / 10")
  long <- data.frame(k = rep(d$k, n), c_hat = as.vector(t(cc)), run = rep(seq_len(n), each = K),
                     what = rep(c(rep(lab[1], n - 1L), lab[2]), each = K))
  long <- long[long$c_hat > 0, , drop = FALSE]
  ref <- data.frame(k = rep(d$k, 2), c_hat = c(d$prior, d$prior / 10),
                    what = rep(lab[3:4], each = K), run = rep(n + 1:2, each = K))
  ggplot2::ggplot(rbind(long, ref), ggplot2::aes(x = .data$k, y = .data$c_hat,
                                                 group = .data$run, colour = .data$what,
                                                 linetype = .data$what)) +
    ggplot2::geom_line() +
    ggplot2::scale_y_log10() +
    ggplot2::scale_colour_manual(values = stats::setNames(c("grey50", "blue", "red", "orange"), lab)) +
    ggplot2::scale_linetype_manual(values = stats::setNames(c(1, 1, 2, 3), lab)) +
    ggplot2::labs(x = "temperature index k (beta from 0 to 1)",
                  y = "c_hat_k (probability, log scale)", colour = NULL, linetype = NULL,
                  title = "Temperature marginals c_hat_k against the prior r_k") +
    legend_below()
}

# Legends below the panel, one entry a line: the labels are long and a
# legend on the right squeezes the panel in narrow figures.
legend_below <- function()
  ggplot2::theme(legend.position = "bottom", legend.direction = "vertical",
                 legend.box = "horizontal")

# (.data: the ggplot2 pronoun; density: the computed variable of after_stat())
utils::globalVariables(c(".data", "density"))
