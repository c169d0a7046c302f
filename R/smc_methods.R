# print() and plot() of an smc() result (class logz_smc).

#' @export
print.logz_smc <- function(x, ...) {
  check_estimate(x, "x", fields = TRUE)
  check_dots_used(...)
  cat(sprintf("<logz_smc> adaptive tempering SMC estimate of log Z for %s (%d-D)\n",
              or_default(x$target, "an R log density"), ncol(x$x)))
  cat(sprintf("  %s; %d replicate%s of %d particles%s\n", format_log_z(x),
              as.integer(x$counts[["replicates"]]), if (x$counts[["replicates"]] == 1) "" else "s",
              as.integer(x$counts[["particles"]]),
              if (!is.null(x$target_se)) sprintf(" (target se %g)", x$target_se) else ""))
  if (identical(x$estimator, "bridge"))
    cat(sprintf("  by bridge sampling (%d draws a replicate); the SMC estimate: %.4f (se %.4f)\n",
                as.integer(x$bridge_draws), x$smc[["log_z"]], x$smc[["se"]]))
  else if (!is.null(x$bridge) && is.finite(x$bridge[["log_z"]]))
    cat(sprintf("  by SMC; the bridge estimate: %.4f (se %.4f)\n", x$bridge[["log_z"]],
                x$bridge[["se"]]))
  pe <- function(nm, v) if (is.finite(v[["log_z"]]))
    sprintf("%s %.4f%s", nm, v[["log_z"]], if (is.finite(v[["se"]])) sprintf(" (se %.4f)", v[["se"]]) else "")
    else sprintf("%s NA", nm)
  cat(sprintf("  same runs: %s; %s; %s\n", pe("TI", x$ti), pe("TI corrected", x$ti_corrected),
              pe("stepping-stone", x$stepping_stone)))
  cat(sprintf("  %.1f temperatures per run (CESS %g, %s), %d resamples; ESS at beta = 1: %.1f\n",
              x$counts[["temperatures"]], x$cess,
              if (identical(x$schedule_from, "adaptive")) "chosen by each run"
              else "chosen by a pilot run", as.integer(x$counts[["resamples"]]), x$ess))
  cat(sprintf("  %s x %d per temperature, mean acceptance %.2f\n",
              switch(x$kernel, rwm = "random-walk Metropolis", mala = "MALA",
                     hmc = if (is.na(x$n_leapfrog))
                       sprintf("HMC (%.1f leapfrog steps on average)",
                               mean(x$diagnostics$n_leapfrog, na.rm = TRUE))
                     else sprintf("HMC (%d leapfrog steps)", x$n_leapfrog)),
              x$move_steps, mean(x$diagnostics$accept, na.rm = TRUE)))
  ng <- x$counts[["gradient_evaluations"]]
  cat(sprintf("  %s density%s evaluations in %.2f s\n",
              format(x$counts[["density_evaluations"]], big.mark = ","),
              if (ng > 0) sprintf(" and %s gradient", format(ng, big.mark = ",")) else "", x$time))
  cat(base_line(x))
  print_flags(x)
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
  for (j in seq_along(runs)) {
    dj <- d[d$run == runs[j] & is.finite(d[[ycol]]), ]
    yj <- dj[[ycol]]
    if (type == "ess") yj <- yj / x$counts[["particles"]]
    graphics::lines(dj[[xcol]], yj, col = cols[j], type = if (type == "schedule") "s" else "l")
  }
  if (type == "ess") graphics::abline(h = x$resample_threshold, lty = 2, col = "red")
  if (type == "accept") graphics::abline(h = x$target_accept, lty = 2, col = "red")
  graphics::legend(if (type %in% c("ess", "ti", "log_z")) "bottomright" else "topleft",
                   sprintf("%d replicate%s", length(runs), if (length(runs) == 1L) "" else "s"),
                   lty = 1, col = cols[1], bty = "n")
  invisible(x)
}
