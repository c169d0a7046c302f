#' Rao-Blackwellized tempered sampling (RTS)
#'
#' Estimates log Z, and the whole ladder \eqn{\log Z_k} of the tempered family
#' \eqn{f_k(x) = f(x)^{\beta_k} p_1(x)^{1-\beta_k}}, from a simulated-tempering
#' run (Carlson, Stinson, Pakman & Paninski 2016).
#'
#' Each of `n_chains` chains is a Gibbs sampler on \eqn{(x, k)} under
#' \eqn{q(x, k) \propto f_k(x) r_k / \hat Z_k}: an x-move that leaves
#' \eqn{f_k} invariant (RBM: one block-Gibbs sweep with the hidden units
#' drawn and summed out, as in [ais()]; Ising: one Gibbs sweep), then
#' \eqn{k \sim q(k | x) \propto f_k(x) r_k / \hat Z_k} (their Eq. 7). The
#' Rao-Blackwellized marginals \eqn{\hat c_k = \frac1N \sum_i q(k | x_i)} (Eq. 9)
#' give \eqn{\hat Z_k^{RTS} = \hat Z_k \frac{r_1}{r_k}\frac{\hat c_k}{\hat c_1}}
#' (Eq. 12), with \eqn{Z_1} the known normalising constant of the base
#' \eqn{p_1} (RBM: the base-rate product of Bernoullis times \eqn{2^{n_h}};
#' Ising: the product distribution with the base field).
#'
#' Initial iterations (Section 2.4): starting from \eqn{\hat Z_k = Z_1}, up to
#' `init_iter` runs of `init_sweeps` sweeps, each restarting the chains from
#' their last x with fresh uniformly drawn k and replacing \eqn{\hat Z_k} by the
#' RTS estimate, until \eqn{\max_k |r_k - \hat c_k| <} `tol / K`. The final run
#' of `sweeps` sweeps (again from fresh uniform k) gives the estimates.
#'
#' Estimators (all from the same final run):
#' \describe{
#'   \item{`"rts"`}{Eq. 12; `se` from Eq. 16,
#'     \eqn{\sigma_1^2/c_1^2 + \sigma_k^2/c_k^2 - 2\sigma_{1k}/(c_1 c_k)}, with
#'     the variances and covariance of the \eqn{\hat c} estimated across chains.}
#'   \item{`"ts"`}{the same with counts of the sampled k plus 0.1 instead of
#'     \eqn{\hat c}.}
#'   \item{`"ti"`}{thermodynamic integration of
#'     \eqn{d \log Z/d\beta = E_\beta[\Delta]} estimated per bin from the
#'     samples whose k is that bin (empty bins linearly interpolated): right
#'     Riemann sum (`ti_riemann`), trapezoid (`ti_trapezoid`) and the
#'     trapezoid with Friel et al.'s correction
#'     \eqn{-\sum (\Delta\beta)^2 (V_k - V_{k-1})/12} (`ti_friel`), V the
#'     variance of \eqn{\Delta}.}
#'   \item{`"ti_rb"`}{TI with the Rao-Blackwellized gradient
#'     \eqn{\sum_i q(k|x_i)\Delta(x_i) / \sum_i q(k|x_i)} (Eq. 21), trapezoid.}
#'   \item{`"mbar"`}{maximum of the MBAR likelihood (Eq. 18) by Newton's
#'     method, on at most `mbar_samples` stored samples (every `thin`-th sweep of
#'     every chain).}
#' }
#' For an RBM \eqn{\Delta} is the joint-space energy difference
#' \eqn{v'(a - a_0) + h'b + v'Wh} with h summed out (its conditional mean given
#' v; its variance adds the conditional variance). The estimators other than
#' RTS get a delete-a-group jackknife `se` over 20 groups of chains (MBAR: NA).
#'
#' @param model an [rbm()], an [ising()] model, or an R function giving the log
#'   unnormalised density of a continuous target (see Details).
#' @param K number of inverse temperatures (>= 2); ignored when `betas` is
#'   given.
#' @param betas optional increasing inverse temperatures from 0 to 1 (length
#'   K); default `seq(0, 1, length.out = K)`.
#' @param prior optional positive prior weights \eqn{r_k} (length K; normalised
#'   to sum 1); default uniform.
#' @param n_chains number of parallel chains.
#' @param sweeps sweeps per chain in the final run.
#' @param init_iter maximum number of initial iterations (0: none, the final
#'   run uses \eqn{\hat Z_k = Z_1}).
#' @param init_sweeps sweeps per chain in each initial iteration.
#' @param tol stopping tolerance of the initial iterations:
#'   \eqn{\max_k |r_k - \hat c_k| <} `tol / K`.
#' @param estimators which estimators to compute besides RTS (any of `"rts"`,
#'   `"ts"`, `"ti"`, `"ti_rb"`, `"mbar"`).
#' @param base the base distribution \eqn{p_1}, as in [ais()] (see
#'   [logz_base]; RBM: `NULL` for the model's base rate, else the
#'   model-derived base; Ising: `NULL`/`"field"`, `"model"`, `"uniform"`, a
#'   field vector); recorded in the result's `base` field. For a function
#'   `model`, a normalised [proposal][proposal_normal] (required).
#' @param mbar_samples at most this many stored samples for MBAR.
#' @param pilot_sweeps RBM and Ising: sweeps of an optional annealing pass that
#'   starts the sampler (0, the default: none, the paper's start from
#'   \eqn{\hat Z_k = Z_1} with the chains drawn from the base). The pass moves
#'   all chains up the ladder (one sweep per step, rungs spread evenly over the
#'   sweeps) with AIS weights; the running AIS estimates give the initial
#'   \eqn{\log \hat Z_k} ("or a better estimate, if known", Section 2.4) and
#'   each chain starts the next stage from its state at a uniformly drawn rung,
#'   with that k, so the chains start close to \eqn{q(x, k)}. Counted in
#'   `counts`. With `init_iter = 0` the final run follows directly. Each pilot
#'   sweep is one call of the engine (about two sweeps of the final run in
#'   time). On the 784 x 100 MNIST RBM of `bench/rts_vs_ais.R` it removed the
#'   default start's low bias at 1,000 sweeps but overshot (bias about +0.1
#'   nats); see the vignette.
#' @param kernel RBM: the products \eqn{W'v} and \eqn{Wh} of a sweep,
#'   `"sparse"` (default; sums of the weight columns of the active units, as
#'   [ais()]'s sparse kernel) or `"dense"` (BLAS). They differ only in rounding.
#' @param threads OpenMP threads (the result does not depend on it).
#' @param progress show a progress bar.
#' @param workers RBMs and Ising models: `NULL` or the number of pieces to
#'   split the chains of the final run into, run through the active
#'   [future::plan()] after the initial iterations (whose ladder all pieces
#'   share), with the Rao-Blackwell statistics pooled exactly (see
#'   [scale_out]).
#' @param ... further arguments for methods.
#' @return An object of class `c("logz_rts", "logz_estimate")` (see
#'   [logz_estimate]) with, besides the common fields:
#' \describe{
#'   \item{`log_z`, `se`}{the RTS estimate at \eqn{\beta = 1} and its Eq. 16
#'     standard error.}
#'   \item{`log_z_k`}{data frame, one row per temperature: `k`, `beta`,
#'     `prior`, `log_z` (RTS), `se`, `c_hat`, `log_z_hat` (the
#'     \eqn{\log \hat Z_k} of the final run) and one column per other
#'     estimator (`ts`, `ti_riemann`, `ti_trapezoid`, `ti_friel`, `ti_rb`,
#'     `mbar`).}
#'   \item{`estimates`}{data frame: `estimator`, `log_z` (at \eqn{\beta=1}), `se`.}
#'   \item{`log_z1`}{log Z of the base \eqn{p_1}.}
#'   \item{`init`}{list: `c_hat` and `log_z_hat` (iterations x K matrices, the
#'     \eqn{\hat c_k} measured in and the \eqn{\log \hat Z_k} used by each
#'     initial iteration), `log_z` and `se` (iterations x K: each iteration's
#'     own RTS ladder, Eq. 12 from its \eqn{\hat c_k}, which the next iteration
#'     uses as its \eqn{\log \hat Z_k}, and its Eq. 16 se; both assume the
#'     chains were at equilibrium, which short iterations from a poor ladder are
#'     not), `max_dev` (\eqn{\max_k |r_k - \hat c_k|}) and `converged`.}
#'   \item{`diagnostics`}{data frame `sweep`, `log_z`: the RTS estimate
#'     from the final run's first sweeps.}
#'   \item{`counts`}{`gibbs_sweeps` (chain-sweeps, pilot and initial iterations
#'     included), `chains`, `K`, `init_iterations`, `sweeps`, `pilot_sweeps`.}
#'   \item{`pilot`}{`NULL`, or list `log_z_hat`: the ladder from the pilot.}
#'   \item{`converged`}{whether the initial iterations met the stopping rule
#'     (`FALSE` is also printed: the ladder may still be biased).}
#'   \item{`pieces`}{the number of pieces, when the chains were split.}
#' }
#' @section Errors: `model` of an unsupported class; `K` not a whole number >=
#'   2; `betas` not numeric, not starting at 0, not ending at 1 or not strictly
#'   increasing; `prior` not positive, not finite or not of length K;
#'   `n_chains`, `sweeps`, `init_sweeps`, `threads`, `mbar_samples` not
#'   positive whole numbers; `init_iter` or `pilot_sweeps` negative; `tol` not positive; unknown
#'   `estimators`; a bad `base`. For a function `model`: `base` missing or not
#'   a proposal, `step_size` not positive, `metropolis_steps` not a positive
#'   whole number, `vectorized` not a flag, `model` not returning one number
#'   (finite or `-Inf`) per point or `-Inf` at the initial draws from `base`.
#' @section Warnings: when the final run visited some temperature more than 10
#'   times less often than the prior asks (\eqn{\hat c_k < r_k / 10}), the
#'   ladder guess was still far from the truth; log Z is then unreliable and
#'   its Eq. 16 se too small (on a hard 784 x 500 RBM the paper's start left
#'   \eqn{\beta = 1} unvisited and came out 37 nats low). More initial
#'   iterations or `pilot_sweeps` fix it.
#' @references Carlson, D. E., Stinson, P., Pakman, A. and Paninski, L. (2016).
#'   Partition functions from Rao-Blackwellized tempered sampling. ICML.
#'   Eqs. 7, 9, 12, 16, 18, 21 and Section 2.4.
#'   Friel, N., Hurn, M. and Wyse, J. (2014). Improving power posterior
#'   estimation of statistical evidence. Statistics and Computing.
#'   Shirts, M. R. and Chodera, J. D. (2008). Statistically optimal analysis of
#'   samples from multiple equilibrium states. J. Chem. Phys.
#' @seealso [ais()], [raise()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(4, 4, coupling = 0.3, field = 0.1)
#' fit <- rts(m, K = 20, n_chains = 20, sweeps = 500, progress = FALSE)
#' fit
#' exact_log_z(m)
#' plot(fit, type = "ladder")
#' @export
rts <- function(model, ...) UseMethod("rts")

