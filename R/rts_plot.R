#' @export
print.logz_rts <- function(x, ...) {
  cat(sprintf("<logz_rts> %s estimate of log Z (Rao-Blackwellized tempered sampling)\n",
              x$method))
  cat(sprintf("  log Z = %.4f (se %.4f, Eq. 16)\n", x$log_z, x$se))
  cat(sprintf("  K = %d temperatures, %d chains x %s sweeps; %d initial iteration(s) (%s)\n",
              x$counts[["K"]], x$counts[["chains"]], format(x$counts[["sweeps"]], big.mark = ","),
              x$counts[["init_iterations"]],
              if (x$init$converged) "converged" else "not converged"))
  cat(sprintf("  %s Gibbs sweeps in %.2f s%s\n", format(x$counts[["gibbs_sweeps"]], big.mark = ","),
              x$time, pieces_note(x)))
  if (!isTRUE(x$converged))
    cat("  note: the initial iterations stopped before max_k |r_k - c_hat_k| < tol / K;",
        "the ladder may still be biased (more init_iter or init_sweeps)\n")
  e <- x$estimates
  cat("  estimators at beta = 1:\n")
  for (i in seq_len(nrow(e)))
    cat(sprintf("    %-13s %12.4f  (se %s)\n", e$estimator[i], e$log_z[i],
                if (is.na(e$se[i])) "NA" else sprintf("%.4f", e$se[i])))
  invisible(x)
}

#' Plot an RTS run
#'
#' @param x a `logz_rts` result.
#' @param type `"ladder"` (\eqn{\log Z_k} against \eqn{\beta_k} with 2-se bars,
#'   minus the straight line between its ends so the curvature shows; `exact`
#'   values overlaid if given), `"c_hat"` (\eqn{\hat c_k} of each initial
#'   iteration and of the final run against the prior \eqn{r_k}, log scale) or
#'   `"trace"` (the RTS estimate of log Z over the final run's sweeps).
#' @param exact optional exact \eqn{\log Z_k} (length K) for `type = "ladder"`.
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
  type <- match.arg(type)
  d <- x$log_z_k
  K <- nrow(d)
  switch(type,
    ladder = {
      line <- d$log_z[1] + (d$log_z[K] - d$log_z[1]) * d$beta
      y <- d$log_z - line
      lo <- y - 2 * d$se
      hi <- y + 2 * d$se
      rng <- range(lo, hi, if (!is.null(exact)) exact - line, na.rm = TRUE)
      plot(d$beta, y, type = "n", ylim = rng, xlab = expression(beta[k]),
           ylab = expression(log ~ Z[k] ~ "- chord"), ...)
      graphics::segments(d$beta, lo, d$beta, hi, col = "grey60")
      graphics::points(d$beta, y, pch = 20, cex = 0.6)
      if (!is.null(exact)) graphics::lines(d$beta, exact - line, col = "red")
    },
    c_hat = {
      cc <- rbind(x$init$c_hat, d$c_hat)
      cc[cc <= 0] <- NA
      rng <- range(cc, d$prior, na.rm = TRUE)
      plot(d$k, d$prior, type = "n", log = "y", ylim = rng, xlab = "k",
           ylab = expression(hat(c)[k]), ...)
      n <- nrow(cc)
      cols <- grDevices::gray(seq(0.8, 0.3, length.out = max(n - 1L, 1L)))
      for (i in seq_len(n - 1L)) graphics::lines(d$k, cc[i, ], col = cols[i])
      graphics::lines(d$k, cc[n, ], col = "blue", lwd = 2)
      graphics::lines(d$k, d$prior, col = "red", lty = 2)
    },
    trace = {
      tr <- x$diagnostics
      plot(tr$sweep, tr$log_z, type = "l", xlab = "sweeps (final run)",
           ylab = "RTS estimate of log Z", ...)
      graphics::abline(h = x$log_z + c(-2, 2) * x$se, lty = 2, col = "grey40")
    })
  invisible(x)
}

