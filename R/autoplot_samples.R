# autoplot() methods (ggplot2, in Suggests) for the samplers, comparisons,
# schedules and RBMs: the pictures of their plot() methods as ggplot objects.

#' ggplot2 versions of the sampler, comparison, schedule and RBM plots
#'
#' When ggplot2 is installed, `ggplot2::autoplot()` draws, as `ggplot`
#' objects, the pictures of [plot.logz_samples()] (exact samples: histogram
#' with the normalised target density in 1-D, a scatter of the first two
#' coordinates otherwise; or the evaluations per sample), of the
#' [mip_sample()] plot (the anytime bounds per sample: best perturbed value
#' \eqn{v^*} and LP bound \eqn{U} minus \eqn{C_E}, against nodes searched; or
#' the nodes per sample), of [compare_estimates()] (log Z \eqn{\pm} 2 se by
#' estimate, an optional reference line), of [plot.logz_schedule()] (beta
#' against the fraction of steps, or \eqn{g(\beta)}, for one or several
#' schedules) and of [plot.rbm()] (training history, the tracked log Z, or the filters as
#' images). The estimators' methods are in [autoplot.logz_estimate()].
#'
#' @param object a `logz_samples`, `logz_mip`, `logz_comparison`,
#'   `logz_schedule` or `rbm` object.
#' @param type as for the object's `plot()` method.
#' @param truth for a comparison: an optional reference log Z (nats; default
#'   the comparison's `exact`, see [compare_estimates()]).
#' @param n_filters for an RBM: the number of filters drawn.
#' @param ... for schedules: more schedules to draw with `object`; otherwise
#'   ignored (an error if named arguments are given).
#' @return A `ggplot` object.
#' @section Errors: a `type` the class does not have; `type = "g"` without a
#'   schedule carrying `g`; an RBM without history (`"history"`) or with a
#'   non-square number of visible units (`"filters"`) or without tracked log Z (`"log_z"`).
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   s <- astar_sample(astar_example("peaky", a = 10), 100, method = "drill_down")
#'   ggplot2::autoplot(s)
#'   ggplot2::autoplot(schedule_linear(100), schedule_sigmoid(100))
#' }
#' @name autoplot.logz_samples
#' @exportS3Method ggplot2::autoplot
autoplot.logz_samples <- function(object, type = c("samples", "cost", "estimate"), ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  s <- object$samples
  if (type == "cost") {
    cst <- object$cost
    long <- data.frame(sample = rep(seq_len(nrow(cst)), 2),
                       n = pmax(c(cst$likelihood, cst$bound), 1),
                       what = rep(c("likelihood", "bound"), each = nrow(cst)))
    return(ggplot2::ggplot(long, ggplot2::aes(x = .data$sample, y = .data$n)) +
      ggplot2::geom_point(ggplot2::aes(shape = .data$what, colour = .data$what)) +
      ggplot2::scale_y_log10() +
      ggplot2::scale_shape_manual(values = c(likelihood = 16, bound = 1)) +
      ggplot2::scale_colour_manual(values = c(likelihood = "black", bound = "red")) +
      ggplot2::labs(x = "sample", y = "evaluations per sample (log scale)", shape = NULL,
                    colour = NULL, title = sprintf("%s: cost", object$method)) +
      legend_below())
  }
  title <- sprintf("%s: %s", object$method, object$target$name)
  if (ncol(s) == 1L) {
    lim <- proposal_support(object$target$proposal)[, 1]
    f <- function(v) exp(astar_log_density(object$target, matrix(v, ncol = 1L)))
    z <- stats::integrate(f, lim[1], lim[2], subdivisions = 1000L, rel.tol = 1e-8)$value
    grid <- seq(min(s), max(s), length.out = 400L)
    dens <- data.frame(x = grid, y = f(grid) / z)
    return(ggplot2::ggplot(data.frame(x = s[, 1]), ggplot2::aes(x = .data$x)) +
      ggplot2::geom_histogram(ggplot2::aes(y = ggplot2::after_stat(density),
                                           fill = "exact samples"),
                              bins = 30, colour = "grey60") +
      ggplot2::geom_line(ggplot2::aes(y = .data$y, colour = "target density (normalised)"),
                         data = dens, linewidth = 1) +
      ggplot2::scale_fill_manual(values = "grey85") +
      ggplot2::scale_colour_manual(values = "red") +
      ggplot2::labs(x = "x", y = "density", fill = NULL, colour = NULL, title = title) +
      legend_below())
  }
  d <- data.frame(x = s[, 1], y = s[, 2])
  ggplot2::ggplot(d, ggplot2::aes(x = .data$x, y = .data$y)) +
    ggplot2::geom_point(size = 0.8) +
    ggplot2::labs(x = colnames(s)[1], y = colnames(s)[2],
                  title = if (ncol(s) > 2L) sprintf("%s (first two of %d coordinates)", title, ncol(s))
                          else title) +
    legend_below()
}

