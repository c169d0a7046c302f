# The RTS engine (Carlson et al. 2016): the one R wrapper per C routine
# (src/rts.c), the samplers of each kind of model, the annealing pilot, the
# initial iterations (the final run is in R/rts_final.R), the Eq. 12 ladder
# update, the reliability checks and the result object. The user-facing method
# and its argument checks are in R/rts.R; print in R/print.R, plot in R/plot.R.

# What crosses into rts_rbm / rts_ising, checked and with the C types: betas
# (K >= 2 doubles), state list(X (rows x M doubles), k (M integers, 0-based),
# streams (6 x M doubles)) and control list(threads, sweeps, thin, offset
# (integers), step (double), moments (logical), lrz (K doubles), and what
# else the routine reads). Returns list(betas, state, control).
rts_chunk_args <- function(betas, state, control, rows) {
  betas <- internal_double(betas, "betas")
  if (length(betas) < 2L) internal_error("`betas` must have at least 2 values.")
  k <- internal_integer(state$k, "k")
  M <- length(k)
  if (M < 1L) internal_error("`k` must have one entry per chain, not none.")
  state <- list(X = internal_double(state$X, "X", len = as.double(rows) * M), k = k,
                streams = internal_streams(state$streams, M))
  control[c("threads", "sweeps", "thin", "offset", "step", "moments", "lrz")] <- list(
    internal_count(control$threads, "threads"), internal_count(control$sweeps, "sweeps"),
    internal_count(control$thin, "thin", min = 0L),
    internal_count(control$offset, "offset", min = 0L),
    internal_number(control$step, "step"), internal_flag(control$moments, "moments"),
    internal_double(control$lrz, "lrz", len = length(betas)))
  list(betas = betas, state = state, control = control)
}

# The C result with its accumulators named by RTS_STAT.
rts_name_acc <- function(res) {
  dimnames(res$acc) <- list(NULL, names(RTS_STAT), NULL)
  res
}

# `control$sweeps` sweeps of an RBM's chains: model list(W (nv x nh), a (nv),
# b (nh), a0 (nv): the base's visible biases) and, with control$sparse TRUE,
# the blocked weights BX, BY of the sparse kernel; returns list(X (nv x M), k,
# streams, acc (K x 6 x M, named by RTS_STAT), store (K x stored sweeps M:
# log f_k(x) every control$thin-th sweep, with thin > 0), store_k).
rts_rbm_chunk <- function(model, betas, state, control) {
  if (!is.list(model) || !is.double(model$W) || !is.double(model$a) || !is.double(model$b) ||
      !is.double(model$a0) || length(model$a0) != length(model$a))
    internal_error("the RTS RBM model must be list(W, a, b, a0) of doubles.")
  a <- rts_chunk_args(betas, state, control, length(model$a))
  rts_name_acc(.Call(C_rts_rbm, model, a$betas, a$state, a$control))
}

# The same for an Ising model: model the ising_c_model() list with the sweep
# order (0-based) and the base field a0; X is n x M spins.
rts_ising_chunk <- function(model, betas, state, control) {
  if (!is.list(model) || !is.integer(model$order) || !is.double(model$a0) ||
      length(model$order) != length(model$a0))
    internal_error("the RTS Ising model must carry an integer `order` and a double `a0`.")
  a <- rts_chunk_args(betas, state, control, length(model$a0))
  rts_name_acc(.Call(C_rts_ising, model, a$betas, a$state, a$control))
}

# The sampler of each kind of model, for rts_engine(): list(log_z1 (log Z of
# the base p_1), X (the chains' initial states, one column per chain, drawn
# from the base), run(state, control) (advances the chains by control$sweeps
# sweeps; see rts_engine())). a0: the base's biases (RBM, visible) or field
# (Ising).
rts_prepare_rbm <- function(model, a0, args) {
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  sparse <- !identical(args$kernel, "dense")
  if (sparse) mlist <- c(mlist, ais_rbm_prepare(mlist))   # blocked weights, once
  nv <- model$n_visible
  list(log_z1 = sum(softplus(a0)) + model$n_hidden * log(2),
       X = matrix(as.double(stats::runif(nv * args$n_chains) < stats::plogis(a0)), nv),
       run = function(state, control)
         rts_rbm_chunk(mlist, args$betas, state, c(control, sparse = sparse)))
}

