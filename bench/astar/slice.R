# Random-direction slice sampling (Neal 2003, Section 4: a random direction,
# stepping out, shrinkage), the MCMC baseline of Maddison, Tarlow & Minka
# (2014), Section 6.4. Plain R on an A* target's log density; counts density
# evaluations. Used by bench/astar/fig3.R and fig3_d4.R.
slice_random_direction <- function(log_density, x0, n_evals, width = 1, max_steps = 50L) {
  d <- length(x0)
  x <- x0
  lx <- log_density(x)
  used <- 1
  out <- list()
  while (used < n_evals) {
    u <- stats::rnorm(d)
    u <- u / sqrt(sum(u^2))
    level <- lx - stats::rexp(1)
    l <- -width * stats::runif(1)
    r <- l + width
    k <- 0L
    while (k < max_steps && log_density(x + l * u) > level) { l <- l - width; k <- k + 1L; used <- used + 1 }
    used <- used + 1
    k <- 0L
    while (k < max_steps && log_density(x + r * u) > level) { r <- r + width; k <- k + 1L; used <- used + 1 }
    used <- used + 1
    repeat {
      t <- stats::runif(1, l, r)
      y <- x + t * u
      ly <- log_density(y)
      used <- used + 1
      if (ly > level) break
      if (t < 0) l <- t else r <- t
    }
    x <- y
    lx <- ly
    out[[length(out) + 1L]] <- x
  }
  list(samples = do.call(rbind, out), evals = used)
}

# The log density of a "cauchy_regression" target as plain R arithmetic, for
# the slice sampler: it differs from astar_log_density() by a constant (which
# slice sampling ignores) and skips the argument checks of the exported
# function, which cost ~50x the arithmetic at N = 20. Checked against
# astar_log_density() at random points inside the support (constant
# difference) and outside it (-Inf) before it is returned.
cauchy_log_density <- function(tg) {
  X <- tg$X
  y <- tg$y
  s <- tg$par[1]
  lo <- tg$proposal$par[1, ]
  hi <- tg$proposal$par[2, ]
  stopifnot(all(tg$proposal$family == tg$proposal$family[1]), s > 0)
  f <- function(w) {
    if (any(w < lo | w > hi)) return(-Inf)
    r <- X %*% w - y
    -sum(log1p(r * r)) - sum(w * w) / (2 * s * s)
  }
  # fixed points spread over the box (no draws, so the caller's RNG stream is untouched)
  u <- outer(1:20, seq_along(lo), function(i, j) (i * sqrt(2) + j * sqrt(3)) %% 1)
  pts <- sweep(sweep(u, 2L, hi - lo, "*"), 2L, lo, "+")
  gap <- astar_log_density(tg, pts) - apply(pts, 1L, f)
  if (diff(range(gap)) > 1e-9 * max(1, abs(gap[1])))
    stop("cauchy_log_density() does not match astar_log_density() up to a constant")
  out <- hi + 1
  if (is.finite(astar_log_density(tg, out)) || is.finite(f(out)))
    stop("cauchy_log_density(): support differs from astar_log_density()")
  f
}
