# Random-direction slice sampling (Neal 2003, Section 4: a random direction,
# stepping out, shrinkage), the MCMC baseline of Maddison, Tarlow & Minka
# (2014), Section 6.4. Plain R on an A* target's log density; counts density
# evaluations. Used by bench/astar/fig3.R.
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
