# Methods for GumbelMIP results (class logz_mip): print, summary, plot, and the anytime
# bounds on log Z of Theorem 2 (log_z_bounds()).

#' @rdname mip_sample
#' @param x,object a `logz_mip` result.
#' @param type for `plot()`: `"bounds"` (the anytime \eqn{v^*} and \eqn{U}
#'   of every sample against search nodes, from `trace`), `"cost"` (nodes
#'   per sample) or `"estimate"` (see [plot.logz_estimate()]).
#' @param ... ignored by `print()`; graphical parameters for `plot()`.
#' @export
print.logz_mip <- function(x, ...) {
  check_estimate(x, "x")
  check_dots_used(...)
  validate_model(x, "x")
  n <- length(x$value)
  cat(sprintf("<logz_mip> %d sample%s by %s; %d exact\n", n, if (n == 1L) "" else "s",
              x$method, sum(x$exact)))
  if (!is.na(x$log_z)) cat(sprintf("  %s\n", format_log_z(x)))
  else {
    b <- log_z_bounds(x)
    cat(sprintf("  not all exact: log Z in [%.4f, %.4f] nats (Theorem 2, delta = %g each side)\n",
                b$lower, b$upper, b$delta))
  }
  cat(sprintf("  per sample: %.1f nodes, %.1f LP solves, %.4f s%s\n", mean(x$nodes),
              mean(x$lp_solves), mean(x$sample_time), pieces_note(x)))
  print_flags(x)
  invisible(x)
}

#' @rdname mip_sample
#' @export
summary.logz_mip <- function(object, ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  validate_model(object, "object")
  q <- function(v) c(mean = mean(v), stats::quantile(v, c(0, 0.5, 0.9, 1)))
  structure(list(method = object$method, n = length(object$value), exact = sum(object$exact),
                 log_z = object$log_z, se = object$se, bounds = log_z_bounds(object),
                 cost = rbind(nodes = q(object$nodes), lp_solves = q(object$lp_solves),
                              seconds = q(object$sample_time),
                              rank_bound = q(object$rank_bound)),
                 marginals = colMeans(object$states), time = object$time),
            class = "summary.logz_mip")
}

#' @export
print.summary.logz_mip <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s: %d samples, %d exact, %.3f s\n", x$method, x$n, x$exact, x$time))
  if (!is.na(x$log_z)) cat(sprintf("log Z = %.4f nats (se %.4f)\n", x$log_z, x$se))
  print(x$bounds)
  cat("\nper sample:\n")
  print(signif(x$cost, 4))
  invisible(x)
}

#' @rdname mip_sample
#' @export
plot.logz_mip <- function(x, type = c("bounds", "cost", "estimate"), ...) {
  check_estimate(x, "x")
  validate_model(x, "x")
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, ...))
  if (type == "cost") {
    graphics::plot(seq_along(x$nodes), pmax(x$nodes, 1), log = "y", pch = 16,
                   ylim = c(1, 3 * max(x$nodes, 1)),
                   col = ifelse(x$exact, "black", "red"), xlab = "sample",
                   ylab = "branch-and-bound nodes (log scale)",
                   main = sprintf("%s: search nodes per sample", x$method), ...)
    legend_free(list(list(x = seq_along(x$nodes), y = pmax(x$nodes, 1), points = TRUE)),   # R/plot_legend.R
                c("exact", "stopped early"), pch = 16, col = c("black", "red"), bty = "n")
    return(invisible(x))
  }
  tr <- x$trace
  ce <- euler_gamma
  rng <- range(c(tr$value, tr$upper)[is.finite(c(tr$value, tr$upper))]) - ce
  # room above the lines for the legend (R/plot_legend.R)
  graphics::plot(range(pmax(tr$nodes, 1)), legend_headroom(rng, 2L + is.finite(x$log_z)),
                 type = "n", log = "x",
                 xlab = "branch-and-bound nodes searched (log scale)",
                 ylab = "perturbed objective - C_E (nats)",
                 main = sprintf(paste0("%s: anytime bounds per sample\n",
                                       "best perturbed value v* (lower) and LP bound U (upper)"),
                                x$method), ...)
  drawn <- list()
  for (s in unique(tr$sample)) {
    t <- tr[tr$sample == s, ]
    graphics::lines(pmax(t$nodes, 1), t$value - ce, col = "blue")
    graphics::lines(pmax(t$nodes, 1), pmin(t$upper, rng[2] + ce) - ce, col = "red")
    drawn <- c(drawn, list(list(x = pmax(t$nodes, 1), y = t$value - ce),
                           list(x = pmax(t$nodes, 1), y = pmin(t$upper, rng[2] + ce) - ce)))
  }
  leg <- c("v* - C_E (lower, one line per sample)", "U - C_E (upper)")
  lcol <- c("blue", "red")
  lty <- c(1, 1)
  if (is.finite(x$log_z)) {
    graphics::abline(h = x$log_z, lty = 2, col = "black")
    drawn <- c(drawn, list(list(h = x$log_z)))
    leg <- c(leg, sprintf("log Z estimate %.3f", x$log_z))
    lcol <- c(lcol, "black")
    lty <- c(lty, 2)
  }
  legend_free(drawn, leg, col = lcol, lty = lty, bty = "n")   # R/plot_legend.R
  invisible(x)
}

