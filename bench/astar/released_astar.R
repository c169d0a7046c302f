# The A* sampling iterator as released with the paper (cmaddis/astar-sampling,
# astar.py), restated in plain R for the clutter problem so that its counts can
# be set beside ours: the search walks the Gumbel process of the proposal in
# decreasing order (a popped region draws its point, evaluates o there, and is
# split at that point, both children bounded and queued, no pruning), and it
# stops when the best lower bound reaches the top of the queue. Its
# "likelihoods/sample" count proposal draws (one per pop); its bounds count every
# bounded region. Used by bench/astar/clutter.R and clutter_readings.R (which
# also runs `split = "median"`: bisection at the proposal-mass median of the
# longest side instead of the sampled point).

# a max-heap of priorities with integer payloads
heap_new <- function() { e <- new.env(); e$v <- numeric(0); e$id <- integer(0); e$n <- 0L; e }
heap_push <- function(h, v, id) {
  n <- h$n + 1L; h$n <- n; h$v[n] <- v; h$id[n] <- id
  while (n > 1L) {
    p <- n %/% 2L
    if (h$v[p] >= h$v[n]) break
    tv <- h$v[p]; h$v[p] <- h$v[n]; h$v[n] <- tv
    ti <- h$id[p]; h$id[p] <- h$id[n]; h$id[n] <- ti
    n <- p
  }
}
heap_top <- function(h) if (h$n == 0L) -Inf else h$v[1L]
heap_pop <- function(h) {
  id <- h$id[1L]; n <- h$n
  h$v[1L] <- h$v[n]; h$id[1L] <- h$id[n]; h$n <- n - 1L; n <- n - 1L
  i <- 1L
  repeat {
    l <- 2L * i; r <- l + 1L; m <- i
    if (l <= n && h$v[l] > h$v[m]) m <- l
    if (r <= n && h$v[r] > h$v[m]) m <- r
    if (m == i) break
    tv <- h$v[m]; h$v[m] <- h$v[i]; h$v[i] <- tv
    ti <- h$id[m]; h$id[m] <- h$id[i]; h$id[i] <- ti
    i <- m
  }
  id
}

# clutter problem: o(x) = sum_n log(w N(y_n; x, I) + (1 - w) N(y_n; 0, s^2 I)),
# bound: each term at the box's point nearest y_n; proposal N(0, sigma0^2 I)
clutter_o <- function(y, x, w = 0.5, s = 100) {
  D <- ncol(y)
  a <- log(w) - 0.5 * rowSums((y - rep(x, each = nrow(y)))^2) - 0.5 * D * log(2 * pi)
  b <- log1p(-w) - 0.5 * rowSums(y^2) / s^2 - 0.5 * D * log(2 * pi) - D * log(s)
  m <- pmax(a, b)
  sum(m + log(exp(a - m) + exp(b - m)))
}
clutter_m <- function(y, lo, hi, w = 0.5, s = 100) {
  xs <- pmin(pmax(y, rep(lo, each = nrow(y))), rep(hi, each = nrow(y)))
  D <- ncol(y)
  a <- log(w) - 0.5 * rowSums((y - xs)^2) - 0.5 * D * log(2 * pi)
  b <- log1p(-w) - 0.5 * rowSums(y^2) / s^2 - 0.5 * D * log(2 * pi) - D * log(s)
  m <- pmax(a, b)
  sum(m + log(exp(a - m) + exp(b - m)))
}