#' @rdname autoplot.logz_samples
#' @exportS3Method ggplot2::autoplot
autoplot.logz_mip <- function(object, type = c("bounds", "cost", "estimate"), ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  validate_model(object, "object")
  type <- match_arg(type, "type")
  if (type == "estimate") return(autoplot.logz_estimate(object))
  if (type == "cost") {
    d <- data.frame(sample = seq_along(object$nodes), nodes = pmax(object$nodes, 1),
                    what = ifelse(object$exact, "exact", "stopped early"))
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$sample, y = .data$nodes)) +
      ggplot2::geom_point(ggplot2::aes(colour = .data$what)) +
      ggplot2::scale_y_log10() +
      ggplot2::scale_colour_manual(values = c(exact = "black", "stopped early" = "red")) +
      ggplot2::labs(x = "sample", y = "branch-and-bound nodes (log scale)", colour = NULL,
                    title = sprintf("%s: search nodes per sample", object$method)) +
      legend_below())
  }
  tr <- object$trace
  ce <- euler_gamma
  lab <- c("v* - C_E (lower, one line per sample)", "U - C_E (upper)")
  fin <- is.finite(tr$upper)
  long <- rbind(data.frame(nodes = pmax(tr$nodes, 1), y = tr$value - ce, sample = tr$sample,
                           what = lab[1]),
                data.frame(nodes = pmax(tr$nodes, 1), y = tr$upper - ce, sample = tr$sample,
                           what = lab[2])[fin, , drop = FALSE])
  cols <- stats::setNames(c("blue", "red"), lab)
  p <- ggplot2::ggplot(long, ggplot2::aes(x = .data$nodes, y = .data$y,
                                          group = interaction(.data$sample, .data$what))) +
    ggplot2::geom_line(ggplot2::aes(colour = .data$what)) +
    ggplot2::scale_x_log10()
  if (is.finite(object$log_z)) {
    est <- sprintf("log Z estimate %.3f", object$log_z)
    p <- p + ggplot2::geom_hline(ggplot2::aes(yintercept = object$log_z, colour = est),
                                 linetype = 2)
    cols <- c(cols, stats::setNames("black", est))
  }
  p + ggplot2::scale_colour_manual(values = cols) +
    ggplot2::labs(x = "branch-and-bound nodes searched (log scale)",
                  y = "perturbed objective - C_E (nats)", colour = NULL,
                  title = sprintf("%s: anytime bounds", object$method),
                  subtitle = "best perturbed value v* (lower) and LP bound U (upper), per sample") +
    legend_below()
}

#' @rdname autoplot.logz_samples
#' @exportS3Method ggplot2::autoplot
autoplot.logz_comparison <- function(object, truth = attr(object, "exact"), ...) {
  check_dots_used(...)
  validate_comparison(object, "object")
  truth <- check_truth(truth)
  d <- data.frame(name = factor(object$name, levels = unique(object$name)), log_z = object$log_z,
                  se = ifelse(is.na(object$se), 0, object$se),
                  reliable = ifelse(object$reliable %in% FALSE, "flagged unreliable", "reliable"))
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$name, y = .data$log_z)) +
    ggplot2::geom_errorbar(ggplot2::aes(ymin = .data$log_z - 2 * .data$se,
                                        ymax = .data$log_z + 2 * .data$se,
                                        linetype = "+/- 2 se"), width = 0.15) +
    ggplot2::geom_point(ggplot2::aes(shape = .data$reliable), size = 2.5) +
    ggplot2::scale_shape_manual(values = c(reliable = 19, "flagged unreliable" = 1))
  lty <- c("+/- 2 se" = 1)
  if (!is.null(truth)) {
    truth <- exact_value(truth)
    p <- p + ggplot2::geom_hline(ggplot2::aes(yintercept = truth, linetype = "reference"),
                                 colour = "grey40")
    lty <- c(lty, reference = 2)
  }
  p + ggplot2::scale_linetype_manual(values = lty) +
    ggplot2::labs(x = "estimate", y = "log Z (nats, +/- 2 se)", shape = NULL, linetype = NULL,
                  title = sprintf("log Z by method (%d estimates)", nrow(d))) +
    legend_below()
}