rts_prepare_ising <- function(model, a0, args) {
  v <- model$values
  cm <- ising_c_model(model, order = ising_sweep_order(model), a0 = a0)
  up <- stats::runif(model$n * args$n_chains) < stats::plogis(a0 * (v[2] - v[1]))
  list(log_z1 = sum(a0 * v[1] + softplus(a0 * (v[2] - v[1]))),
       X = matrix(ifelse(up, v[2], v[1]), model$n),
       run = function(state, control) rts_ising_chunk(cm, args$betas, state, control))
}

# A continuous target: model(x) the log unnormalised density (of one point, or
# with `vectorized` of the rows of a matrix), base a normalised proposal (Z_1 =
# 1, Delta = log f - log p_1). The x-move at beta_k on all chains at once is
# either `metropolis_steps` random-walk Metropolis steps in R (`kernel =
# "rwm"` from a proposal base), or one sweep of the C kernels of
# cont_kernel.c (`"rwm"` from a Laplace base, `"mala"`, `"hmc"`; per-chain
# streams), with a step per temperature adapted in the initial iterations only
# (then frozen, so the final run is a fixed Markov kernel); for MALA and HMC
# also a diagonal mass matrix per temperature, the position scales set after
# each initial iteration to the sd of the states there (rts_rung_scales()),
# then frozen. `target` is NULL or
# list(model, gradient, laplace) from rts.function(): the (whitened) target and
# its Laplace fit. Also returns step_size(): the steps in force, mass(): the
# K x d position scales (1 / sqrt(mass)) in force, in the coordinates the
# chains move in (whitened for a Laplace base), and x(): the chains' states on
# the scale of `model`.
rts_prepare_function <- function(model, base, args, vectorized, step_size, metropolis_steps,
                                 target = NULL, kernel = "rwm", n_leapfrog = 10L) {
  d <- base$dim
  M <- args$n_chains
  K <- args$K
  betas <- args$betas
  in_r <- kernel == "rwm" && is.null(target$laplace)
  if (is.null(target)) target <- list(model = model, gradient = NULL)
  vec <- vectorized || !is.null(target$laplace)
  eval_f <- function(X) eval_log_density(target$model, X, vec, d)
  fn <- cont_evaluator(target$model, target$gradient, vec, d)
  X <- matrix(proposal_sample(base, M), M, d)
  lf <- eval_f(X)
  lb <- proposal_log_density(base, X)
  if (any(!is.finite(lf)))
    stop_no_call("`model` is -Inf at some draws from `base`; its support must cover the base's.")
  kstate <- if (!in_r) list(X = X, lf = lf, lb = lb, gf = NULL, gb = NULL,
                            streams = rng_streams(M))
  evals <- c(density = M, gradient = 0)
  target_accept <- kernel_target_accept(kernel, rwm = 0.3)
  log_step <- rep(if (in_r) log(step_size) else
    kernel_log_step0(kernel, d) + log(step_size / 0.5), K)
  scale <- base_scales(base)
  adapt_mass <- kernel %in% c("mala", "hmc")
  scales <- matrix(scale, K, d, byrow = TRUE)
  move <- function(k) {
    if (!in_r) {
      control <- list(kernel = kernel, n_leapfrog = as.integer(n_leapfrog),
                      sweeps = metropolis_steps, beta = betas[k], step = exp(log_step[k]),
                      scale = if (adapt_mass) scales[k, , drop = FALSE] else scale)
      kstate <<- cont_sweep(fn, base, kstate, control)
      evals <<- evals + c(kstate$evaluations, kstate$gradient_evaluations)
      X <<- kstate$X
      lf <<- kstate$lf
      lb <<- kstate$lb
      return(kstate$accept)
    }
    n_acc <- numeric(M)
    for (ms in seq_len(metropolis_steps)) {
      Xp <- X + exp(log_step[k]) * matrix(stats::rnorm(M * d), M, d)
      lfp <- eval_f(Xp)
      lbp <- proposal_log_density(base, Xp)
      b <- betas[k]
      la <- b * (lfp - lf) + (1 - b) * (lbp - lb)
      ok <- is.finite(la) & log(stats::runif(M)) < la
      ok[is.na(ok)] <- FALSE
      X[ok, ] <<- Xp[ok, ]
      lf[ok] <<- lfp[ok]
      lb[ok] <<- lbp[ok]
      n_acc <- n_acc + ok
      evals[["density"]] <<- evals[["density"]] + M
    }
    n_acc / metropolis_steps
  }
  run <- function(state, control) {
    k <- state$k + 1L
    lrz <- control$lrz
    acc <- rts_acc_new(K, M)
    S <- control$sweeps
    thin <- control$thin
    nstore <- if (thin > 0) (control$offset + S) %/% thin - control$offset %/% thin else 0L
    store <- matrix(0, K, nstore * M)
    store_k <- integer(nstore * M)
    a_sum <- n_try <- numeric(K)
    mom <- list(q = numeric(K), x = matrix(0, K, d), xx = matrix(0, K, d))
    for (sw in seq_len(S)) {
      a <- move(k)
      a_sum <- a_sum + vapply(seq_len(K), function(j) sum(a[k == j]), 0)
      n_try <- n_try + tabulate(k, K)
      delta <- lf - lb
      L <- outer(delta, betas) + lb          # M x K: log f_k(x)
      W <- L + rep(lrz, each = M)
      W <- exp(W - apply(W, 1L, max))
      Q <- W / rowSums(W)
      if (adapt_mass && !isTRUE(control$final)) {
        mom$q <- mom$q + colSums(Q)
        mom$x <- mom$x + crossprod(Q, X)
        mom$xx <- mom$xx + crossprod(Q, X^2)
      }
      knew <- rowSums(stats::runif(M) > t(apply(Q, 1L, cumsum))) + 1L
      knew <- pmin(knew, K)
      idx <- cbind(knew, seq_len(M))
      acc[, "sum_q", ] <- acc[, "sum_q", ] + t(Q)
      acc[, "sum_q_d", ] <- acc[, "sum_q_d", ] + t(Q * delta)
      a3 <- acc[, "n", ]
      a3[idx] <- a3[idx] + 1
      acc[, "n", ] <- a3
      a4 <- acc[, "sum_d", ]
      a4[idx] <- a4[idx] + delta
      acc[, "sum_d", ] <- a4
      a5 <- acc[, "sum_d_sq", ]
      a5[idx] <- a5[idx] + delta^2
      acc[, "sum_d_sq", ] <- a5
      g <- control$offset + sw
      if (thin > 0 && g %% thin == 0) {
        j <- g %/% thin - control$offset %/% thin - 1L
        cols <- j * M + seq_len(M)
        store[, cols] <- t(L)
        store_k[cols] <- knew - 1L
      }
      k <- knew
    }
    if (!isTRUE(control$final)) {   # adapt the steps in the initial iterations only
      rate <- ifelse(n_try > 0, a_sum / pmax(n_try, 1), target_accept)
      log_step <<- log_step + ifelse(n_try > 0, 2 * (rate - target_accept), 0)
      if (adapt_mass) scales <<- rts_rung_scales(mom, scale, betas)
    }
    list(X = NULL, k = k - 1L, streams = state$streams, acc = acc, store = store,
         store_k = store_k)
  }
  # the chains' states stay in this closure; the engine sees a placeholder
  list(log_z1 = 0, X = matrix(0, 1, M), step_size = function() exp(log_step),
       mass = function() scales,
       x = function() if (is.null(target$laplace)) X else laplace_to_x(target$laplace, X),
       counts = function() c(density_evaluations = evals[["density"]],
                             gradient_evaluations = evals[["gradient"]]),
       run = function(state, control) {
         out <- run(state, control)
         out$X <- state$X
         out
       })
}

