# The tempered paths smc_once() runs along, each with its start draws and
# kernel moves (cont_sweep(), src/cont_kernel.c):
# * smc_path_function(): the geometric path (1 - beta) log p0 + beta log f
#   from a normalised base p0 (a logz_proposal, or the standard base of a
#   Laplace fit in whitened coordinates) to an R log density f; l = log f -
#   log p0.
# * smc_path_bayes(): the power posteriors log prior + beta log lik of a
#   bayes_model(); l = log lik.

# fn: a cont_evaluator() of the (whitened) target; p0: the base proposal.
smc_path_function <- function(fn, p0, kernel) {
  d <- p0$dim
  grad <- kernel != "rwm"
  list(
    d = d,
    init = function(N) {
      X <- proposal_sample(p0, N, rep(-Inf, d), rep(Inf, d))
      streams <- rng_streams(N)
      lf <- fn(X, 0L)
      list(X = X, lf = as.double(lf), lb = proposal_log_density(p0, X), gf = NULL, gb = NULL,
           has_grad = rep(FALSE, N), streams = streams, evaluations = N,
           gradient_evaluations = 0)
    },
    ell = function(st) ifelse(st$lf == -Inf, -Inf, st$lf - st$lb),
    X = function(st) st$X,
    frame = function(st, w) weighted_col_sd(st$X, w),
    subset = function(st, idx, streams = FALSE) {
      st$X <- st$X[idx, , drop = FALSE]
      st$lf <- st$lf[idx]
      st$lb <- st$lb[idx]
      st$has_grad <- st$has_grad[idx]
      # gradients where every particle has them, else NULL (cont_sweep computes them)
      if (!is.null(st$gf) && all(st$has_grad)) {
        st$gf <- st$gf[idx, , drop = FALSE]
        st$gb <- st$gb[idx, , drop = FALSE]
      } else {
        st["gf"] <- list(NULL)
        st["gb"] <- list(NULL)
      }
      if (streams) st$streams <- st$streams[, idx, drop = FALSE]
      st
    },
    assign = function(st, rows, sub) {
      st$X[rows, ] <- sub$X
      st$lf[rows] <- sub$lf
      st$lb[rows] <- sub$lb
      if (!is.null(sub$gf)) {
        if (is.null(st$gf)) st$gf <- st$gb <- matrix(NA_real_, nrow(st$X), d)
        st$gf[rows, ] <- sub$gf
        st$gb[rows, ] <- sub$gb
        st$has_grad[rows] <- TRUE
      }
      st$streams[, rows] <- sub$streams
      st[c("evaluations", "gradient_evaluations")] <- sub[c("evaluations", "gradient_evaluations")]
      st
    },
    move = function(st, beta, step, scale, n_leapfrog) {
      N <- nrow(st$X)
      res <- cont_sweep(fn, p0, st[c("X", "lf", "lb", "gf", "gb", "streams")],
                        list(kernel = kernel, n_leapfrog = n_leapfrog, sweeps = 1L,
                             beta = rep(beta, N), step = step, scale = scale))
      st[c("X", "lf", "lb", "streams", "accept")] <- res[c("X", "lf", "lb", "streams", "accept")]
      if (grad) {
        st$gf <- res$gf
        st$gb <- res$gb
      }
      st$evaluations <- st$evaluations + res$evaluations
      st$gradient_evaluations <- st$gradient_evaluations + res$gradient_evaluations
      st
    },
    counts = function(st) c(density = st$evaluations, gradient = st$gradient_evaluations))
}

