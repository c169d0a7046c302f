# The comparators computed from the same final RTS run: TS, TI (Riemann,
# trapezoid, Friel), TI-RB (Eq. 21), MBAR (Eq. 18), their jackknife se and MBAR's
# asymptotic se; the pooled Eq. 14 likelihood over stages; the c_hat of the
# initial iterations (Rao-Blackwellized or visit counts); Eq. 16 se and Eq. 15 bias of RTS.

# All estimators from the final run's accumulators (K x 6 x M array named by
# RTS_STAT, see R/codes.R), as ladders of log Z_k.
rts_ladders <- function(acc, zeta, log_r, log_z1, betas, which) {
  K <- length(betas)
  s <- rowSums(acc, dims = 2L)   # K x 6
  out <- list()
  if ("rts" %in% which)
    out$rts <- log_z1 + rts_update_ladder(zeta, s[, "sum_q"] / sum(s[, "sum_q"]), log_r)
  if ("ts" %in% which) {
    cnt <- s[, "n"] + 0.1
    out$ts <- log_z1 + zeta + (log_r[1] - log_r) + log(cnt) - log(cnt[1])
  }
  db <- diff(betas)
  if ("ti" %in% which) {
    n <- s[, "n"]
    ok <- n > 0
    E <- V <- rep(NA_real_, K)
    E[ok] <- s[ok, "sum_d"] / n[ok]
    V[ok] <- pmax(s[ok, "sum_d_sq"] / n[ok] - E[ok]^2, 0) + s[ok, "sum_d2"] / n[ok]
    if (sum(ok) >= 2L) {
      E[!ok] <- stats::approx(betas[ok], E[ok], betas[!ok], rule = 2)$y
      V[!ok] <- stats::approx(betas[ok], V[ok], betas[!ok], rule = 2)$y
    } else if (sum(ok) == 1L) {
      E[] <- E[ok]
      V[] <- V[ok]
    }
    trap <- cumsum(c(0, db * (E[-1] + E[-K]) / 2))
    out$ti_riemann <- log_z1 + cumsum(c(0, db * E[-1]))
    out$ti_trapezoid <- log_z1 + trap
    out$ti_friel <- log_z1 + trap - cumsum(c(0, db^2 * (V[-1] - V[-K]) / 12))
  }
  if ("ti_rb" %in% which) {
    E <- s[, "sum_q_d"] / s[, "sum_q"]
    out$ti_rb <- log_z1 + cumsum(c(0, db * (E[-1] + E[-K]) / 2))
  }
  out
}

# MBAR (Shirts & Chodera 2008; the paper's Eq. 18) by Newton's method on the
# stored samples: U (K x S) holds log f_k(x_s), N_k the number of stored
# samples whose k was k. Returns the ladder log Z_k (log Z_1 = log_z1).
rts_mbar <- function(U, store_k, log_z1, init = NULL, max_iter = 100L) {
  K <- nrow(U)
  N <- tabulate(store_k + 1L, K)
  A <- which(N > 0)
  UA <- U[A, , drop = FALSE]
  lN <- log(N[A])
  g <- if (is.null(init)) numeric(length(A)) else init[A] - init[A[1]]
  col_lse <- function(L) {
    mx <- apply(L, 2L, max)
    mx + log(colSums(exp(L - rep(mx, each = nrow(L)))))
  }
  objective <- function(g) {
    sum(col_lse(UA - g + lN)) + sum(N[A] * g)
  }
  f <- objective(g)
  for (it in seq_len(max_iter)) {
    if (length(A) < 2L) break
    L <- UA - g + lN
    P <- exp(L - rep(col_lse(L), each = nrow(L)))
    grad <- N[A] - rowSums(P)
    if (max(abs(grad)) < 1e-9 * ncol(U)) break
    Hs <- diag(rowSums(P), length(A)) - tcrossprod(P)
    free <- -1L
    step <- tryCatch(solve(Hs[free, free, drop = FALSE], grad[free]),
                     error = function(e) grad[free] / pmax(diag(Hs)[free], 1e-12))
    t <- 1
    repeat {
      gn <- g
      gn[free] <- g[free] - t * step
      fn <- objective(gn)
      if (is.finite(fn) && fn <= f + 1e-12 * abs(f)) break
      t <- t / 2
      if (t < 1e-10) break
    }
    if (t < 1e-10) break
    g <- gn
    f <- fn
  }
  logden <- col_lse(UA - g + lN)
  gall <- col_lse(t(U - rep(logden, each = K)))
  se <- rts_mbar_se(U, gall, logden, N)
  structure(log_z1 + gall - gall[1], se = se$se, se_note = se$note)
}