# The position scales of MALA/HMC per rung from the Rao-Blackwellized moments
# of an initial iteration (mom: q (K), the weight of each rung; x, xx (K x d),
# the weighted sums of the states and their squares): the sd at each rung
# with weight >= 2 chains' worth, interpolated in beta between such rungs,
# smoothed over the rungs on the log scale, floored at 1e-3 of the base's
# scale `template`; the template where no rung has the weight.
rts_rung_scales <- function(mom, template, betas) {
  K <- length(mom$q)
  d <- length(template)
  ok <- mom$q >= 2
  if (sum(ok) < 2L) return(matrix(template, K, d, byrow = TRUE))
  m <- mom$x[ok, , drop = FALSE] / mom$q[ok]
  v <- pmax(mom$xx[ok, , drop = FALSE] / mom$q[ok] - m^2, 0)
  ls <- log(pmax(sqrt(v), 1e-3 * rep(template, each = sum(ok))))
  out <- vapply(seq_len(d), function(j) {
    y <- stats::approx(betas[ok], ls[, j], betas, rule = 2, ties = mean)$y
    exp(smooth_steps(y))
  }, numeric(K))
  matrix(out, K, d)
}

# Optional start from a cheap annealing pass along the ladder ("start with
# Z_hat_k = 1 for all k (or a better estimate, if known)", Section 2.4), made
# with the RTS engine itself: all chains sweep at rung kk_s = 1..K (evenly
# spread over `sweeps` sweeps, one sweep each) with AIS weights (Neal 2001)
# updated when the rung changes; the running AIS estimate at each rung gives the
# initial ladder log Z_hat_k (linear in beta between visited rungs), and chain
# c keeps its state from the last sweep at or below a uniformly drawn rung, so
# the chains start spread over the ladder instead of all at the base. These are
# unweighted AIS states, not draws from q(x, k): rts_engine() draws their k
# from q(k | x) under the pilot's ladder and discards a burn-in before any
# estimate. Returns list(X, lk (K x M: log f_k of each kept state), streams,
# zeta (log Z_hat_k - log Z_1), sweeps).
rts_pilot <- function(run, X, args, sweeps) {
  K <- args$K
  M <- args$n_chains
  kk <- as.integer(round(seq(1, K, length.out = sweeps)))
  target <- sample.int(K, M, replace = TRUE)
  last <- findInterval(target, kk)          # the last sweep at or below each target rung
  state <- list(X = X, k = rep(kk[1] - 1L, M), streams = rng_streams(M))
  ctl <- list(final = FALSE, threads = args$threads, sweeps = 1L, thin = 1L, offset = 0L,
              step = rts_step(args$betas), moments = FALSE, lrz = log(args$prior))
  log_w <- numeric(M)
  lz <- numeric(sweeps)                   # running log Z_hat at rung kk[s] - log Z_1
  X0 <- X
  lk0 <- matrix(0, K, M)
  for (s in seq_len(sweeps)) {
    lz[s] <- log_sum_exp(log_w) - log(M)
    res <- run(state, ctl)
    keep <- last == s
    X0[, keep] <- res$X[, keep]
    lk0[, keep] <- res$store[, keep]
    if (s < sweeps && kk[s + 1L] != kk[s])
      log_w <- log_w + res$store[kk[s + 1L], ] - res$store[kk[s], ]
    state <- list(X = res$X, k = rep(kk[min(s + 1L, sweeps)] - 1L, M), streams = res$streams)
  }
  zeta <- stats::approx(args$betas[kk], lz, args$betas, ties = mean, rule = 2)$y
  if (kk[sweeps] == K) zeta[K] <- log_sum_exp(log_w) - log(M)
  list(X = X0, lk = lk0, streams = state$streams, zeta = zeta, sweeps = sweeps)
}

