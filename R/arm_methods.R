# print() and plot() of an arm() result (class logz_arm).

#' @export
print.logz_arm <- function(x, ...) {
  check_estimate(x, "x", fields = TRUE)
  check_dots_used(...)
  cat(sprintf("<logz_arm> %s estimate of log Z%s\n", x$method,
              if (!identical(x$variant, "rm") && !is.null(x$rule)) sprintf(" (rule %s)", x$rule) else ""))
  cat(sprintf("  %s", format_log_z(x)))
  if (!is.na(x$se)) cat(sprintf("; sd over %d runs %.4f", as.integer(x$counts[["repeats"]]), x$sd))
  cat("\n")
  d <- x$diagnostics
  cat(sprintf("  %d iterations, R = %d particles (mean R_n %.1f, max %d); %d expansions, %d resamples\n",
              as.integer(x$counts[["iterations"]]), x$particles, mean(d$particles),
              as.integer(max(d$particles)), as.integer(x$counts[["expansions"]]),
              as.integer(x$counts[["resamples"]])))
  cat(sprintf("  %s particle-moves in %.2f s%s\n",
              format(x$counts[["particle_moves"]], big.mark = ","), x$time, pieces_note(x)))
  if (is.matrix(x$states))
    cat(sprintf("  final weighted particles kept: %d x %d (`states`, `log_weights`; see ?logz_draws)\n",
                nrow(x$states), ncol(x$states)))
  cat(base_line(x))
  print_flags(x)
  invisible(x)
}

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