# The asymptotic se of the MBAR estimate of log Z_K - log Z_1 (Shirts &
# Chodera 2008, Eq. D8): with the S x K weights W[n, k] = f_k(x_n) / (Z_k
# sum_j N_j f_j(x_n) / Z_j) (columns summing to 1) and N = diag(N_k), the
# covariance of the log Z_k is Theta = W'(I - W N W')^+ W, computed in K x K
# form from the thin SVD W = U S V': Theta = V S (I - S V' N V S)^+ S V'.
# Treats the stored samples as independent draws. U: K x S log f_k(x_n);
# gall: log Z_k up to a constant; logden: log sum_j N_j f_j(x_n) / Z_j; N: K
# counts. Returns list(se, note) (se NA with a note when it cannot be had).
rts_mbar_se <- function(U, gall, logden, N) {
  K <- nrow(U)
  if (sum(N > 0) < 1L || ncol(U) < 2L)
    return(list(se = NA_real_, note = "too few stored samples"))
  W <- exp(t(U - gall) - logden)   # S x K
  if (!all(is.finite(W))) return(list(se = NA_real_, note = "weights overflowed"))
  sv <- svd(W)
  SV <- sv$v %*% diag(sv$d, length(sv$d))        # V S (K x r)
  inner <- diag(length(sv$d)) - crossprod(SV, N * SV)   # I - S V' N V S
  e <- eigen(inner, symmetric = TRUE)
  keep <- e$values > max(abs(e$values)) * 1e-10
  pinv <- e$vectors[, keep, drop = FALSE] %*% (t(e$vectors[, keep, drop = FALSE]) / e$values[keep])
  theta <- SV %*% pinv %*% t(SV)
  v <- theta[1, 1] + theta[K, K] - 2 * theta[1, K]
  if (!is.finite(v) || v < 0) return(list(se = NA_real_, note = "the covariance estimate is not positive"))
  list(se = sqrt(v), note = NULL)
}

# Estimates at beta = 1 from chain groups removed one at a time (delete-a-group
# jackknife) for the accumulator-based estimators.
rts_jackknife_se <- function(acc, zeta, log_r, log_z1, betas, which, groups = 20L) {
  M <- dim(acc)[3]
  B <- min(groups, M)
  if (B < 2L || !length(which)) return(NULL)
  g <- rep_len(seq_len(B), M)
  K <- length(betas)
  est <- sapply(seq_len(B), function(b) {
    l <- rts_ladders(acc[, , g != b, drop = FALSE], zeta, log_r, log_z1, betas, which)
    vapply(l, function(x) x[K], 0)
  })
  est <- matrix(est, ncol = B)
  rownames(est) <- names(rts_ladders(acc[, , 1L, drop = FALSE], zeta, log_r, log_z1, betas,
                                     which))
  apply(est, 1L, function(x) sqrt((B - 1) / B * sum((x - mean(x))^2)))
}