# The model-independent part: (burn-in after the pilot,) initial iterations,
# then the final run in chunks. run(state, control) advances list(X, k
# (0-based), streams) by control$sweeps sweeps and returns list(X, k, streams,
# acc (K x 6 x M, named by RTS_STAT), store, store_k); with thin = sweeps,
# store holds log f_k(x) of the last sweep's x (K x M), from which every stage
# after the first starts with k drawn from q(k | x) under that stage's ladder
# (Eq. 7), so each stage starts from the joint q(x, k) of its ladder as far as
# x is at equilibrium. (The paper restarts the initial iterations with
# uniformly drawn k, Section 2.4; a final run restarted that way is biased
# low when it is short.) Without a pilot the first stage has no ladder but
# Z_hat_k = Z_1 and the chains start from the base with uniformly drawn k, as
# in the paper.
rts_engine <- function(run, X, log_z1, args) {
  K <- args$K
  M <- args$n_chains
  log_r <- log(args$prior)
  zeta <- numeric(K)            # log Z_hat_k - log Z_1
  step <- rts_step(args$betas)
  pilot <- args$pilot
  if (is.null(pilot)) {
    streams <- rng_streams(M)
    state <- list(X = X, k = sample.int(K, M, replace = TRUE) - 1L, streams = streams)
  } else {
    zeta <- pilot$zeta
    state <- list(X = pilot$X, k = rts_draw_k(pilot$lk, log_r, zeta), streams = pilot$streams)
  }
  ctl <- function(sweeps, thin = 0L, offset = 0L, final = FALSE)
    list(final = final, threads = args$threads, sweeps = as.integer(sweeps), thin = as.integer(thin),
         offset = as.integer(offset), step = step, moments = any(c("ti", "ti_rb") %in% args$estimators),
         lrz = log_r - zeta)
  burn_in <- if (is.null(pilot)) 0L else args$burn_in
  if (burn_in > 0L) {   # discarded: the pilot's AIS states are not weighted draws
    res <- run(state, ctl(burn_in, thin = burn_in))
    state <- list(X = res$X, k = rts_draw_k(res$store, log_r, zeta), streams = res$streams)
  }
  total <- burn_in + args$init_iter * args$init_sweeps + args$sweeps
  pb <- progress_bar(args$progress, total)
  done <- burn_in
  init_c <- init_z <- init_lz <- init_se <- matrix(NA_real_, 0, K)
  max_dev <- numeric(0)
  converged <- FALSE
  for (it in seq_len(args$init_iter)) {
    res <- run(state, ctl(args$init_sweeps, thin = args$init_sweeps))
    chat <- rts_init_c_hat(res$acc, args$c_hat)
    init_c <- rbind(init_c, chat)
    init_z <- rbind(init_z, zeta + log_z1)
    zeta <- rts_update_ladder(zeta, chat, log_r)                            # Eq. 12
    init_lz <- rbind(init_lz, log_z1 + zeta)
    init_se <- rbind(init_se, rts_se(res$acc))                               # Eq. 16
    max_dev <- c(max_dev, max(abs(args$prior - chat)))
    state <- list(X = res$X, k = rts_draw_k(res$store, log_r, zeta), streams = res$streams)
    done <- done + args$init_sweeps
    pb$update(done)
    if (max_dev[it] < args$tol / K) {
      converged <- TRUE
      break
    }
  }
  fin <- rts_final_stage(run, state, zeta, log_z1, args, args$pieces, function(n) {
    done <<- done + n
    pb$update(done)
  })
  pb$close()
  c(fin, list(zeta = zeta,
              init = list(c_hat = unname(init_c), log_z_hat = unname(init_z),
                          log_z = unname(init_lz), se = unname(init_se), max_dev = max_dev,
                          converged = converged),
              n_init = length(max_dev)))
}