# The power-posterior path of a bayes_model: the kernel runs at beta = 1 of
# cont_sweep() on the evaluator of log prior + b log lik for the current b (a
# dummy standard normal base that the path at beta = 1 ignores), in the
# coordinates z of the particles' weighted mean and covariance (x = mu + z L',
# a dense mass matrix; the Jacobian is constant, so the moves are those of x);
# the evaluator keeps the two terms (and gradients) at the last points it was
# called at, which are the proposals the chains accept.
smc_path_bayes <- function(model, kernel) {
  d <- model$dim
  grad <- kernel != "rwm"
  dummy <- proposal_normal(rep(0, d), 1)
  vec <- model$vectorized
  env <- new.env(parent = emptyenv())
  env$b <- 0
  env$last <- NULL
  env$n_div <- 0
  terms <- function(X, code) {
    lenient <- code == 2L
    lp <- eval_log_density(model$log_prior, X, vec, d, lenient = lenient)
    ll <- eval_log_density(model$log_lik, X, vec, d, lenient = lenient)
    out <- list(X = X, lp = lp, ll = ll)
    if (code > 0L) {
      ok <- !is.na(lp) & !is.na(ll) & lp > -Inf & ll > -Inf
      out$gp <- eval_gradient(model$gradient_prior, X, ok, vec, d, lenient = lenient)
      out$gl <- eval_gradient(model$gradient_lik, X, ok, vec, d, lenient = lenient)
      bad <- is.na(lp) | is.na(ll) | is.na(out$gp[, 1L]) | is.na(out$gl[, 1L])
      if (any(bad)) {
        env$n_div <- env$n_div + sum(bad)
        out$lp[bad] <- -Inf
        out$gp[bad, ] <- 0
        out$gl[bad, ] <- 0
      }
    }
    out
  }
  tempered <- function(lp, ll, b) ifelse(lp == -Inf | ll == -Inf, -Inf, lp + b * ll)
  fn <- function(Z, code = 0L) {
    fr <- env$frame
    X <- sweep(Z %*% t(fr$L), 2L, fr$mu, "+")
    tr <- terms(X, code)
    tr$Z <- Z
    env$last <- tr
    v <- tempered(tr$lp, tr$ll, env$b)
    if (code > 0L) attr(v, "gradient") <- (tr$gp + env$b * tr$gl) %*% fr$L
    v
  }
  list(
    d = d,
    init = function(N) {
      X <- bayes_prior_draws(model, N)
      streams <- rng_streams(N)
      tr <- terms(X, if (grad) 1L else 0L)
      list(X = X, lp = tr$lp, ll = tr$ll, gp = tr$gp, gl = tr$gl, streams = streams,
           evaluations = N, gradient_evaluations = if (grad) N else 0)
    },
    ell = function(st) st$ll,
    X = function(st) st$X,
    frame = function(st, w) weighted_frame(st$X, w),
    subset = function(st, idx, streams = FALSE) {
      st$X <- st$X[idx, , drop = FALSE]
      st$lp <- st$lp[idx]
      st$ll <- st$ll[idx]
      if (grad) {
        st$gp <- st$gp[idx, , drop = FALSE]
        st$gl <- st$gl[idx, , drop = FALSE]
      }
      if (streams) st$streams <- st$streams[, idx, drop = FALSE]
      st
    },
    assign = function(st, rows, sub) {
      st$X[rows, ] <- sub$X
      st$lp[rows] <- sub$lp
      st$ll[rows] <- sub$ll
      if (grad) {
        st$gp[rows, ] <- sub$gp
        st$gl[rows, ] <- sub$gl
      }
      st$streams[, rows] <- sub$streams
      st[c("evaluations", "gradient_evaluations")] <- sub[c("evaluations", "gradient_evaluations")]
      st
    },
    move = function(st, beta, step, frame, n_leapfrog) {
      N <- nrow(st$X)
      env$b <- beta
      env$frame <- frame
      env$last <- NULL
      Z <- t(forwardsolve(frame$L, t(sweep(st$X, 2L, frame$mu))))
      state <- list(X = Z, lf = tempered(st$lp, st$ll, beta), lb = rep(0, N),
                    gf = if (grad) (st$gp + beta * st$gl) %*% frame$L,
                    gb = if (grad) matrix(0, N, d), streams = st$streams)
      res <- cont_sweep(fn, dummy, state,
                        list(kernel = kernel, n_leapfrog = n_leapfrog, sweeps = 1L,
                             beta = rep(1, N), step = step, scale = rep(1, d)))
      moved <- which(rowSums(res$X != Z) > 0)
      if (length(moved)) {
        last <- env$last
        if (is.null(last) || any(res$X[moved, ] != last$Z[moved, ]))
          internal_error("an accepted point is not the last point evaluated.")
        st$X[moved, ] <- last$X[moved, ]
        st$lp[moved] <- last$lp[moved]
        st$ll[moved] <- last$ll[moved]
        if (grad) {
          st$gp[moved, ] <- last$gp[moved, ]
          st$gl[moved, ] <- last$gl[moved, ]
        }
      }
      st$streams <- res$streams
      st$accept <- res$accept
      st$evaluations <- st$evaluations + res$evaluations
      st$gradient_evaluations <- st$gradient_evaluations + res$gradient_evaluations
      st
    },
    counts = function(st) c(density = st$evaluations, gradient = st$gradient_evaluations))
}
