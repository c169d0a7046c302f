# summary() methods and the print() of their results.

#' @rdname logz_estimate
#' @export
summary.logz_estimate <- function(object, ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  structure(list(method = object$method, class = class(object)[1], log_z = object$log_z,
                 se = object$se, ci = stats::confint(object), counts = object$counts,
                 time = object$time, ess = object$ess, se_note = object$se_note,
                 flags = object$flags),
            class = "summary.logz_estimate")
}

#' @export
print.summary.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s estimate of log Z (%s)\n", x$method, x$class))
  cat(sprintf("  log Z    %.6f nats\n", x$log_z))
  cat(sprintf("  se       %s\n", if (!is.na(x$se)) sprintf("%.6f", x$se)
                                    else sprintf("NA (%s)", se_reason(x))))
  if (all(is.finite(x$ci)))
    cat(sprintf("  95%% CI   [%.6f, %.6f]\n", x$ci[1], x$ci[2]))
  if (!is.null(x$ess)) cat(sprintf("  ESS      %.1f\n", x$ess))
  cat(sprintf("  time     %.3f s\n", x$time))
  cnt <- x$counts
  for (nm in names(cnt)) cat(sprintf("  %-8s %s\n", nm, format(cnt[[nm]], big.mark = ",")))
  if (length(x$flags)) cat(sprintf("  flag     %s\n", x$flags), sep = "")
  invisible(x)
}

#' @export
summary.rbm <- function(object, ...) {
  check_dots_used(...)
  validate_model(object, "object")
  print(object, ...)
  invisible(object)
}

#' @export
summary.ising <- function(object, ...) {
  check_dots_used(...)
  validate_model(object, "object")
  deg <- tabulate(c(object$edges$from, object$edges$to), nbins = object$n)
  width <- NA_character_
  if (object$n <= jt_max_n) {
    jt <- jt_order(object)
    width <- if (jt$complete) as.character(jt$width) else sprintf("> %d", jt_cap)
  }
  structure(list(n = object$n, n_edges = nrow(object$edges), spins = object$spins,
                 weight = if (nrow(object$edges)) summary(object$edges$weight) else NULL,
                 field = summary(object$field), degree = range(deg),
                 bipartite = !is.null(object$colour), width = width, grid = object$grid),
            class = "summary.ising")
}

#' @export
print.summary.ising <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("Ising model: %d variables, %d edges, spins in %s%s\n", x$n, x$n_edges,
              spin_label(x$spins),
              if (!is.null(x$grid)) sprintf(" (%d x %d grid)", x$grid[1], x$grid[2]) else ""))
  if (!is.null(x$weight)) {
    cat("  weights:\n")
    print(x$weight)
  }
  cat("  field:\n")
  print(x$field)
  cat(sprintf("  degree %d to %d; %s; elimination width %s\n", x$degree[1], x$degree[2],
              if (x$bipartite) "bipartite (checkerboard Gibbs sweeps)" else "not bipartite",
              if (is.na(x$width)) "not computed" else x$width))
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
