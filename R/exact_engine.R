# Exact log Z by enumeration in chunks, so that long enumerations report
# progress (and can be interrupted between chunks): the first k enumerated
# units are fixed to each of their 2^k values in turn, the rest is enumerated by
# the C engine on the conditioned model, and the 2^k log Z's of the pieces are
# combined by log-sum-exp:
#   Z = sum_s exp(c(s)) Z(rest | s).
# Used when `progress` is TRUE and the enumeration has >= 2^chunk_min_units
# states; smaller enumerations take under a second.

chunk_min_units <- 22L

chunk_units <- function(n) min(8L, n - 16L)

# The bits of 0, ..., 2^k - 1 as a 2^k x k 0/1 matrix (row p: prefix p - 1).
prefix_bits <- function(k) {
  P <- 2^k
  outer(seq_len(P) - 1, 2^(seq_len(k) - 1), function(p, b) as.double((p %/% b) %% 2 == 1))
}

# RBM: enumerate `layer` ("hidden": the hidden units, visible summed out) with
# the first k units of that layer fixed per chunk.
rbm_exact_chunked <- function(model, layer, threads, k = chunk_units(if (layer == "hidden")
                                model$n_hidden else model$n_visible), progress = TRUE) {
  W <- model$W
  a <- as.double(model$a)
  b <- as.double(model$b)
  S <- prefix_bits(k)
  fix <- seq_len(k)
  pb <- progress_bar(progress, nrow(S))
  on.exit(pb$close())
  lz <- numeric(nrow(S))
  for (p in seq_len(nrow(S))) {
    s <- S[p, ]
    lz[p] <- if (layer == "hidden") {
      sum(b[fix] * s) + rbm_exact_log_z(W[, -fix, drop = FALSE],
                                        a + drop(W[, fix, drop = FALSE] %*% s), b[-fix], "hidden",
                                        threads)
    } else {
      sum(a[fix] * s) + rbm_exact_log_z(W[-fix, , drop = FALSE], a[-fix],
                                        b + drop(crossprod(W[fix, , drop = FALSE], s)), "visible",
                                        threads)
    }
    pb$update(p)
  }
  log_sum_exp(lz)
}

# Ising model: the first k variables fixed per chunk; their edges to the rest
# become fields, edges among them and their fields a constant. With
# `marginals` "node" or "pair" (see MARGINALS), also the marginals (as the C
# engine returns them: `node` P(x_i = hi), `pair` P(x_i = x_j = hi)), each the
# mixture over the prefixes s with weights Z(s) / Z of the prefix's own
# indicators and the conditioned model's marginals.
ising_exact_chunked <- function(model, threads, k = chunk_units(model$n), progress = TRUE,
                                marginals = "none") {
  e <- model$edges
  v <- model$values
  f <- as.double(model$field)
  inner <- e$from <= k & e$to <= k
  rest <- e$from > k & e$to > k
  cross <- !inner & !rest
  S <- prefix_bits(k)
  pb <- progress_bar(progress, nrow(S))
  on.exit(pb$close())
  lz <- numeric(nrow(S))
  cm <- list(n = model$n - k, from = e$from[rest] - k - 1L, to = e$to[rest] - k - 1L,
             weight = e$weight[rest], lo = v[1], hi = v[2])
  fixed_end <- ifelse(e$from[cross] <= k, e$from[cross], e$to[cross])
  free_end <- ifelse(e$from[cross] <= k, e$to[cross], e$from[cross]) - k
  node <- matrix(0, nrow(S), model$n - k)
  pair <- matrix(0, nrow(S), sum(rest))
  for (p in seq_len(nrow(S))) {
    x <- v[1] + S[p, ] * (v[2] - v[1])
    const <- sum(e$weight[inner] * x[e$from[inner]] * x[e$to[inner]]) + sum(f[seq_len(k)] * x)
    cm$field <- f[-seq_len(k)] + rowsum_to(free_end, e$weight[cross] * x[fixed_end], model$n - k)
    res <- ising_enumerate(cm, marginals, threads)
    lz[p] <- const + res$log_z
    if (marginals != "none") node[p, ] <- res$node
    if (marginals == "pair") pair[p, ] <- res$pair
    pb$update(p)
  }
  log_z <- log_sum_exp(lz)
  if (marginals == "none") return(log_z)
  w <- exp(lz - log_z)
  out <- list(log_z = log_z, node = c(colSums(w * S), colSums(w * node)))
  if (marginals == "pair") {
    pr <- numeric(nrow(e))
    pr[inner] <- colSums(w * S[, e$from[inner], drop = FALSE] * S[, e$to[inner], drop = FALSE])
    pr[cross] <- colSums(w * S[, fixed_end, drop = FALSE] * node[, free_end, drop = FALSE])
    pr[rest] <- colSums(w * pair)
    out$pair <- pr
  }
  out
}
