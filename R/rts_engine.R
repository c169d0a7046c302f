# The RTS engine (Carlson et al. 2016): the annealing pilot, the initial
# iterations and final run, the Eq. 12 ladder update, Eq. 16 se, visit checks
# and the result object. The user-facing front end is R/rts.R.

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
                     streams = state$streams[, cols[[i]], drop = FALSE]), function(n) NULL))
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

