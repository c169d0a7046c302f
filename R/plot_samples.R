# plot() for the samplers' results, comparisons, schedules and RBMs (the
# estimates' plots are in R/plot.R, as autoplot_samples.R beside autoplot.R).

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
    legend_free(list(list(x = seq_len(nrow(cst)), y = pmax(cst$likelihood, 1), points = TRUE),
                     list(x = seq_len(nrow(cst)), y = pmax(cst$bound, 1), points = TRUE)),
                c("likelihood", "bound"), pch = c(16, 1), col = c("black", "red"),
                bty = "n")   # R/plot_legend.R
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
    bars <- list(x = rep(h$mids, each = 3L), y = as.vector(rbind(0, h$density, NA)))
    legend_free(list(bars, list(x = grid, y = dens)),   # R/plot_legend.R
                c("exact samples", "target density (normalised)"),
                fill = c("grey85", NA), border = c("grey60", NA), lty = c(NA, 1),
                lwd = c(NA, 2), col = c(NA, "red"), bty = "n")
  } else {
    nm <- or_default(x$target$params, colnames(s))   # the names declared in astar_target()
    graphics::plot(s[, 1], s[, 2], type = "n", xlab = nm[1], ylab = nm[2],
                   main = sprintf("%s: %s", x$method, x$target$name), ...)
    graphics::points(s[, 1], s[, 2], pch = 16, cex = 0.5)
  }
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
                 ylab = expression("perturbed objective" - C[E] * " (nats)"),
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
  leg <- c(expression(v^"*" - C[E] * " (lower, one line per sample)"),
           expression(U - C[E] * " (upper)"))
  lcol <- c("blue", "red")
  lty <- c(1, 1)
  if (is.finite(x$log_z)) {
    graphics::abline(h = x$log_z, lty = 2, col = "black")
    drawn <- c(drawn, list(list(h = x$log_z)))
    leg <- c(leg, as.expression(sprintf("log Z estimate %.3f", x$log_z)))
    lcol <- c(lcol, "black")
    lty <- c(lty, 2)
  }
  legend_free(drawn, leg, col = lcol, lty = lty, bty = "n")   # R/plot_legend.R
  invisible(x)
}

#' @rdname glance.logz_estimate
#' @export
plot.logz_comparison <- function(x, truth = attr(x, "exact"), main = NULL, ...) {
  validate_comparison(x, "x")
  truth <- check_truth(truth)
  n <- nrow(x)
  lo <- x$log_z - 2 * ifelse(is.na(x$se), 0, x$se)
  hi <- x$log_z + 2 * ifelse(is.na(x$se), 0, x$se)
  yl <- range(c(lo, hi, truth), finite = TRUE)
  yl[2] <- yl[2] + 0.25 * max(diff(yl), 1e-3)   # room for the legend
  graphics::plot(seq_len(n), x$log_z, type = "n", xlim = c(0.5, n + 0.5), ylim = yl, xaxt = "n",
                 xlab = "estimate", ylab = "log Z (nats, +/- 2 se)",
                 main = or_default(main, sprintf("log Z by method (%d estimates)", n)), ...)
  graphics::axis(1, at = seq_len(n), labels = x$name, las = if (n > 4) 2 else 1)
  if (!is.null(truth)) graphics::abline(h = truth, lty = 2, col = "grey40")
  ok <- !is.na(x$se) & x$se > 0
  if (any(ok)) graphics::arrows(which(ok), lo[ok], which(ok), hi[ok], angle = 90, code = 3,
                                length = 0.05)
  flagged <- x$reliable %in% FALSE
  graphics::points(seq_len(n), x$log_z, pch = ifelse(flagged, 1, 19))
  leg <- data.frame(txt = c("estimate", if (any(flagged)) "flagged unreliable",
                            if (any(ok)) "+/- 2 se", if (!is.null(truth)) "reference"),
                    pch = c(19, if (any(flagged)) 1, if (any(ok)) NA, if (!is.null(truth)) NA),
                    lty = c(NA, if (any(flagged)) NA, if (any(ok)) 1, if (!is.null(truth)) 2),
                    col = c("black", if (any(flagged)) "black", if (any(ok)) "black",
                            if (!is.null(truth)) "grey40"))
  graphics::legend("topright", leg$txt, pch = leg$pch, lty = leg$lty, col = leg$col, bty = "n",
                   horiz = TRUE, cex = 0.8)
  invisible(x)
}

