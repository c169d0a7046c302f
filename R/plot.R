# plot() for every logz_estimate: the default method (the estimate with its
# interval) and the RAISE per-example plots. The estimators with traces have
# their own methods next to them (ais.R, arm_plot.R, mip_results.R, astar_samples.R, rts_plot.R).

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

or_default <- function(x, default) if (is.null(x)) default else x
