# ARM-reseed's fresh particles: S draws of the first n variables that are
# independent of the current particle set, each with an importance weight that
# makes the block properly weighted for f_n, the unnormalised p_n of the run:
# E[exp(lu)] = Z_n / Z_0 with Z_0 = exp(spec$log_z0). Moving the drawn states by
# a kernel invariant for p_n keeps the weights valid, so ARM-reseed moves them
# `reseed_steps` times before they join the pool.
#   gpc:   the prior N(0, K + I) of z_[n] conditioned on the signs one point at
#          a time (the GHK simulator): z_i | z_<i from the prior's Gaussian
#          conditional truncated to y_i z_i > 0; weight prod_i Phi(y_i m_i / s_i).
#   ising: the spins drawn one at a time from p_i(x_i | x_<i) (the local field
#          of the spins already drawn); weight prod_i sum_s exp(s h_i).
#   rbm:   the base, independent visible units with the base marginals (see
#          logz_base), or, with training examples (`reseed_data`), a mixture
#          with one component per example, pixel i on with probability
#          eps + (1 - 2 eps) d_i (eps = ARM_SEED_EPS); weight f_n(x) / q(x).
# Returns a closure function(n, S) -> list(X = n x S states in the order the
# variables are added, lu = S log weights).
ARM_SEED_EPS <- 0.05

# The mixture proposal of `reseed_data` (rows = examples, columns = visible
# units in the model's order, values in [0, 1]): N x M component means in the
# order the units are added.
arm_seed_components <- function(data, N, order) {
  if (!is.numeric(data) || !is.matrix(data) || ncol(data) != N || nrow(data) < 1L ||
      anyNA(data) || any(data < 0 | data > 1))
    stop_no_call(sprintf("`reseed_data` must be a numeric matrix of training examples with %d columns (one per visible unit) and values in [0, 1], not %s.",
                         N, describe(data)))
  t(ARM_SEED_EPS + (1 - 2 * ARM_SEED_EPS) * data[, order, drop = FALSE])
}

arm_fresh_sampler <- function(spec) {
  cm <- spec$cm
  if (spec$type == ARM_MODEL[["gpc"]]) {
    L <- t(chol(cm$sigma))
    function(n, S) {
      E <- matrix(0, n, S)
      lu <- numeric(S)
      for (i in seq_len(n)) {
        m <- if (i > 1L) drop(L[i, seq_len(i - 1L)] %*% E[seq_len(i - 1L), , drop = FALSE]) else numeric(S)
        s <- L[i, i]
        y <- cm$y[i]
        # e_i = y t with t ~ N(0, 1) truncated to t > -y m / s
        lp <- stats::pnorm(y * m / s, log.p = TRUE)
        t <- -stats::qnorm(log(stats::runif(S)) + lp, log.p = TRUE)
        t <- pmax(t, -y * m / s)
        E[i, ] <- y * t
        lu <- lu + lp
      }
      list(X = L[seq_len(n), seq_len(n), drop = FALSE] %*% E, lu = lu)
    }
  } else if (spec$type == ARM_MODEL[["ising"]]) {
    function(n, S) {
      X <- matrix(0, n, S)
      lu <- numeric(S)
      for (i in seq_len(n)) {
        h <- rep(cm$field[i], S)
        e <- seq.int(cm$ptr[i] + 1L, length.out = cm$ptr[i + 1L] - cm$ptr[i])
        e <- e[cm$nbr[e] < i - 1L]
        for (j in e) h <- h + cm$nw[j] * X[cm$nbr[j] + 1L, ]
        u <- cm$lo * h
        v <- cm$hi * h
        mx <- pmax(u, v)
        lu <- lu + mx + log(exp(u - mx) + exp(v - mx))
        X[i, ] <- ifelse(stats::runif(S) < stats::plogis((cm$hi - cm$lo) * h), cm$hi, cm$lo)
      }
      list(X = X, lu = lu)
    }
  } else if (!is.null(spec$seed_p)) {
    P <- spec$seed_p
    function(n, S) {
      Pn <- P[seq_len(n), , drop = FALSE]
      comp <- sample.int(ncol(P), S, replace = TRUE)
      X <- matrix(as.double(stats::runif(n * S) < Pn[, comp]), n, S)
      G <- cm$b + crossprod(cm$W[seq_len(n), , drop = FALSE], X)
      lf <- drop(crossprod(cm$a[seq_len(n)], X)) + colSums(softplus(G))
      # log q(x) = log mean_m prod_i Bernoulli(x_i; P_im): an M x S matrix, then log-mean-exp
      L <- crossprod(log(Pn), X) + crossprod(log1p(-Pn), 1 - X)
      mx <- apply(L, 2L, max)
      lq <- mx + log(colMeans(exp(L - rep(mx, each = nrow(L)))))
      list(X = X, lu = lf - lq - spec$log_z0)
    }
  } else {
    p <- spec$base_p
    function(n, S) {
      pn <- p[seq_len(n)]
      X <- matrix(as.double(stats::runif(n * S) < pn), n, S)
      G <- cm$b + crossprod(cm$W[seq_len(n), , drop = FALSE], X)
      lf <- drop(crossprod(cm$a[seq_len(n)], X)) + colSums(softplus(G))
      lq <- drop(crossprod(log(pn), X) + crossprod(log1p(-pn), 1 - X))
      list(X = X, lu = lf - lq - spec$log_z0)
    }
  }
}