#' @export
rts.default <- function(model, ...) {
  stop_no_call(sprintf("rts() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

rts_estimator_names <- c("rts", "ts", "ti", "ti_rb", "mbar")

# The method for the discrete models (RBM and Ising: C engines).
rts_discrete <- function(model, K = 100L, betas = NULL, prior = NULL, n_chains = 100L,
                         sweeps = 1000L, init_iter = 10L, init_sweeps = 50L, tol = 0.1,
                         estimators = c("rts", "ts", "ti", "ti_rb", "mbar"), base = NULL,
                         mbar_samples = 5000L, threads = 1L, progress = interactive(),
                         pilot_sweeps = 0L, kernel = c("sparse", "dense"), workers = NULL,
                         ...) {
  call <- match.call()
  args <- rts_check_args(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                         estimators, mbar_samples, threads, progress)
  args$pieces <- resolve_pieces(workers, args$n_chains)
  if (!is.character(kernel) || !all(kernel %in% c("sparse", "dense")))
    stop_no_call(sprintf("`kernel` must be \"sparse\" or \"dense\", not %s.", describe(kernel)))
  args$kernel <- kernel[1]
  pilot_sweeps <- check_count(pilot_sweeps, "pilot_sweeps", min = 0L)
  prepare <- if (is_rbm(model)) rts_prepare_rbm else rts_prepare_ising
  seed <- rng_state()
  base <- resolve_base(model, base, args$threads)   # R/base.R: default base, its record
  a0 <- base$bias
  t0 <- proc.time()[["elapsed"]]
  p <- prepare(model, a0, args)   # log_z1, initial states X (drawn from the base), run()
  args$pilot <- if (pilot_sweeps > 0L) rts_pilot(p$run, p$X, args, pilot_sweeps)
  res <- rts_engine(p$run, p$X, p$log_z1, args)
  with_base(new_rts_result(res, args, p$log_z1, time = proc.time()[["elapsed"]] - t0,
                           seed = seed, call = call), base)
}

#' @rdname rts
#' @export
rts.rbm <- rts_discrete

#' @rdname rts
#' @export
rts.ising <- rts_discrete

rts_prepare_rbm <- function(model, a0, args) {
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  sparse <- !identical(args$kernel, "dense")
  if (sparse) mlist <- c(mlist, .Call(C_ais_rbm_prepare, mlist))   # blocked weights, once
  nv <- model$n_visible
  list(log_z1 = sum(softplus(a0)) + model$n_hidden * log(2),
       X = matrix(as.double(stats::runif(nv * args$n_chains) < stats::plogis(a0)), nv),
       run = function(state, control)
         .Call(C_rts_rbm, mlist, args$betas, state, c(control, sparse = sparse)))
}

rts_prepare_ising <- function(model, a0, args) {
  v <- model$values
  cm <- ising_c_model(model, order = ising_sweep_order(model), a0 = a0)
  up <- stats::runif(model$n * args$n_chains) < stats::plogis(a0 * (v[2] - v[1]))
  list(log_z1 = sum(a0 * v[1] + softplus(a0 * (v[2] - v[1]))),
       X = matrix(ifelse(up, v[2], v[1]), model$n),
       run = function(state, control) .Call(C_rts_ising, cm, args$betas, state, control))
}

# Optional start from a cheap annealing pass along the ladder ("start with
# Z_hat_k = 1 for all k (or a better estimate, if known)", Section 2.4), made
# with the RTS engine itself: all chains sweep at rung kk_s = 1..K (evenly
# spread over `sweeps` sweeps, one sweep each) with AIS weights (Neal 2001)
# updated when the rung changes; the running AIS estimate at each rung gives the
# initial ladder log Z_hat_k (linear in beta between visited rungs), and chain
# c keeps its state from the last sweep at or below a uniformly drawn rung, so
# the chains start near q(x, k) instead of all at the base. Returns list(X, k
# (0-based), streams, zeta (log Z_hat_k - log Z_1), sweeps).
rts_pilot <- function(run, X, args, sweeps) {
  K <- args$K
  M <- args$n_chains
  kk <- as.integer(round(seq(1, K, length.out = sweeps)))
  target <- sample.int(K, M, replace = TRUE)
  last <- vapply(target, function(t) max(which(kk <= t)), 0L)
  state <- list(X = X, k = rep(kk[1] - 1L, M), streams = .Call(C_rng_streams, M))
  ctl <- list(final = FALSE, threads = args$threads, sweeps = 1L, thin = 1L, offset = 0L,
              step = rts_step(args$betas), moments = FALSE, lrz = log(args$prior))
  log_w <- numeric(M)
  lz <- numeric(sweeps)                   # running log Z_hat at rung kk[s] - log Z_1
  X0 <- X
  k0 <- integer(M)
  for (s in seq_len(sweeps)) {
    lz[s] <- log_sum_exp(log_w) - log(M)
    res <- run(state, ctl)
    keep <- last == s
    X0[, keep] <- res$X[, keep]
    k0[keep] <- kk[s] - 1L
    if (s < sweeps && kk[s + 1L] != kk[s])
      log_w <- log_w + res$store[kk[s + 1L], ] - res$store[kk[s], ]
    state <- list(X = res$X, k = rep(kk[min(s + 1L, sweeps)] - 1L, M), streams = res$streams)
  }
  zeta <- stats::approx(args$betas[kk], lz, args$betas, ties = mean, rule = 2)$y
  if (kk[sweeps] == K) zeta[K] <- log_sum_exp(log_w) - log(M)
  list(X = X0, k = k0, streams = state$streams, zeta = zeta, sweeps = sweeps)
}

# The spacing of an evenly spaced ladder (the C engines then use a cheaper
# recursion), else 0.
rts_step <- function(betas) {
  K <- length(betas)
  db <- diff(betas)
  if (max(abs(db - 1 / (K - 1))) < 1e-12) 1 / (K - 1) else 0
}

# Validate the arguments shared by every rts() method.
rts_check_args <- function(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                           estimators, mbar_samples, threads, progress) {
  if (is.null(betas)) {
    K <- check_count(K, "K", min = 2L, max = 100000L)
    betas <- seq(0, 1, length.out = K)
  } else {
    check_finite_numeric(betas, "betas")
    K <- length(betas)
    if (K < 2L)
      stop_no_call(sprintf("`betas` must have at least 2 values (K >= 2), not %d.", K))
    if (betas[1] != 0 || betas[K] != 1 || any(diff(betas) <= 0))
      stop_no_call(sprintf(paste0("`betas` must increase strictly from 0 to 1; given %d values ",
                                  "from %g to %g%s."), K, betas[1], betas[K],
                           if (any(diff(betas) <= 0)) " that are not increasing" else ""))
    betas <- as.double(betas)
  }
  if (is.null(prior)) {
    prior <- rep(1 / K, K)
  } else {
    check_finite_numeric(prior, "prior")
    if (length(prior) != K)
      stop_no_call(sprintf("`prior` must have length K = %d (one weight per temperature), not %d.",
                           K, length(prior)))
    if (any(prior <= 0))
      stop_no_call(sprintf("`prior` must be positive; its smallest value is %g.", min(prior)))
    prior <- as.double(prior) / sum(prior)
  }
  if (!is.character(estimators) || !length(estimators) ||
      !all(estimators %in% rts_estimator_names))
    stop_no_call(sprintf("`estimators` must be a subset of %s, not %s.",
                         paste0('"', rts_estimator_names, '"', collapse = ", "),
                         paste(format(estimators), collapse = ", ")))
  check_flag(progress, "progress")
  list(K = K, betas = betas, prior = prior, n_chains = check_count(n_chains, "n_chains"),
       sweeps = check_count(sweeps, "sweeps"),
       init_iter = check_count(init_iter, "init_iter", min = 0L),
       init_sweeps = check_count(init_sweeps, "init_sweeps"),
       tol = check_number(tol, "tol", lower = 0, lower_open = TRUE),
       estimators = unique(c("rts", estimators)),
       mbar_samples = check_count(mbar_samples, "mbar_samples"),
       threads = check_threads(threads), progress = progress)
}

# The model-independent part: initial iterations, then the final run in chunks.
# run(state, control) advances list(X, k (0-based), streams) by control$sweeps
# sweeps and returns list(X, k, streams, acc (K x 6 x M), store, store_k).
rts_engine <- function(run, X, log_z1, args) {
  K <- args$K
  M <- args$n_chains
  log_r <- log(args$prior)
  zeta <- numeric(K)            # log Z_hat_k - log Z_1
  step <- rts_step(args$betas)
  fresh_k <- function() sample.int(K, M, replace = TRUE) - 1L
  pilot <- args$pilot
  if (is.null(pilot)) {
    streams <- .Call(C_rng_streams, M)
    state <- list(X = X, k = fresh_k(), streams = streams)
  } else {
    state <- list(X = pilot$X, k = pilot$k, streams = pilot$streams)
  }
  if (!is.null(pilot)) zeta <- pilot$zeta
  ctl <- function(sweeps, thin = 0L, offset = 0L, final = FALSE)
    list(final = final, threads = args$threads, sweeps = as.integer(sweeps), thin = as.integer(thin),
         offset = as.integer(offset), step = step, moments = any(c("ti", "ti_rb") %in% args$estimators),
         lrz = log_r - zeta)
  total <- args$init_iter * args$init_sweeps + args$sweeps
  pb <- progress_bar(args$progress, total)
  done <- 0
  init_c <- init_z <- init_lz <- init_se <- matrix(NA_real_, 0, K)
  max_dev <- numeric(0)
  converged <- FALSE
  for (it in seq_len(args$init_iter)) {
    res <- run(state, ctl(args$init_sweeps))
    chat <- rowSums(res$acc[, 1L, , drop = FALSE]) / (M * args$init_sweeps)
    init_c <- rbind(init_c, chat)
    init_z <- rbind(init_z, zeta + log_z1)
    zeta <- rts_update_ladder(zeta, chat, log_r)                            # Eq. 12
    init_lz <- rbind(init_lz, log_z1 + zeta)
    init_se <- rbind(init_se, rts_se(res$acc))                               # Eq. 16
    max_dev <- c(max_dev, max(abs(args$prior - chat)))
    state <- list(X = res$X, k = fresh_k(), streams = res$streams)
    done <- done + args$init_sweeps
    pb$update(done)
    if (max_dev[it] < args$tol / K) {
      converged <- TRUE
      break
    }
  }
  # final run, in pieces of the chains when asked (see scale_out): the
  # ladder zeta is shared, so the per-chain accumulators pool exactly
  thin <- if ("mbar" %in% args$estimators)
    max(1L, as.integer(ceiling(args$sweeps * M / args$mbar_samples))) else 0L
  # at least 100 chunks, and chunks of at most about getOption("logz.chunk_work")
  # units of work (64 per unit and chain-sweep, a rough cost), so that
  # interrupts and time limits are honoured between calls within a second
  budget <- getOption("logz.chunk_work", 5e7)
  per_sweep <- 64 * as.double(nrow(X)) * M
  n_chunks <- min(args$sweeps, max(100L, ceiling(args$sweeps * per_sweep / budget)))
  ends <- unique(round(seq(0, args$sweeps, length.out = n_chunks + 1L)))
  final_run <- function(state, update) {
    acc <- array(0, c(K, 6L, ncol(state$X)))
    store <- list()
    store_k <- list()
    chat <- matrix(NA_real_, K, length(ends) - 1L)   # cumulative sum of q per chunk
    for (i in seq_len(length(ends) - 1L)) {
      res <- run(state, ctl(ends[i + 1L] - ends[i], thin, ends[i], final = TRUE))
      state <- list(X = res$X, k = res$k, streams = res$streams)
      acc <- acc + res$acc
      if (ncol(res$store)) {
        store[[length(store) + 1L]] <- res$store
        store_k[[length(store_k) + 1L]] <- res$store_k
      }
      chat[, i] <- rowSums(acc[, 1L, , drop = FALSE])
      update(ends[i + 1L] - ends[i])
    }
    list(acc = acc, store = store, store_k = store_k, chat = chat, state = state)
  }
  pieces <- if (is.null(args$pieces)) 1L else args$pieces
  if (pieces > 1L) {
    cols <- split(seq_len(M), rep(seq_len(pieces), piece_sizes(M, pieces)))
    parts <- run_pieces(M, pieces, function(size, i)
      final_run(list(X = state$X[, cols[[i]], drop = FALSE], k = state$k[cols[[i]]],
                     streams = state$streams[, cols[[i]], drop = FALSE]), function(n) NULL),
      args$progress)
    fin <- list(acc = array(unlist(lapply(parts, `[[`, "acc")), c(K, 6L, M)),
                store = unlist(lapply(parts, `[[`, "store"), recursive = FALSE),
                store_k = unlist(lapply(parts, `[[`, "store_k"), recursive = FALSE),
                chat = Reduce(`+`, lapply(parts, `[[`, "chat")),
                state = list(X = do.call(cbind, lapply(parts, function(p) p$state$X)),
                             k = unlist(lapply(parts, function(p) p$state$k)),
                             streams = do.call(cbind, lapply(parts, function(p) p$state$streams))))
    pb$update(total)
  } else {
    fin <- final_run(state, function(n) {
      done <<- done + n
      pb$update(done)
    })
  }
  acc <- fin$acc
  store <- fin$store
  store_k <- fin$store_k
  state <- fin$state
  trace <- data.frame(sweep = ends[-1], log_z = log_z1 + zeta[K] + log_r[1] - log_r[K] +
                        log(fin$chat[K, ]) - log(fin$chat[1, ]))
  pb$close()
  list(acc = acc, zeta = zeta, store = do.call(cbind, store),
       store_k = unlist(store_k), trace = trace,
       init = list(c_hat = unname(init_c), log_z_hat = unname(init_z),
                   log_z = unname(init_lz), se = unname(init_se), max_dev = max_dev,
                   converged = converged),
       n_init = length(max_dev), state = state)
}

# Eq. 12 as an update of log Z_hat (relative to log Z_1); marginals that
# underflowed are floored so that an early iteration cannot give -Inf.
rts_update_ladder <- function(zeta, chat, log_r) {
  lc <- log(pmax(chat, 1e-300))
  zeta + (log_r[1] - log_r) + (lc - lc[1])
}

# All estimators from the final run's accumulators (K x 6 x M array: sum q,
# sum q D, counts, sum D, sum D^2, sum D2 per chain), as ladders of log Z_k.
rts_ladders <- function(acc, zeta, log_r, log_z1, betas, which) {
  K <- length(betas)
  s <- rowSums(acc, dims = 2L)   # K x 6
  out <- list()
  if ("rts" %in% which)
    out$rts <- log_z1 + rts_update_ladder(zeta, s[, 1] / sum(s[, 1]), log_r)
  if ("ts" %in% which) {
    cnt <- s[, 3] + 0.1
    out$ts <- log_z1 + zeta + (log_r[1] - log_r) + log(cnt) - log(cnt[1])
  }
  db <- diff(betas)
  if ("ti" %in% which) {
    n <- s[, 3]
    ok <- n > 0
    E <- V <- rep(NA_real_, K)
    E[ok] <- s[ok, 4] / n[ok]
    V[ok] <- pmax(s[ok, 5] / n[ok] - E[ok]^2, 0) + s[ok, 6] / n[ok]
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
    E <- s[, 2] / s[, 1]
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
  log_z1 + gall - gall[1]
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

# Eq. 16 with the (co)variances of c_hat across chains.
rts_se <- function(acc) {
  cm <- acc[, 1L, ] / rep(colSums(acc[, 1L, , drop = FALSE]), each = dim(acc)[1])
  cm <- matrix(cm, dim(acc)[1])
  M <- ncol(cm)
  if (M < 2L) return(rep(NA_real_, nrow(cm)))
  c_bar <- rowMeans(cm)
  dev <- cm - c_bar
  v <- rowSums(dev^2) / (M - 1) / M
  cov1 <- drop(dev %*% dev[1, ]) / (M - 1) / M
  sqrt(pmax(v[1] / c_bar[1]^2 + v / c_bar^2 - 2 * cov1 / (c_bar[1] * c_bar), 0))
}

# A final run that left some temperatures nearly unvisited (c_hat_k well below
# r_k) means the ladder guess was still far from the truth, and Eq. 16 then
# understates the error (bench/rts_hard.R: 37 nats low at 10^4 sweeps from the
# paper's start on a hard RBM, where beta = 1 was never visited).
rts_check_visits <- function(c_hat, prior, floor = 0.1) {
  ratio <- c_hat / prior
  if (all(is.finite(ratio)) && min(ratio) >= floor) return(invisible(TRUE))
  k <- which.min(ratio)
  warning(sprintf(paste0(
    "The final run visited temperature k = %d (and maybe others) %s times less than the prior ",
    "asks (c_hat_k / r_k = %.3g): the ladder guess was still far off, and log Z and its se ",
    "are unreliable. Use more initial iterations (`init_iter`, `init_sweeps`) or start ",
    "from the annealing pilot (`pilot_sweeps`)."),
    k, if (ratio[k] > 0) format(signif(1 / ratio[k], 2)) else "infinitely many", ratio[k]),
    call. = FALSE)
  invisible(FALSE)
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
  s <- rowSums(res$acc, dims = 2L)
  log_z_k <- data.frame(k = seq_len(K), beta = args$betas, prior = args$prior,
                        log_z = ladders$rts, se = se_k, c_hat = s[, 1] / sum(s[, 1]),
                        log_z_hat = res$zeta + log_z1)
  for (nm in setdiff(names(ladders), "rts")) log_z_k[[nm]] <- ladders[[nm]]
  jse <- rts_jackknife_se(res$acc, res$zeta, log_r, log_z1, args$betas,
                          setdiff(which, c("rts", "mbar")))
  est_names <- names(ladders)
  estimates <- data.frame(
    estimator = est_names,
    log_z = vapply(ladders, function(x) x[K], 0),
    se = vapply(est_names, function(nm) {
      if (nm == "rts") se_k[K] else if (!is.null(jse) && nm %in% names(jse)) jse[[nm]]
      else NA_real_
    }, 0), row.names = NULL)
  rts_check_visits(log_z_k$c_hat, args$prior)
  M <- args$n_chains
  n_init <- res$n_init
  n_pilot <- if (is.null(args$pilot)) 0 else args$pilot$sweeps
  new_logz_estimate(c(list(
    log_z = ladders$rts[K], se = se_k[K], log_z_k = log_z_k, estimates = estimates,
    log_z1 = log_z1, betas = args$betas, prior = args$prior, init = res$init,
    method = method, time = time,
    counts = c(gibbs_sweeps = M * (n_pilot + n_init * args$init_sweeps + args$sweeps), chains = M,
               K = K, init_iterations = n_init, sweeps = args$sweeps, pilot_sweeps = n_pilot),
    pilot = if (!is.null(args$pilot)) list(log_z_hat = args$pilot$zeta + log_z1),
    converged = isTRUE(res$init$converged),
    pieces = if (!is.null(args$pieces) && args$pieces > 1L) args$pieces,
    diagnostics = res$trace, seed = seed, call = call), extra), "logz_rts")
}

#' @export
print.logz_rts <- function(x, ...) {
  cat(sprintf("<logz_rts> %s estimate of log Z (Rao-Blackwellized tempered sampling)\n",
              x$method))
  cat(sprintf("  log Z = %.4f (se %.4f, Eq. 16)\n", x$log_z, x$se))
  cat(sprintf("  K = %d temperatures, %d chains x %s sweeps; %d initial iteration(s) (%s)\n",
              x$counts[["K"]], x$counts[["chains"]], format(x$counts[["sweeps"]], big.mark = ","),
              x$counts[["init_iterations"]],
              if (x$init$converged) "converged" else "not converged"))
  cat(sprintf("  %s Gibbs sweeps in %.2f s%s\n", format(x$counts[["gibbs_sweeps"]], big.mark = ","),
              x$time, pieces_note(x)))
  if (!isTRUE(x$converged))
    cat("  note: the initial iterations stopped before max_k |r_k - c_hat_k| < tol / K;",
        "the ladder may still be biased (more init_iter or init_sweeps)\n")
  e <- x$estimates
  cat("  estimators at beta = 1:\n")
  for (i in seq_len(nrow(e)))
    cat(sprintf("    %-13s %12.4f  (se %s)\n", e$estimator[i], e$log_z[i],
                if (is.na(e$se[i])) "NA" else sprintf("%.4f", e$se[i])))
  invisible(x)
}

#' Plot an RTS run
#'
#' @param x a `logz_rts` result.
#' @param type `"ladder"` (\eqn{\log Z_k} against \eqn{\beta_k} with 2-se bars,
#'   minus the straight line between its ends so the curvature shows; `exact`
#'   values overlaid if given), `"c_hat"` (\eqn{\hat c_k} of each initial
#'   iteration and of the final run against the prior \eqn{r_k}, log scale) or
#'   `"trace"` (the RTS estimate of log Z over the final run's sweeps).
#' @param exact optional exact \eqn{\log Z_k} (length K) for `type = "ladder"`.
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- ising_grid(3, 3, coupling = 0.3)
#' fit <- rts(m, K = 10, n_chains = 10, sweeps = 200, progress = FALSE)
#' plot(fit, type = "c_hat")
#' plot(fit, type = "trace")
#' @export
plot.logz_rts <- function(x, type = c("ladder", "c_hat", "trace"), exact = NULL, ...) {
  type <- match.arg(type)
  d <- x$log_z_k
  K <- nrow(d)
  switch(type,
    ladder = {
      line <- d$log_z[1] + (d$log_z[K] - d$log_z[1]) * d$beta
      y <- d$log_z - line
      lo <- y - 2 * d$se
      hi <- y + 2 * d$se
      rng <- range(lo, hi, if (!is.null(exact)) exact - line, na.rm = TRUE)
      plot(d$beta, y, type = "n", ylim = rng, xlab = expression(beta[k]),
           ylab = expression(log ~ Z[k] ~ "- chord"), ...)
      graphics::segments(d$beta, lo, d$beta, hi, col = "grey60")
      graphics::points(d$beta, y, pch = 20, cex = 0.6)
      if (!is.null(exact)) graphics::lines(d$beta, exact - line, col = "red")
    },
    c_hat = {
      cc <- rbind(x$init$c_hat, d$c_hat)
      cc[cc <= 0] <- NA
      rng <- range(cc, d$prior, na.rm = TRUE)
      plot(d$k, d$prior, type = "n", log = "y", ylim = rng, xlab = "k",
           ylab = expression(hat(c)[k]), ...)
      n <- nrow(cc)
      cols <- grDevices::gray(seq(0.8, 0.3, length.out = max(n - 1L, 1L)))
      for (i in seq_len(n - 1L)) graphics::lines(d$k, cc[i, ], col = cols[i])
      graphics::lines(d$k, cc[n, ], col = "blue", lwd = 2)
      graphics::lines(d$k, d$prior, col = "red", lty = 2)
    },
    trace = {
      tr <- x$diagnostics
      plot(tr$sweep, tr$log_z, type = "l", xlab = "sweeps (final run)",
           ylab = "RTS estimate of log Z", ...)
      graphics::abline(h = x$log_z + c(-2, 2) * x$se, lty = 2, col = "grey40")
    })
  invisible(x)
}

#' @rdname rts
#' @param vectorized for a function `model`: `TRUE` if `model(x)` takes an
#'   n x d matrix (one point per row) and returns n log densities; `FALSE`
#'   (default) if it takes one point and returns one number.
#' @param step_size for a function `model`: initial random-walk scale
#'   (per temperature it is adapted during the initial iterations towards an
#'   acceptance rate of 0.3, then frozen).
#' @param metropolis_steps for a function `model`: random-walk Metropolis
#'   steps per sweep.
#' @details For a continuous target, `model` is an R function giving
#'   \eqn{\log f(x)} and `base` a normalised [proposal][proposal_normal] \eqn{p_1}
#'   (e.g. `proposal_normal(rep(0, d), 3)`) whose dimension fixes d; then
#'   \eqn{Z_1 = 1}, \eqn{\Delta = \log f - \log p_1} and the x-move is
#'   `metropolis_steps` steps of Gaussian random-walk Metropolis at
#'   \eqn{\beta_k} with a scale per temperature adapted only during the initial
#'   iterations (so the final run is a fixed Markov kernel). This runs in R on
#'   all chains at once (a vectorised `model` is much faster).
#' @export
rts.function <- function(model, base, K = 100L, betas = NULL, prior = NULL, n_chains = 100L,
                         sweeps = 1000L, init_iter = 10L, init_sweeps = 50L, tol = 0.1,
                         estimators = c("rts", "ts", "ti", "ti_rb", "mbar"),
                         mbar_samples = 5000L,
                         vectorized = FALSE, step_size = 0.5, metropolis_steps = 1L,
                         progress = interactive(), ...) {
  call <- match.call()
  args <- rts_check_args(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                         estimators, mbar_samples, 1L, progress)
  if (missing(base) || !inherits(base, "logz_proposal"))
    stop_no_call(sprintf(paste0("`base` must be a logz_proposal (e.g. proposal_normal()) giving ",
                                "the normalised base density, not %s."),
                         if (missing(base)) "missing" else describe(base)))
  check_flag(vectorized, "vectorized")
  step_size <- check_number(step_size, "step_size", lower = 0, lower_open = TRUE)
  metropolis_steps <- check_count(metropolis_steps, "metropolis_steps")
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  d <- base$dim
  M <- args$n_chains
  K <- args$K
  betas <- args$betas
  log_f <- if (vectorized) function(X) as.double(model(X)) else
    function(X) vapply(seq_len(nrow(X)), function(i) as.double(model(X[i, ]))[1], 0)
  eval_f <- function(X) {
    v <- log_f(X)
    if (length(v) != nrow(X) || anyNA(v) || any(v == Inf))
      stop_no_call(sprintf(paste0("`model` must return one log density (finite or -Inf) per ",
                                  "point; it gave %s for %d points."), describe(v), nrow(X)))
    v
  }
  X <- matrix(proposal_sample(base, M), M, d)
  lf <- eval_f(X)
  lb <- proposal_log_density(base, X)
  if (any(!is.finite(lf)))
    stop_no_call("`model` is -Inf at some draws from `base`; its support must cover the base's.")
  log_step <- rep(log(step_size), K)
  run <- function(state, control) {
    k <- state$k + 1L
    lrz <- control$lrz
    acc <- array(0, c(K, 6L, M))
    S <- control$sweeps
    thin <- control$thin
    nstore <- if (thin > 0) (control$offset + S) %/% thin - control$offset %/% thin else 0L
    store <- matrix(0, K, nstore * M)
    store_k <- integer(nstore * M)
    n_acc <- n_try <- numeric(K)
    for (sw in seq_len(S)) {
      for (ms in seq_len(metropolis_steps)) {
        Xp <- X + exp(log_step[k]) * matrix(stats::rnorm(M * d), M, d)
        lfp <- eval_f(Xp)
        lbp <- proposal_log_density(base, Xp)
        b <- betas[k]
        la <- b * (lfp - lf) + (1 - b) * (lbp - lb)
        ok <- is.finite(la) & log(stats::runif(M)) < la
        ok[is.na(ok)] <- FALSE
        X[ok, ] <- Xp[ok, ]
        lf[ok] <- lfp[ok]
        lb[ok] <- lbp[ok]
        n_acc <- n_acc + tabulate(k[ok], K)
        n_try <- n_try + tabulate(k, K)
      }
      delta <- lf - lb
      L <- outer(delta, betas) + lb          # M x K: log f_k(x)
      W <- L + rep(lrz, each = M)
      W <- exp(W - apply(W, 1L, max))
      Q <- W / rowSums(W)
      knew <- rowSums(stats::runif(M) > t(apply(Q, 1L, cumsum))) + 1L
      knew <- pmin(knew, K)
      idx <- cbind(knew, seq_len(M))
      acc[, 1L, ] <- acc[, 1L, ] + t(Q)
      acc[, 2L, ] <- acc[, 2L, ] + t(Q * delta)
      a3 <- acc[, 3L, ]
      a3[idx] <- a3[idx] + 1
      acc[, 3L, ] <- a3
      a4 <- acc[, 4L, ]
      a4[idx] <- a4[idx] + delta
      acc[, 4L, ] <- a4
      a5 <- acc[, 5L, ]
      a5[idx] <- a5[idx] + delta^2
      acc[, 5L, ] <- a5
      g <- control$offset + sw
      if (thin > 0 && g %% thin == 0) {
        j <- g %/% thin - control$offset %/% thin - 1L
        cols <- j * M + seq_len(M)
        store[, cols] <- t(L)
        store_k[cols] <- knew - 1L
      }
      k <- knew
    }
    if (!isTRUE(control$final)) {   # adapt the scales in the initial iterations only
      rate <- ifelse(n_try > 0, n_acc / pmax(n_try, 1), 0.3)
      log_step <<- log_step + ifelse(n_try > 0, 2 * (rate - 0.3), 0)
    }
    X <<- X
    lf <<- lf
    lb <<- lb
    list(X = NULL, k = k - 1L, streams = state$streams, acc = acc, store = store,
         store_k = store_k)
  }
  res <- rts_engine(function(state, control) {
    out <- run(state, control)
    out$X <- state$X
    out
  }, matrix(0, 1, M), 0, args)
  new_rts_result(res, args, 0, time = proc.time()[["elapsed"]] - t0, seed = seed, call = call,
                 extra = list(step_size = exp(log_step)))
}
