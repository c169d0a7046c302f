# A multi-start mode search for smc() on an R log density, and the check
# that the run's final particles hold the mass of every mode it found. A
# tempered path from a base fitted at one mode rarely reaches a separate
# mode: its particles then all sit in the first, and log Z misses the other's
# mass while the replicates agree (the se does not cover the error). The
# search starts the optimiser of laplace_base() from over-dispersed points
# (the Laplace base with its scale multiplied by `spread`); each mode it
# finds, at least `min_distance` from the others in the base's whitened
# coordinates, gets a share of the mass from its own Laplace approximation.

# The distinct modes found by the optimiser of laplace_base() from
# over-dispersed starts around the Laplace fit lb (x = mode + C z, z ~ N(0,
# spread^2 I)): a list of logz_laplace fits (Gaussian) other than lb's own
# mode, the evaluations spent, and `search` (what it tried). The starts are
# chosen from a screen of `screen` such points (one density evaluation
# each): half of each batch the points where log f most exceeds the Laplace
# approximations of the modes known so far (mass no known mode explains,
# such as the basin of a narrow mode), half at random among the rest; points within one
# whitened unit of a mode already found are skipped. Batches of `starts`
# run while the last one found a new mode (up to `max_batches`), so the
# search grows with what it finds; within a batch, `patience` starts in a row
# that found only known modes end it (the gradient was checked at the first
# fit, and a start that returns to a known mode skips its Hessian). Starts where the search fails (a log
# density not finite there, a Hessian not positive definite, the support
# left) are skipped.
smc_mode_search <- function(model, gradient, vectorized, lb, starts, spread = 5,
                            min_distance = 3, screen = NULL, max_batches = 4L, patience = 24L) {
  d <- lb$dim
  evals <- c(density = 0, gradient = 0)
  none <- list(modes = list(), evaluations = evals,
               search = c(starts = 0, screened = 0, batches = 0))
  if (starts < 1L) return(none)
  if (is.null(screen)) screen <- min(5000L, 2000L + 1200L * d)
  # count every point evaluated, also by searches that fail
  points <- function(x) if (vectorized && is.matrix(x)) nrow(x) else 1
  counted <- function(fun, k) if (!is.null(fun)) function(x) {
    evals[[k]] <<- evals[[k]] + points(x)
    fun(x)
  }
  f <- counted(model, "density")
  g <- counted(gradient, "gradient")
  Z <- matrix(stats::rnorm(screen * d, 0, spread), screen, d)
  X <- laplace_to_x(lb, Z)
  lf <- suppressWarnings(catch_error(eval_log_density(f, X, vectorized, d, lenient = TRUE),
                                     function(e) rep(NA_real_, screen)))
  lf[!is.finite(lf)] <- -Inf
  # log f less the log of the known modes' Laplace approximations (each
  # Z_k N(mode_k, C_k C_k'), i.e. log f(mode_k) - |z_k|^2 / 2): large where f
  # has mass that no mode found so far explains
  unexplained <- function(fits) {
    lq <- vapply(fits, function(m) {
      U <- backsolve(m$chol_cov, t(X) - m$mode)
      m$log_f_mode - 0.5 * colSums(U^2)
    }, numeric(screen))
    lf - apply(matrix(lq, screen), 1L, log_sum_exp)
  }
  lw <- unexplained(list(lb))
  by_weight <- order(lw, decreasing = TRUE)
  at_random <- sample.int(screen)
  whiten <- function(x) backsolve(lb$chol_cov, x - lb$mode)
  found <- list()
  at <- list(rep(0, d))
  used <- logical(screen)
  near_known <- function(i) any(vapply(at, function(a) sqrt(sum((Z[i, ] - a)^2)) < 1, TRUE))
  next_from <- function(ord, n) {
    out <- integer()
    for (i in ord) {
      if (length(out) >= n) break
      if (used[i] || lw[i] == -Inf || near_known(i)) next
      out <- c(out, i)
    }
    out
  }
  tried <- 0L
  batches <- 0L
  repeat {
    batches <- batches + 1L
    n_top <- ceiling(starts / 2)
    top <- next_from(by_weight, n_top)
    used[top] <- TRUE
    rnd <- next_from(at_random, starts - length(top))
    used[rnd] <- TRUE
    # alternate the two kinds, so that a batch cut short tried both
    batch <- c(rbind(top, rnd)[, seq_len(max(length(top), length(rnd)))])
    batch <- batch[!is.na(batch)]
    if (!length(batch)) break
    new <- 0L
    quiet <- 0L
    known <- function(m) any(vapply(at, function(a) sqrt(sum((whiten(m) - a)^2)) < min_distance, TRUE))
    for (i in batch) {
      # `patience` starts in a row that found only known modes end the batch
      if (quiet >= patience) break
      tried <- tried + 1L
      quiet <- quiet + 1L
      fit <- catch_error(suppressWarnings(laplace_fit(f, X[i, ], g, vectorized, df = Inf,
                                                      check_gradient = FALSE,
                                                      keep = function(m) !known(m))),
                         function(e) NULL)
      if (is.null(fit)) next
      if (!isTRUE(fit$converged) || !is.finite(fit$log_z_laplace)) next
      z <- whiten(fit$mode)
      if (any(vapply(at, function(a) sqrt(sum((z - a)^2)) < min_distance, TRUE))) next
      quiet <- 0L
      at[[length(at) + 1L]] <- z
      found[[length(found) + 1L]] <- fit
      new <- new + 1L
    }
    if (new == 0L || batches >= max_batches) break
    lw <- unexplained(c(list(lb), found))
    by_weight <- order(lw, decreasing = TRUE)
  }
  list(modes = found, evaluations = evals,
       search = c(starts = tried, screened = screen, batches = batches))
}

