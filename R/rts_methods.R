# print() and plot() of an rts() result (class logz_rts).

#' @export
print.logz_rts <- function(x, ...) {
  check_estimate(x, "x", fields = TRUE)
  check_dots_used(...)
  cat(sprintf("<logz_rts> %s estimate of log Z (Rao-Blackwellized tempered sampling)\n",
              x$method))
  cat(sprintf("  log Z = %.4f nats (se %s nats, %s)\n", x$log_z,
              if (is.na(x$se)) "NA" else sprintf("%.4f", x$se),
              if (is.null(x$groups)) "Eq. 16" else
                sprintf("the larger of Eq. 16, %.4f, and the spread of %d independent groups, %.4f",
                        x$se_parts[["eq16"]], nrow(x$groups), x$se_parts[["groups"]])))
  cat(sprintf("  K = %d temperatures, %d chains x %s sweeps; %d initial iteration(s) (%s)\n",
              x$counts[["K"]], x$counts[["chains"]], format(x$counts[["sweeps"]], big.mark = ","),
              x$counts[["init_iterations"]],
              if (isTRUE(x$converged)) "converged" else "not converged"))
  if (isTRUE(x$counts[["pilot_sweeps"]] > 0))
    cat(sprintf("  started by a %d-sweep annealing pilot and %d discarded burn-in sweeps\n",
                as.integer(x$counts[["pilot_sweeps"]]), as.integer(x$counts[["burn_in_sweeps"]])))
  cat(sprintf("  %s Gibbs sweeps in %.2f s%s\n", format(x$counts[["gibbs_sweeps"]], big.mark = ","),
              x$time, pieces_note(x)))
  if (!isTRUE(x$converged))
    cat("  note: the initial iterations stopped before max_k |r_k - c_hat_k| < tol / K;",
        "the ladder may still be biased (more init_iter or init_sweeps)\n")
  e <- x$estimates
  cat("  estimators at beta = 1 (log Z in nats):\n")
  for (i in seq_len(nrow(e)))
    cat(sprintf("    %-13s %12.4f  (se %s)\n", e$estimator[i], e$log_z[i],
                if (!is.na(e$se[i])) sprintf("%.4f", e$se[i])
                else if (e$estimator[i] == "mbar") paste("NA:", rts_mbar_no_se(x))
                else "NA"))
  cat(base_line(x))
  print_flags(x)
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
           main = "RTS ladder: log Z_k minus the chord between its ends", ...)
      graphics::segments(d$beta, lo, d$beta, hi, col = "grey60")
      graphics::points(d$beta, y, pch = 20, cex = 0.6)
      if (!is.null(exact)) graphics::lines(d$beta, exact - line, col = "red")
      # log Z_k minus its chord is convex with both ends at 0: the legend goes in
      # the lower corner away from the minimum.
      corner <- if (d$beta[which.min(y)] > 0.5) "bottomleft" else "bottomright"
      graphics::legend(corner, bty = "n", cex = 0.8,
                       legend = c("RTS (Eq. 12)", "+/- 2 se",
                                  if (!is.null(exact)) "exact"),
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
           main = "Temperature marginals c_hat_k against the prior r_k", ...)
      n <- nrow(cc)
      cols <- grDevices::gray(seq(0.8, 0.3, length.out = max(n - 1L, 1L)))
      for (i in seq_len(n - 1L)) graphics::lines(d$k, cc[i, ], col = cols[i])
      graphics::lines(d$k, cc[n, ], col = "blue", lwd = 2)
      graphics::lines(d$k, d$prior, col = "red", lty = 2)
      graphics::lines(d$k, floor_line, col = "orange", lty = 3)
      graphics::legend("bottomleft", bty = "n", cex = 0.8,
                       legend = c(if (n > 1L) "initial iterations (light to dark)", "final run",
                                  "prior r_k", "visit-deficit threshold r_k / 10"),
                       lty = c(if (n > 1L) 1, 1, 2, 3), lwd = c(if (n > 1L) 1, 2, 1, 1),
                       col = c(if (n > 1L) "grey50", "blue", "red", "orange"))
    },
    trace = {
      tr <- x$diagnostics
      plot(tr$sweep, tr$log_z, type = "l", xlab = "sweeps of the final run (per chain)",
           ylab = "RTS estimate of log Z (nats)",
           main = "RTS estimate of log Z over the final run", ...)
      graphics::abline(h = x$log_z + c(-2, 2) * x$se, lty = 2, col = "grey40")
      graphics::legend("topright", bty = "n", cex = 0.8,
                       legend = c("running estimate", "final +/- 2 se"),
                       lty = c(1, 2), col = c("black", "grey40"))
    })
  invisible(x)
}

# Why MBAR has no se in a printed RTS result.
rts_mbar_no_se <- function(x) or_default(x$mbar_se_note, "not available")