#' @rdname autoplot.logz_samples
#' @exportS3Method ggplot2::autoplot
autoplot.logz_schedule <- function(object, ..., type = c("schedule", "g")) {
  validate_model(object, "object")
  type <- match_arg(type, "type")
  dots <- list(...)
  is_sched <- vapply(dots, inherits, logical(1), "logz_schedule")
  if (any(!is_sched))
    stop_no_call("autoplot() of schedules takes only further schedules in `...`.")
  scheds <- c(list(object), dots)
  nm <- make.unique(vapply(scheds, function(s) or_default(attr(s, "name"), "schedule"), ""))
  if (type == "g") {
    has_g <- vapply(scheds, function(s) !is.null(attr(s, "g")), logical(1))
    if (!any(has_g))
      stop_no_call(paste0("`type = \"g\"` needs a schedule with a `g` attribute, from ",
                          "schedule_varopt() or schedule_gms13()."))
    d <- do.call(rbind, lapply(which(has_g), function(i)
      data.frame(beta = attr(scheds[[i]], "g")$beta, g = attr(scheds[[i]], "g")$g,
                 schedule = nm[i])))
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$beta, y = .data$g, colour = .data$schedule)) +
      ggplot2::geom_line() +
      ggplot2::labs(x = expression(beta), y = expression(g(beta) == d^2 * log * Z / d * beta^2),
                    colour = "schedule", title = "Curvature g(beta) behind the schedule") +
      legend_below())
  }
  d <- do.call(rbind, lapply(seq_along(scheds), function(i) {
    s <- as.double(unclass(scheds[[i]]))
    data.frame(t = seq(0, 1, length.out = length(s)), beta = s, schedule = nm[i])
  }))
  ggplot2::ggplot(d, ggplot2::aes(x = .data$t, y = .data$beta, colour = .data$schedule)) +
    ggplot2::geom_line() +
    ggplot2::labs(x = "fraction of steps t = k / K", y = expression(beta), colour = "schedule",
                  title = if (length(scheds) == 1L) sprintf("Schedule %s: %d steps", nm[1],
                                                           length(object) - 1L)
                          else "Annealing schedules") +
    legend_below()
}

#' @rdname autoplot.logz_samples
#' @exportS3Method ggplot2::autoplot
autoplot.rbm <- function(object, type = c("history", "log_z", "filters"), n_filters = 16L, ...) {
  check_dots_used(...)
  validate_model(object, "object")
  type <- match_arg(type, "type")
  if (type == "log_z") {
    d <- rbm_log_z_track_data(object)
    p <- ggplot2::ggplot(d$track, ggplot2::aes(x = .data$update, y = .data$log_z)) +
      ggplot2::geom_line(ggplot2::aes(colour = "RTS (tracked)"))
    if (nrow(d$check))
      p <- p + ggplot2::geom_point(data = d$check, ggplot2::aes(colour = "check (exact / AIS)"))
    return(p + ggplot2::scale_colour_manual(values = c("RTS (tracked)" = "blue",
                                                       "check (exact / AIS)" = "red")) +
      ggplot2::labs(x = "parameter update", y = "log Z (nats)", colour = NULL,
                    title = "RBM training: log Z tracked by RTS") + legend_below())
  }
  if (type == "history") {
    h <- object$history
    if (is.null(h) || nrow(h) == 0L)
      stop_no_call("This rbm has no training history; use `type = \"filters\"`.")
    if (is.null(h$train_ll))
      return(ggplot2::ggplot(h, ggplot2::aes(x = .data$epoch, y = .data$reconstruction_error)) +
        ggplot2::geom_line() + ggplot2::geom_point() +
        ggplot2::labs(x = "epoch", y = "reconstruction error (per example)",
                      title = "RBM training: reconstruction error per epoch") +
        legend_below())
    has_valid <- !is.null(h$valid_ll) && any(!is.na(h$valid_ll))
    d <- data.frame(epoch = h$epoch, ll = h$train_ll, set = "train")
    if (has_valid) d <- rbind(d, data.frame(epoch = h$epoch, ll = h$valid_ll, set = "validation"))
    return(ggplot2::ggplot(d[!is.na(d$ll), ], ggplot2::aes(x = .data$epoch, y = .data$ll,
                                                          colour = .data$set)) +
      ggplot2::geom_line() + ggplot2::geom_point() +
      ggplot2::scale_colour_manual(values = c(train = "blue", validation = "red")) +
      ggplot2::labs(x = "epoch", y = "mean log-likelihood (nats per example)", colour = NULL,
                    title = "RBM training: log-likelihood per epoch (log Z by RTS)") +
      legend_below())
  }
  side <- filter_side(object)
  k <- filter_count(object, n_filters)
  d <- do.call(rbind, lapply(seq_len(k), function(j)
    data.frame(col = rep(seq_len(side), side), row = rep(seq_len(side), each = side),
               w = object$W[, j], filter = sprintf("h%d", j))))
  d$filter <- factor(d$filter, levels = sprintf("h%d", seq_len(k)))
  ggplot2::ggplot(d, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$w)) +
    ggplot2::geom_raster() +
    ggplot2::scale_y_reverse() +
    ggplot2::scale_fill_gradient(low = "black", high = "white") +
    ggplot2::facet_wrap(~filter) +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "pixel column", y = "pixel row", fill = "weight",
                  title = sprintf("RBM filters: first %d hidden units", k)) +
    ggplot2::theme(axis.text = ggplot2::element_blank(), axis.ticks = ggplot2::element_blank())
}