# The flag (a character vector, empty when none) of a run whose weighted
# final particles (x-space rows of X, normalised log weights log_w within
# each replicate `run`) hold less than half the Laplace share of a mode found
# by the search (shares of at least `min_share` only): each particle is
# assigned to the mode whose Laplace Gaussian, weighted by its share, is
# highest there.
smc_check_modes <- function(lb, modes, X, log_w, run, min_share = 0.01) {
  if (!length(modes)) return(character())
  all <- c(list(lb), modes)
  lz <- vapply(all, `[[`, 0, "log_z_laplace")
  share <- exp(lz - log_sum_exp(lz))
  score <- vapply(all, function(m) {
    U <- backsolve(m$chol_cov, t(sweep(X, 2L, m$mode)))
    -0.5 * colSums(U^2) - m$log_det
  }, numeric(nrow(X)))
  score <- matrix(score, nrow(X))
  owner <- max.col(sweep(score, 2L, log(share), "+"), ties.method = "first")
  w <- exp(log_w - stats::ave(log_w, run, FUN = max))
  w <- w / stats::ave(w, run, FUN = sum) / length(unique(run))
  held <- vapply(seq_along(all), function(k) sum(w[owner == k]), 0)
  miss <- which(seq_along(all) > 1L & share >= min_share & held < share / 2)
  if (!length(miss)) return(character())
  k <- miss[which.max(share[miss])]
  sprintf(paste0("a mode the particles did not reach: the multi-start search found %d other ",
                 "mode%s; one at %s, with %.2f of the Laplace mass of the modes found, holds ",
                 "%.2f of the final weight (threshold: half its share, for shares >= %g); log Z ",
                 "likely misses its mass"),
          length(modes), if (length(modes) > 1L) "s" else "",
          paste0("(", format_point(utils::head(all[[k]]$mode, 4)),
                 if (length(all[[k]]$mode) > 4L) ", ..." else "", ")"),
          share[k], held[k], min_share)
}

# The Laplace base widened to cover the modes found (shares from their
# Laplace masses, those of at least `min_share`): the Gaussian with the mean
# and covariance of the mixture of their Laplace fits, kept as a logz_laplace
# (with lb's df) so that the run whitens by it; lb itself when no other mode
# has that share.
smc_cover_modes <- function(lb, modes, min_share = 0.01) {
  if (!length(modes)) return(lb)
  all <- c(list(lb), modes)
  lz <- vapply(all, `[[`, 0, "log_z_laplace")
  share <- exp(lz - log_sum_exp(lz))
  keep <- share >= min_share
  if (sum(keep) < 2L) return(lb)
  all <- all[keep]
  p <- share[keep] / sum(share[keep])
  M <- do.call(rbind, lapply(all, `[[`, "mode"))
  mu <- colSums(p * M)
  S <- Reduce(`+`, lapply(seq_along(all), function(k) {
    C <- all[[k]]$chol_cov
    tcrossprod(C) * p[k] + p[k] * tcrossprod(M[k, ] - mu)
  }))
  U <- upper_factor(S)
  if (is.null(U)) return(lb)
  new <- lb
  new$mode <- mu
  new$chol_cov <- U
  new$log_det <- sum(log(diag(U)))
  new
}