#' Anytime bounds on log Z from early-stopped GumbelMIP runs (Theorem 2)
#'
#' For \eqn{T} independent runs of [mip_sample()] (each sample is one run),
#' stopped early or not, Theorem 2 of Kim, Sabharwal & Ermon (2016) gives
#' \eqn{E[v^*] \le \log Z + C_E \le E[U]}, and with
#' \eqn{\epsilon = \pi \sqrt{(1/\delta - 1) / (6 T)}} (from
#' \eqn{T \ge (1/\delta - 1)\pi^2/(6\epsilon^2)}, Chebyshev-Cantelli with the
#' Gumbel variance \eqn{\pi^2/6})
#' \deqn{P(\log Z \ge \bar v^* - C_E - \epsilon) \ge 1 - \delta, \quad
#'       P(\log Z \le \bar U - C_E + \epsilon) \ge 1 - \delta.}{P(log Z >= mean(v*) - C_E - eps) >= 1 - delta, P(log Z <= mean(U) - C_E + eps) >= 1 - delta.}
#' Each statement holds separately; both hold together with probability at
#' least \eqn{1 - 2\delta}. The upper bound is finite only when every run
#' ended with a finite \eqn{U}.
#'
#' @param x a `logz_mip` result of [mip_sample()].
#' @param delta failure probability of each one-sided bound, in (0, 1).
#' @return An object of class `logz_mip_bounds`: a list with `lower`,
#'   `upper`, `eps`, `delta`, `T`, `mean_value`, `mean_upper` and `statement`
#'   (a sentence stating the guarantee).
#' @section Errors: `x` not a `logz_mip` result; `delta` outside (0, 1).
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI, Theorem 2.
#' @examples
#' set.seed(2)
#' m <- ising_grid(4, 4, coupling = 0.5)
#' s <- mip_sample(m, 30, node_limit = 4, progress = FALSE)
#' log_z_bounds(s, delta = 0.1)
#' exact_log_z(m)
#' @export
log_z_bounds <- function(x, delta = 0.05) {
  check_estimate(x, "x")
  if (!inherits(x, "logz_mip"))
    stop_no_call(sprintf("`x` must be a mip_sample() result, not %s.", describe(x)))
  validate_mip(x)
  delta <- check_number(delta, "delta", 0, 1, TRUE, TRUE)
  T <- length(x$value)
  eps <- pi * sqrt((1 / delta - 1) / (6 * T))
  mv <- mean(x$value)
  mu <- mean(x$upper)
  structure(list(lower = mv - euler_gamma - eps, upper = mu - euler_gamma + eps, eps = eps,
                 delta = delta, T = T, mean_value = mv, mean_upper = mu,
                 statement = sprintf(paste0("log Z >= %.4f and log Z <= %.4f, each with ",
                                            "probability >= %g (both >= %g); %d runs, %d exact."),
                                     mv - euler_gamma - eps, mu - euler_gamma + eps, 1 - delta,
                                     max(0, 1 - 2 * delta), T, sum(x$exact))),
            class = "logz_mip_bounds")
}

#' @export
print.logz_mip_bounds <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_mip_bounds> log Z in [%.4f, %.4f] nats\n", x$lower, x$upper))
  cat(sprintf("  mean v* - C_E = %.4f, mean U - C_E = %.4f, eps = %.4f (T = %d, delta = %g)\n",
              x$mean_value - euler_gamma, x$mean_upper - euler_gamma, x$eps, x$T, x$delta))
  cat(" ", x$statement, "\n")
  invisible(x)
}
