# autoplot() methods (ggplot2, in Suggests): the same pictures as plot() for
# every logz_estimate, registered only when ggplot2 is installed (roxygen
# @exportS3Method writes a delayed S3method(ggplot2::autoplot, ...)).

#' ggplot2 versions of the logz plots
#'
#' When ggplot2 is installed, `ggplot2::autoplot()` draws the pictures of
#' [plot.logz_ais()], [plot.logz_arm()] and [plot.logz_estimate()] as
#' `ggplot` objects that can be themed and combined: for AIS (all models and
#' [ais.function()]) the ESS as a fraction of M against beta with the 0.1
#' line, or the running log Z; for ARM/RM the ESS fraction gamma, the running
#' log Z or the particle count, as the median over the repeats with a
#' min-max band (and the gamma threshold); for any other estimate the value
#' with its 95% interval.
#'
#' @param object a `logz_estimate`.
#' @param type as for the `plot()` method of the class; `"estimate"` for all.
#' @param ... ignored.
#' @return A `ggplot` object.
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   m <- rbm(matrix(rnorm(40, sd = 0.3), 10, 4))
#'   fit <- ais(m, schedule_linear(100), n_chains = 30, progress = FALSE)
#'   ggplot2::autoplot(fit)
#' }
#' @name autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_estimate <- function(object, type = "estimate", ...) {
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
                  else sprintf("%s: no log Z estimate", object$method))
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
autoplot.logz_ais <- function(object, type = c("ess", "log_z", "estimate"), ...) {
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  d <- object$diagnostics
  M <- object$counts[["chains"]]
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
                    title = sprintf("%s: effective sample size (M = %d chains)", object$method, M))
  } else {
    ggplot2::ggplot(d, ggplot2::aes(x = .data$beta, y = .data$log_z)) +
      ggplot2::geom_line(ggplot2::aes(linetype = "running estimate")) +
      ggplot2::geom_hline(ggplot2::aes(yintercept = .data$b, linetype = "final 3-sd bounds"),
                          data = data.frame(b = object$bounds[is.finite(object$bounds)]),
                          colour = "grey40") +
      ggplot2::scale_linetype_manual(values = c("running estimate" = 1,
                                                "final 3-sd bounds" = 2)) +
      ggplot2::labs(x = expression(beta), y = "running estimate of log Z (nats)",
                    linetype = NULL, title = sprintf("%s: running log Z", object$method))
  }
}

#' @rdname autoplot.logz_estimate
#' @exportS3Method ggplot2::autoplot
autoplot.logz_arm <- function(object, type = c("ess", "log_z", "particles", "estimate"), ...) {
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
                                         log_z = "running log Z")))
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

utils::globalVariables(".data")