# A final run that left some temperatures nearly unvisited (c_hat_k below
# `floor` r_k) means the ladder guess was still far from the truth, and Eq. 16
# then understates the error. Warns and returns the flag (character(0) when
# none).
rts_check_visits <- function(c_hat, prior, floor = 0.1) {
  ratio <- c_hat / prior
  if (all(is.finite(ratio)) && min(ratio) >= floor) return(character(0))
  k <- which.min(ratio)
  flag_estimate(character(0), sprintf("visit deficit: c_hat_k / r_k = %.3g < %g at k = %d",
                                      ratio[k], floor, k), sprintf(paste0(
    "The final run visited temperature k = %d (and maybe others) %s times less than the prior ",
    "asks (c_hat_k / r_k = %.3g): the ladder guess was still far off, and log Z and its se ",
    "are unreliable. Use more initial iterations (`init_iter`, `init_sweeps`) or start ",
    "from the annealing pilot (`pilot_sweeps`)."),
    k, if (ratio[k] > 0) format(signif(1 / ratio[k], 2)) else "infinitely many", ratio[k]))
}

# Outlier chains: per temperature, the share of the pooled c_hat_k (sum of
# q(k | x) over sweeps) that the largest single chain holds. One chain holding
# more than `limit` of some c_hat_k means that the estimate at that k rests on
# one chain's state (a chain stuck near beta = 1 in a poor state). acc: K x 6 x
# M, named by RTS_STAT. Returns list(table (data frame chain, k, share: each
# outlier chain once, at its largest share), flag).
rts_chain_shares <- function(acc, limit = 0.5) {
  q <- matrix(acc[, "sum_q", ], dim(acc)[1])   # K x M
  M <- ncol(q)
  tot <- rowSums(q)
  share <- q / ifelse(tot > 0, tot, 1)
  top <- max.col(share, ties.method = "first")
  top_share <- share[cbind(seq_len(nrow(q)), top)]
  hit <- which(top_share > limit & tot > 0)
  none <- data.frame(chain = integer(0), k = integer(0), share = numeric(0))
  if (M < 3L || !length(hit)) return(list(table = none, flag = character(0)))
  d <- data.frame(chain = top[hit], k = hit, share = top_share[hit])
  d <- d[order(-d$share), , drop = FALSE]
  d <- d[!duplicated(d$chain), , drop = FALSE]
  rownames(d) <- NULL
  list(table = d, flag = flag_estimate(character(0), sprintf(
    "outlier chain: chain %d holds %.0f%% > %.0f%% of c_hat_k at k = %d", d$chain[1],
    100 * d$share[1], 100 * limit, d$k[1]), sprintf(paste0(
    "Outlier chain%s: chain %s holds %.0f%% (> %.0f%%) of the pooled c_hat_k at k = %d%s; ",
    "the estimate rests on one chain's state and its se is unreliable. Run more sweeps or ",
    "chains; see attr(fit$diagnostics, \"outlier_chains\")."),
    if (nrow(d) > 1L) "s" else "", paste(d$chain, collapse = ", "), 100 * d$share[1],
    100 * limit, d$k[1], if (nrow(d) > 1L) " (largest)" else "")))
}