#' Plot annealing schedules
#'
#' `type = "schedule"` draws beta against the fraction of annealing steps done,
#' for one schedule or several on the same axes (as Figure 1 of Kiwaki 2015).
#' `type = "g"` draws \eqn{g(\beta) = d^2 \log Z / d\beta^2} as estimated for
#' schedules from [schedule_varopt()] (pilot estimate as points, smoothed curve
#' as a line) or [schedule_gms13()] (knots), one curve per schedule that has it.
#'
#' @param x a `logz_schedule`.
#' @param ... more `logz_schedule` objects to draw on the same axes, and
#'   graphical parameters passed to [graphics::plot.default()].
#' @param type `"schedule"` or `"g"`.
#' @param log draw beta (or g) on a log scale (`"y"`) or not (`""`).
#' @param legend add a legend with the schedules' names.
#' @return `x`, invisibly.
#' @section Errors: `type = "g"` when no schedule carries a `g` attribute.
#' @examples
#' plot(schedule_linear(100), schedule_sigmoid(100), schedule_sm08())
#' @export
plot.logz_schedule <- function(x, ..., type = c("schedule", "g"), log = "", legend = TRUE) {
  validate_model(x, "x")
  type <- match_arg(type, "type")
  dots <- list(...)
  is_sched <- vapply(dots, inherits, logical(1), "logz_schedule")
  scheds <- c(list(x), dots[is_sched])
  gpar <- dots[!is_sched]
  cols <- seq_along(scheds)
  if (is.null(gpar$main))
    gpar$main <- if (type == "g") "Curvature g(beta) behind the schedule"
                 else if (length(scheds) == 1L) sprintf("Schedule %s: %d steps",
                                                        or_default(attr(x, "name"), ""),
                                                        length(x) - 1L)
                 else "Annealing schedules"
  if (type == "g") return(invisible(plot_schedule_g(scheds, gpar, log, legend, x)))
  ylim <- if (log == "y") c(min(vapply(scheds, function(s) min(s[s > 0]), 1)), 1) else c(0, 1)
  do.call(graphics::plot, c(list(x = c(0, 1), y = ylim, type = "n", log = log,
                                 xlab = "fraction of steps t = k / K",
                                 ylab = expression(beta)), gpar))
  drawn <- list()
  for (i in seq_along(scheds)) {
    s <- unclass(scheds[[i]])
    t <- seq(0, 1, length.out = length(s))
    keep <- if (log == "y") s > 0 else rep(TRUE, length(s))
    graphics::lines(t[keep], s[keep], col = cols[i], lwd = 1.5)
    drawn[[i]] <- list(x = t[keep], y = s[keep])
  }
  if (isTRUE(legend) && length(scheds) > 1L)
    legend_free(drawn, legend = vapply(scheds, attr, "", "name"), col = cols,   # R/plot_legend.R
                lwd = 1.5, bty = "n")
  invisible(x)
}

plot_schedule_g <- function(scheds, gpar, log, legend, x) {
  has_g <- vapply(scheds, function(s) !is.null(attr(s, "g")), logical(1))
  if (!any(has_g))
    stop_no_call(paste0("`type = \"g\"` needs a schedule with a `g` attribute, from ",
                        "schedule_varopt() or schedule_gms13()."))
  cols <- which(has_g)
  scheds <- scheds[has_g]
  gs <- lapply(scheds, function(s) attr(s, "g"))
  yr <- range(unlist(lapply(gs, function(d) c(d$g, d$g_raw))), na.rm = TRUE)
  if (log == "y") yr[1] <- max(yr[1], 1e-8 * yr[2])
  do.call(graphics::plot, c(list(x = c(0, 1), y = yr, type = "n", log = log,
                                 xlab = expression(beta),
                                 ylab = expression(g(beta) == d^2 * log * Z / d * beta^2)), gpar))
  drawn <- list()
  for (i in seq_along(gs)) {
    d <- gs[[i]]
    if (!is.null(d$g_raw)) graphics::points(d$beta, d$g_raw, col = grDevices::adjustcolor(cols[i], 0.3),
                                            pch = 20, cex = 0.5)
    graphics::lines(d$beta, d$g, col = cols[i], lwd = 1.5)
    drawn <- c(drawn, list(list(x = d$beta, y = d$g)),
               if (!is.null(d$g_raw)) list(list(x = d$beta, y = d$g_raw, points = TRUE)))
  }
  if (isTRUE(legend) && length(scheds) > 1L)
    legend_free(drawn, legend = vapply(scheds, attr, "", "name"), col = cols,   # R/plot_legend.R
                lwd = 1.5, bty = "n")
  x
}