released_astar_clutter <- function(y, sigma0 = 2, split = c("point", "median")) {
  split <- match.arg(split)
  D <- ncol(y)
  lv <- function(lo, hi) sum(log(pnorm(hi / sigma0) - pnorm(lo / sigma0)))
  draw <- function(lo, hi) sigma0 * qnorm(runif(D, pnorm(lo / sigma0), pnorm(hi / sigma0)))
  gumbel <- function(mu) mu - log(rexp(1))
  truncate <- function(g, b) -log(exp(-g) + exp(-b))
  boxes <- list(); bnd <- numeric(0); vol <- numeric(0)
  n_lik <- 0; n_bound <- 0
  add_box <- function(lo, hi, logvol) {
    k <- length(boxes) + 1L
    boxes[[k]] <<- list(lo = lo, hi = hi)
    bnd[k] <<- clutter_m(y, lo, hi); vol[k] <<- logvol
    n_bound <<- n_bound + 1
    k
  }
  ub <- heap_new()
  k <- add_box(rep(-Inf, D), rep(Inf, D), 0)
  heap_push(ub, gumbel(0) + bnd[k], k)
  best <- -Inf; best_x <- NULL
  repeat {
    top <- heap_top(ub)
    k <- heap_pop(ub)
    lo <- boxes[[k]]$lo; hi <- boxes[[k]]$hi
    x <- draw(lo, hi)
    n_lik <- n_lik + 1
    G <- top - bnd[k]
    lb <- G + clutter_o(y, x)
    if (lb > best) { best <- lb; best_x <- x }
    G2 <- truncate(gumbel(vol[k]), G)
    if (best < max(G2 + bnd[k], heap_top(ub))) {
      j <- which.max(hi - lo)
      v <- if (split == "point") x[j] else
        sigma0 * qnorm((pnorm(lo[j] / sigma0) + pnorm(hi[j] / sigma0)) / 2)
      lo2 <- lo; hi1 <- hi; hi1[j] <- v; lo2[j] <- v
      v1 <- lv(lo, hi1); v2 <- lv(lo2, hi)
      heir <- if (runif(1) < 1 / (1 + exp(v2 - v1))) 1L else 2L
      k1 <- add_box(lo, hi1, v1); k2 <- add_box(lo2, hi, v2)
      g1 <- if (heir == 1L) G2 else truncate(gumbel(v1), G2)
      g2 <- if (heir == 2L) G2 else truncate(gumbel(v2), G2)
      heap_push(ub, g1 + bnd[k1], k1)
      heap_push(ub, g2 + bnd[k2], k2)
    } else {
      heap_push(ub, G2 + bnd[k], k)
    }
    if (best >= heap_top(ub)) break
  }
  list(x = best_x, gumbel = best, likelihood = n_lik, bound = n_bound)
}

# The same iterator for any target with an R-side o (astar_log_lik) and bound
# (astar_bound) on the uniform proposal over [lo0, hi0]: a stream, so the heap
# of regions is kept from one sample to the next (the released code's reuse of
# bounds). Returns the samples and the per-sample counts (evaluations made
# between two yields).
released_astar_stream <- function(target, lo0, hi0, n) {
  D <- length(lo0)
  lv <- function(lo, hi) sum(log((hi - lo) / (hi0 - lo0)))
  gumbel <- function(mu) mu - log(rexp(1))
  truncate <- function(g, b) -log(exp(-g) + exp(-b))
  boxes <- list(); bnd <- numeric(0); vol <- numeric(0)
  n_lik <- 0; n_bound <- 0
  add_box <- function(lo, hi, logvol) {
    k <- length(boxes) + 1L
    boxes[[k]] <<- list(lo = lo, hi = hi)
    bnd[k] <<- astar_bound(target, lo, hi); vol[k] <<- logvol
    n_bound <<- n_bound + 1
    k
  }
  ub <- heap_new()
  lbh <- heap_new(); lb_x <- list()
  k <- add_box(lo0, hi0, 0)
  heap_push(ub, gumbel(0) + bnd[k], k)
  out <- matrix(NA_real_, n, D); lik <- bnd_n <- numeric(n)
  got <- 0L; l0 <- 0; b0 <- 0
  while (got < n) {
    top <- heap_top(ub)
    k <- heap_pop(ub)
    lo <- boxes[[k]]$lo; hi <- boxes[[k]]$hi
    x <- runif(D, lo, hi)
    n_lik <- n_lik + 1
    G <- top - bnd[k]
    lb_x[[length(lb_x) + 1L]] <- x
    heap_push(lbh, G + astar_log_lik(target, x), length(lb_x))
    G2 <- truncate(gumbel(vol[k]), G)
    if (heap_top(lbh) < max(G2 + bnd[k], heap_top(ub))) {
      j <- which.max(hi - lo)
      lo2 <- lo; hi1 <- hi; hi1[j] <- x[j]; lo2[j] <- x[j]
      v1 <- lv(lo, hi1); v2 <- lv(lo2, hi)
      heir <- if (runif(1) < 1 / (1 + exp(v2 - v1))) 1L else 2L
      k1 <- add_box(lo, hi1, v1); k2 <- add_box(lo2, hi, v2)
      g1 <- if (heir == 1L) G2 else truncate(gumbel(v1), G2)
      g2 <- if (heir == 2L) G2 else truncate(gumbel(v2), G2)
      heap_push(ub, g1 + bnd[k1], k1)
      heap_push(ub, g2 + bnd[k2], k2)
    } else {
      heap_push(ub, G2 + bnd[k], k)
    }
    if (heap_top(lbh) >= heap_top(ub)) {
      got <- got + 1L
      out[got, ] <- lb_x[[heap_pop(lbh)]]
      lik[got] <- n_lik - l0; bnd_n[got] <- n_bound - b0
      l0 <- n_lik; b0 <- n_bound
    }
  }
  list(samples = out, cost = data.frame(likelihood = lik, bound = bnd_n))
}