# Ladder drift: when the chains relax slowly, the estimate of every stage still carries a fraction
# of the error of the ladder it ran under (at equilibrium Eq. 12 does not depend on the ladder), so
# the stage estimates climb stage after stage and the final one is biased towards a ladder that is
# itself biased; Eq. 16 sees none of this. The test: z_j =
# (log Z - E_j) / sqrt(se^2 + se_j^2) for the RTS estimates E_j (at beta = 1, with their Eq. 16 se
# se_j) of the last `last` initial iterations; at equilibrium they and the final estimate agree
# within their independent noises. max |z_j| > `limit` is flagged (and warned). Returns
# list(table (data frame iteration, log_z, se, z), flag).
rts_check_drift <- function(log_z, se, init, limit = 3, last = 3L) {
  n <- if (is.null(init$log_z)) 0L else nrow(init$log_z)
  none <- data.frame(iteration = integer(0), log_z = numeric(0), se = numeric(0), z = numeric(0))
  if (n == 0L || !is.finite(se)) return(list(table = none, flag = character(0)))
  K <- ncol(init$log_z)
  j <- seq.int(max(1L, n - last + 1L), n)
  e <- init$log_z[j, K]
  s <- init$se[j, K]
  z <- (log_z - e) / sqrt(se^2 + s^2)
  tab <- data.frame(iteration = j, log_z = e, se = s, z = z)
  i <- which.max(ifelse(is.finite(z), abs(z), -Inf))
  if (!length(i) || !is.finite(z[i]) || abs(z[i]) <= limit) return(list(table = tab, flag = character(0)))
  list(table = tab, flag = flag_estimate(character(0), sprintf(paste0(
    "ladder drift: final estimate - initial iteration %d's = %+.3f nats, |z| = %.1f > %g"),
    j[i], log_z - e[i], abs(z[i]), limit), sprintf(paste0(
    "Ladder drift: the final log Z %.3f differs from initial iteration %d's estimate %.3f by %.1f ",
    "combined se (> %g): the stages had not settled, the estimate still carries part of the ",
    "ladder's error and its se is too small. Run more or longer initial iterations ",
    "(`init_iter`, `init_sweeps`) or more sweeps; see attr(fit$diagnostics, \"ladder_drift\")."),
    log_z, j[i], e[i], abs(z[i]), limit)))
}