#' Plot a trained RBM
#'
#' @param x an `rbm`.
#' @param type `"history"` (per epoch: the train and validation
#'   log-likelihood for models trained with `rbm_train(track_log_z = TRUE)`,
#'   else the reconstruction error; for trained models), `"log_z"` (the
#'   tracked log Z after every tracking step of `rbm_train(track_log_z =
#'   TRUE)`, with the checks of `track$check_every` as points) or `"filters"` (the weights of the first hidden units as images,
#'   for 784-visible MNIST models or any square number of visible units).
#' @param n_filters number of hidden units to show with `type = "filters"`.
#' @param ... passed to the base graphics calls.
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 16, epochs = 2, progress = FALSE)
#' plot(m)
#' plot(m, type = "filters")
#' @export
plot.rbm <- function(x, type = c("history", "log_z", "filters"), n_filters = 16L, ...) {
  validate_model(x, "x")
  type <- match_arg(type, "type")
  if (type == "log_z") {
    d <- rbm_log_z_track_data(x)
    plot(d$track$update, d$track$log_z, type = "l", col = "blue",
         ylim = range(d$track$log_z, d$check$log_z), xlab = "parameter update",
         ylab = "log Z (nats)", main = "RBM training: log Z tracked by RTS", ...)
    if (nrow(d$check)) graphics::points(d$check$update, d$check$log_z, pch = 19, col = "red")
    legend_free(list(list(x = d$track$update, y = d$track$log_z),   # R/plot_legend.R
                     list(x = d$check$update, y = d$check$log_z, points = TRUE)),
                c("RTS (tracked)", if (nrow(d$check)) "check (exact / AIS)"),
                col = c("blue", if (nrow(d$check)) "red"), lty = c(1, if (nrow(d$check)) NA),
                pch = c(NA, if (nrow(d$check)) 19), bty = "n")
    return(invisible(x))
  }
  if (type == "history") {
    h <- x$history
    if (is.null(h) || nrow(h) == 0L)
      stop_no_call("This rbm has no training history; use `type = \"filters\"`.")
    if (!is.null(h$train_ll) && any(!is.na(h$train_ll))) {
      # log-likelihood tracked by rbm_train(track_log_z = TRUE) (RTS, every epoch) or by its
      # held-out check (exact / AIS log Z, every `eval_every` epochs: only those rows)
      how <- if (is.null(h$log_z_method)) "RTS" else
        paste(unique(stats::na.omit(h$log_z_method)), collapse = "/")
      h <- h[!is.na(h$train_ll), , drop = FALSE]
      has_valid <- !is.null(h$valid_ll) && any(!is.na(h$valid_ll))
      rng <- range(h$train_ll, if (has_valid) h$valid_ll, na.rm = TRUE)
      plot(h$epoch, h$train_ll, type = "n", ylim = rng, xlab = "epoch",
           ylab = "mean log-likelihood (nats per example)",
           main = sprintf("RBM training: log-likelihood per epoch (log Z by %s)", how), ...)
      graphics::lines(h$epoch, h$train_ll, col = "blue")
      graphics::points(h$epoch, h$train_ll, pch = 20, col = "blue")
      if (has_valid) {
        graphics::lines(h$epoch, h$valid_ll, col = "red")
        graphics::points(h$epoch, h$valid_ll, pch = 20, col = "red")
      }
      ok <- !is.na(h$valid_ll)
      legend_free(c(list(list(x = h$epoch, y = h$train_ll)),   # R/plot_legend.R
                    if (has_valid) list(list(x = h$epoch[ok], y = h$valid_ll[ok]))),
                  c("train", if (has_valid) "validation"),
                  col = c("blue", if (has_valid) "red"), lty = 1, pch = 20, bty = "n")
      return(invisible(x))
    }
    plot(h$epoch, h$reconstruction_error, type = "n", xlab = "epoch",
         ylab = "reconstruction error (per example)",
         main = "RBM training: reconstruction error per epoch", ...)
    graphics::lines(h$epoch, h$reconstruction_error)
    graphics::points(h$epoch, h$reconstruction_error, pch = 20)
  } else {
    side <- filter_side(x)
    k <- filter_count(x, n_filters)
    nc <- ceiling(sqrt(k))
    nr <- ceiling(k / nc)
    op <- graphics::par(mfrow = c(nr, nc), mar = c(0.2, 0.2, 0.2, 0.2), oma = c(0, 0, 2.5, 0))
    on.exit(graphics::par(op))
    for (j in seq_len(k)) {
      img <- matrix(x$W[, j], side, side, byrow = TRUE)[, side:1]
      graphics::image(img, col = grDevices::gray.colors(64, 0, 1), axes = FALSE, ...)
    }
    graphics::title(sprintf("RBM filters: weights of the first %d hidden units (black low, white high)",
                            k), outer = TRUE)
  }
  invisible(x)
}

# The filters plots (plot.rbm, autoplot.rbm): the side of the square image of
# the visible units, and how many hidden units to show.
filter_side <- function(x) {
  side <- round(sqrt(x$n_visible))
  if (side * side != x$n_visible)
    stop_no_call(sprintf("`type = \"filters\"` needs a square number of visible units, not %d.",
                         x$n_visible))
  side
}

filter_count <- function(x, n_filters) {
  k <- min(check_count(n_filters, "n_filters"), x$n_hidden)
  if (k < 1L) stop_no_call("This rbm has no hidden units to show.")
  k
}

# The tracked log Z of rbm_train(track_log_z = TRUE) for plot(type = "log_z"):
# list(track (update, log_z), check (update, log_z: the epochs' checks)).
rbm_log_z_track_data <- function(x) {
  tr <- x$log_z_track
  if (is.null(tr) || !nrow(tr))
    stop_no_call("This rbm has no tracked log Z; train it with rbm_train(track_log_z = TRUE).")
  h <- x$history
  last <- tapply(tr$update, tr$epoch, max)
  ok <- if (is.null(h$check_log_z)) logical(0) else !is.na(h$check_log_z)
  check <- data.frame(update = as.numeric(last[as.character(h$epoch[ok])]),
                      log_z = h$check_log_z[ok])
  list(track = tr, check = check)
}