# The Rao-Blackwellized likelihood of Eq. 14 pooled over stages run under
# different ladders (the combining of sequential updates, the paper's Section
# 2.4 and Appendix A): stage s ran n[s] chain-sweeps under the ladder
# log Z_hat^(s) (row s of log_z_hat, S x K) and gave the Rao-Blackwellized
# marginals c_hat^(s) (row s of c_hat); the log-likelihood of its temperature
# draws, Rao-Blackwellized, is
#   n_s [sum_k c_hat_k^(s) log Z_k - log sum_k r_k Z_k / Z_hat_k^(s)] + const,
# and its maximum over Z_2..Z_K with Z_1 fixed solves the self-consistent
#   Z_k = sum_s n_s c_hat_k^(s) / sum_s n_s (r_k / Z_hat_k^(s)) / D_s,
#   D_s = sum_j r_j Z_j / Z_hat_j^(s),
# iterated here to a fixed point (one stage gives Eq. 12 exactly). Returns the
# ladder log Z_k with log Z_1 = log_z1 and attribute `iterations`.
rts_combine_stages <- function(log_z_hat, c_hat, n, log_r, log_z1, max_iter = 10000L,
                               tol = 1e-10) {
  log_z_hat <- matrix(log_z_hat, ncol = length(log_r))
  c_hat <- matrix(c_hat, ncol = length(log_r))
  S <- nrow(c_hat)
  U <- rep(log_r, each = S) - log_z_hat                  # S x K: log r_k - log Z_hat_k^(s)
  num <- log(pmax(colSums(n * c_hat), 1e-300))
  lse_rows <- function(A) {
    mx <- apply(A, 1L, max)
    mx + log(rowSums(exp(A - mx)))
  }
  g <- log_z_hat[S, ] - log_z_hat[S, 1]
  for (it in seq_len(max_iter)) {
    D <- lse_rows(U + rep(g, each = S))                   # log D_s
    den <- apply(log(n) + U - D, 2L, function(x) {
      mx <- max(x)
      mx + log(sum(exp(x - mx)))
    })
    g_new <- num - den
    g_new <- g_new - g_new[1]
    done <- max(abs(g_new - g)) < tol
    g <- g_new
    if (done) break
  }
  structure(log_z1 + g, iterations = it)
}

# The c_hat_k of an initial iteration from its K x 6 x M accumulators: the
# Rao-Blackwellized marginals of Eq. 9 ("rao_blackwell"), or the counts of the
# sampled k plus 0.1, normalised ("visits": the paper's Figure 1 without
# Rao-Blackwellization).
rts_init_c_hat <- function(acc, how = "rao_blackwell") {
  if (identical(how, "visits")) {
    n <- rowSums(acc[, "n", , drop = FALSE]) + 0.1
    return(n / sum(n))
  }
  s <- rowSums(acc[, "sum_q", , drop = FALSE])
  s / sum(s)
}

# Eq. 12 as an update of log Z_hat (relative to log Z_1); marginals that
# underflowed are floored so that an early iteration cannot give -Inf.
rts_update_ladder <- function(zeta, chat, log_r) {
  lc <- log(pmax(chat, 1e-300))
  zeta + (log_r[1] - log_r) + (lc - lc[1])
}

# Eq. 16 with the (co)variances of c_hat across chains.
rts_se <- function(acc) {
  cm <- acc[, "sum_q", ] / rep(colSums(acc[, "sum_q", , drop = FALSE]), each = dim(acc)[1])
  cm <- matrix(cm, dim(acc)[1])
  M <- ncol(cm)
  if (M < 2L) return(rep(NA_real_, nrow(cm)))
  c_bar <- rowMeans(cm)
  dev <- cm - c_bar
  v <- rowSums(dev^2) / (M - 1) / M
  cov1 <- drop(dev %*% dev[1, ]) / (M - 1) / M
  sqrt(pmax(v[1] / c_bar[1]^2 + v / c_bar^2 - 2 * cov1 / (c_bar[1] * c_bar), 0))
}

# Eq. 15: the bias of log Z_k^RTS to second order, (sigma_1^2 / c_1^2 - sigma_k^2 / c_k^2) / 2,
# with the variances of c_hat estimated across chains as in rts_se().
rts_bias <- function(acc) {
  cm <- acc[, "sum_q", ] / rep(colSums(acc[, "sum_q", , drop = FALSE]), each = dim(acc)[1])
  cm <- matrix(cm, dim(acc)[1])
  M <- ncol(cm)
  if (M < 2L) return(rep(NA_real_, nrow(cm)))
  c_bar <- rowMeans(cm)
  v <- rowSums((cm - c_bar)^2) / (M - 1) / M
  (v[1] / c_bar[1]^2 - v / c_bar^2) / 2
}