new_rts_result <- function(res, args, log_z1, time, seed, call, method = "RTS",
                           extra = list()) {
  K <- args$K
  log_r <- log(args$prior)
  which <- args$estimators
  ladders <- rts_ladders(res$acc, res$zeta, log_r, log_z1, args$betas, which)
  if ("mbar" %in% which && !is.null(res$store) && ncol(res$store))
    ladders$mbar <- rts_mbar(res$store, res$store_k, log_z1, init = ladders$rts)
  se_k <- rts_se(res$acc)
  bias_k <- rts_bias(res$acc)
  s <- rowSums(res$acc, dims = 2L)
  log_z_k <- data.frame(k = seq_len(K), beta = args$betas, prior = args$prior,
                        log_z = ladders$rts, se = se_k, bias = bias_k,
                        c_hat = s[, "sum_q"] / sum(s[, "sum_q"]),
                        log_z_hat = res$zeta + log_z1)
  for (nm in setdiff(names(ladders), "rts")) log_z_k[[nm]] <- as.vector(ladders[[nm]])
  jse <- rts_jackknife_se(res$acc, res$zeta, log_r, log_z1, args$betas,
                          setdiff(which, c("rts", "mbar")))
  est_names <- names(ladders)
  estimates <- data.frame(
    estimator = est_names,
    log_z = vapply(ladders, function(x) x[K], 0),
    se = vapply(est_names, function(nm) {
      if (nm == "rts") se_k[K] else if (!is.null(jse) && nm %in% names(jse)) jse[[nm]]
      else if (nm == "mbar") or_default(attr(ladders$mbar, "se"), NA_real_)
      else NA_real_
    }, 0), row.names = NULL)
  flags <- rts_check_visits(log_z_k$c_hat, args$prior)
  shares <- rts_chain_shares(res$acc)
  drift <- rts_check_drift(ladders$rts[K], se_k[K], res$init)
  flags <- c(flags, shares$flag, drift$flag)
  diagnostics <- res$trace
  attr(diagnostics, "outlier_chains") <- shares$table
  attr(diagnostics, "ladder_drift") <- drift$table
  M <- args$n_chains
  n_burn <- if (is.null(args$pilot)) 0 else args$burn_in
  n_init <- res$n_init
  n_pilot <- if (is.null(args$pilot)) 0 else args$pilot$sweeps
  new_logz_estimate(c(list(
    log_z = ladders$rts[K], se = se_k[K], bias = bias_k[K], log_z_k = log_z_k,
    estimates = estimates,
    log_z1 = log_z1, betas = args$betas, prior = args$prior, init = res$init,
    method = method, time = time,
    counts = c(gibbs_sweeps = M * (n_pilot + n_burn + n_init * args$init_sweeps + args$sweeps),
               chains = M, K = K, init_iterations = n_init, sweeps = args$sweeps,
               pilot_sweeps = n_pilot, burn_in_sweeps = n_burn),
    pilot = if (!is.null(args$pilot)) list(log_z_hat = args$pilot$zeta + log_z1),
    converged = isTRUE(res$init$converged),
    pieces = if (!is.null(args$pieces) && args$pieces > 1L) args$pieces,
    mbar_se_note = if ("mbar" %in% which) or_default(attr(ladders$mbar, "se_note"),
                                                   "no samples were stored for MBAR"),
    diagnostics = diagnostics, seed = seed, call = call, flags = flags), extra), "logz_rts")
}
