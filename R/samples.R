# The logz_samples class of exact samples (A*, OS*, rejection sampling; GumbelMIP
# results inherit it and have their own methods): print, summary, plot.

#' Methods for A* samples
#'
#' `print()` shows the method, target, log Z and the mean cost per sample;
#' `summary()` adds per-dimension sample summaries and cost quantiles;
#' `plot()` draws, with `type = "samples"`, a histogram of 1-D samples
#' against the target density normalised by [stats::integrate()] (for `d >=
#' 2`, a scatter plot of the first two coordinates), and with `type =
#' "cost"` the likelihood and bound evaluations of each sample.
#'
#' @param x,object a `logz_samples` result of [astar_sample()],
#'   [os_star_sample()] or [rejection_sample()].
#' @param type `"samples"`, `"cost"` or `"estimate"` (see [plot.logz_estimate()]).
#' @param breaks histogram breaks (see [graphics::hist()]).
#' @param ... passed to [graphics::plot.default()].
#' @return `print()` and `plot()`: `x`, invisibly. `summary()`: an object of
#'   class `summary.logz_samples` (a list with `method`, `target`, `n`,
#'   `log_z`, `se`, `samples` (a per-dimension summary matrix), `cost` (a
#'   summary of the per-sample counts), `time`).
#' @section Errors: `type` not one of the choices.
#' @examples
#' set.seed(2)
#' s <- astar_sample(astar_example("clutter", D = 1), 100)
#' summary(s)
#' plot(s)
#' plot(s, type = "cost")
#' @name logz_samples
NULL

#' @rdname logz_samples
#' @export
print.logz_samples <- function(x, ...) {
  check_estimate(x, "x")
  check_dots_used(...)
  n <- nrow(x$samples)
  cat(sprintf("<%s> %d exact sample%s by %s from %s (d = %d)\n", class(x)[1], n,
              if (n == 1L) "" else "s", x$method, x$target$name, ncol(x$samples)))
  cat(sprintf("  %s\n", format_log_z(x)))
  cat(sprintf("  per sample: %.1f likelihood, %.1f bound evaluations, %.1f nodes\n",
              mean(x$cost$likelihood), mean(x$cost$bound), mean(x$cost$nodes)))
  cat(sprintf("  %.3f s (%.0f samples/s)%s\n", x$time, n / max(x$time, 1e-9), pieces_note(x)))
  print_flags(x)
  invisible(x)
}

#' @rdname logz_samples
#' @export
summary.logz_samples <- function(object, ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  s <- object$samples
  stats <- t(apply(s, 2L, function(v) c(mean = mean(v), sd = if (length(v) > 1) stats::sd(v) else NA,
                                        stats::quantile(v, c(0.025, 0.5, 0.975)))))
  cost <- t(sapply(object$cost, function(v) c(mean = mean(v), stats::quantile(v, c(0.5, 0.9)),
                                              max = max(v))))
  structure(list(method = object$method, target = object$target$name, n = nrow(s),
                 log_z = object$log_z, se = object$se, samples = stats, cost = cost,
                 time = object$time), class = "summary.logz_samples")
}

#' @export
print.summary.logz_samples <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s: %d exact samples from %s\n", x$method, x$n, x$target))
  cat(sprintf("log Z = %.4f nats (se %.4f); %.3f s\n\nsamples:\n", x$log_z, x$se, x$time))
  print(signif(x$samples, 4))
  cat("\nevaluations per sample:\n")
  print(signif(x$cost, 4))
  invisible(x)
}

#' @rdname logz_samples
#' @export
plot.logz_samples <- function(x, type = c("samples", "cost", "estimate"), breaks = 30, ...) {
  check_estimate(x, "x")
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, ...))
  s <- x$samples
  if (type == "cost") {
    cst <- x$cost
    y <- pmax(c(cst$likelihood, cst$bound), 1)
    graphics::plot(c(1, nrow(cst)), range(y), type = "n", log = "y", xlab = "sample",
                   ylab = "evaluations per sample", main = sprintf("%s: cost", x$method), ...)
    graphics::points(seq_len(nrow(cst)), pmax(cst$likelihood, 1), pch = 16, col = "black")
    graphics::points(seq_len(nrow(cst)), pmax(cst$bound, 1), pch = 1, col = "red")
    graphics::legend("topright", c("likelihood", "bound"), pch = c(16, 1),
                     col = c("black", "red"), bty = "n")
  } else if (ncol(s) == 1L) {
    h <- graphics::hist(s[, 1], breaks = breaks, plot = FALSE)
    lim <- proposal_support(x$target$proposal)[, 1]
    f <- function(v) exp(astar_log_density(x$target, matrix(v, ncol = 1L)))
    z <- stats::integrate(f, lim[1], lim[2], subdivisions = 1000L, rel.tol = 1e-8)$value
    grid <- seq(min(h$breaks), max(h$breaks), length.out = 400L)
    dens <- f(grid) / z
    graphics::plot(range(h$breaks), c(0, max(h$density, dens)), type = "n", xlab = "x",
                   ylab = "density", main = sprintf("%s: %s", x$method, x$target$name), ...)
    graphics::rect(h$breaks[-length(h$breaks)], 0, h$breaks[-1], h$density, col = "grey85",
                   border = "grey60")
    graphics::lines(grid, dens, col = "red", lwd = 2)
    graphics::legend("topright", c("exact samples", "target density (normalised)"),
                     fill = c("grey85", NA), border = c("grey60", NA), lty = c(NA, 1),
                     lwd = c(NA, 2), col = c(NA, "red"), bty = "n")
  } else {
    graphics::plot(s[, 1], s[, 2], type = "n", xlab = colnames(s)[1], ylab = colnames(s)[2],
                   main = sprintf("%s: %s", x$method, x$target$name), ...)
    graphics::points(s[, 1], s[, 2], pch = 16, cex = 0.5)
  }
  invisible(x)
}
