# The RTS final run (Carlson et al. 2016): the accumulators, the ladder spacing, k | x
# (Eq. 7) and the final run of the chains under one ladder. Called by rts_engine()
# (R/rts_engine.R).

# A K x 6 x M accumulator array of zeros, named by RTS_STAT.
rts_acc_new <- function(K, M, data = 0)
  array(data, c(K, length(RTS_STAT), M), dimnames = list(NULL, names(RTS_STAT), NULL))

# The spacing of an evenly spaced ladder (the C engines then use a cheaper
# recursion), else 0.
rts_step <- function(betas) {
  K <- length(betas)
  db <- diff(betas)
  if (max(abs(db - 1 / (K - 1))) < 1e-12) 1 / (K - 1) else 0
}

# k | x for every chain (Eq. 7): lk is K x M, log f_k(x_c) for each chain's
# current state; returns 0-based temperatures drawn from
# q(k | x) proportional to f_k(x) r_k / Z_hat_k under the ladder zeta.
rts_draw_k <- function(lk, log_r, zeta) {
  W <- lk + (log_r - zeta)
  W <- exp(W - rep(apply(W, 2L, max), each = nrow(W)))
  P <- apply(W, 2L, cumsum)
  P <- matrix(P, nrow(W))
  u <- stats::runif(ncol(W)) * P[nrow(W), ]
  as.integer(pmin(colSums(P <= rep(u, each = nrow(W))), nrow(W) - 1L))
}

# The final run of `args$sweeps` sweeps from `state` under the ladder zeta (log Z_hat_k -
# log Z_1), in pieces of the chains when asked (see scale_out): the ladder is shared, so the
# per-chain accumulators pool exactly. update(n) is told of every n sweeps done. Returns
# list(acc, store, store_k, trace (sweep, log_z), state).
rts_final_stage <- function(run, state, zeta, log_z1, args, pieces, update) {
  K <- args$K
  M <- ncol(state$X)
  log_r <- log(args$prior)
  ctl <- function(sweeps, thin, offset)
    list(final = TRUE, threads = args$threads, sweeps = as.integer(sweeps),
         thin = as.integer(thin), offset = as.integer(offset), step = rts_step(args$betas),
         moments = any(c("ti", "ti_rb") %in% args$estimators), lrz = log_r - zeta)
  thin <- if ("mbar" %in% args$estimators)
    max(1L, as.integer(ceiling(args$sweeps * M / args$mbar_samples))) else 0L
  # at least 100 chunks, and chunks of at most about getOption("logz.chunk_work")
  # units of work (64 per unit and chain-sweep, a rough cost), so that
  # interrupts and time limits are honoured between calls within a second
  budget <- logz_option("chunk_work", 5e7)
  per_sweep <- 64 * as.double(nrow(state$X)) * M
  n_chunks <- min(args$sweeps, max(100L, ceiling(args$sweeps * per_sweep / budget)))
  ends <- unique(round(seq(0, args$sweeps, length.out = n_chunks + 1L)))
  final_run <- function(state, update) {
    acc <- rts_acc_new(K, ncol(state$X))
    store <- list()
    store_k <- list()
    chat <- matrix(NA_real_, K, length(ends) - 1L)   # cumulative sum of q per chunk
    for (i in seq_len(length(ends) - 1L)) {
      res <- run(state, ctl(ends[i + 1L] - ends[i], thin, ends[i]))
      state <- list(X = res$X, k = res$k, streams = res$streams)
      acc <- acc + res$acc
      if (ncol(res$store)) {
        store[[length(store) + 1L]] <- res$store
        store_k[[length(store_k) + 1L]] <- res$store_k
      }
      chat[, i] <- rowSums(acc[, "sum_q", , drop = FALSE])
      update(ends[i + 1L] - ends[i])
    }
    list(acc = acc, store = store, store_k = store_k, chat = chat, state = state)
  }
  if (is.null(pieces)) pieces <- 1L
  if (pieces > 1L) {
    cols <- split(seq_len(M), rep(seq_len(pieces), piece_sizes(M, pieces)))
    parts <- run_pieces(M, pieces, function(size, i)
      final_run(list(X = state$X[, cols[[i]], drop = FALSE], k = state$k[cols[[i]]],
                     streams = state$streams[, cols[[i]], drop = FALSE]), function(n) NULL),
      args$progress)
    fin <- list(acc = rts_acc_new(K, M, unlist(lapply(parts, `[[`, "acc"))),
                store = unlist(lapply(parts, `[[`, "store"), recursive = FALSE),
                store_k = unlist(lapply(parts, `[[`, "store_k"), recursive = FALSE),
                chat = Reduce(`+`, lapply(parts, `[[`, "chat")),
                state = list(X = do.call(cbind, lapply(parts, function(p) p$state$X)),
                             k = unlist(lapply(parts, function(p) p$state$k)),
                             streams = do.call(cbind, lapply(parts, function(p) p$state$streams))))
    update(args$sweeps)
  } else {
    fin <- final_run(state, update)
  }
  trace <- data.frame(sweep = ends[-1], log_z = log_z1 + zeta[K] + log_r[1] - log_r[K] +
                        log(fin$chat[K, ]) - log(fin$chat[1, ]))
  list(acc = fin$acc, store = do.call(cbind, fin$store), store_k = unlist(fin$store_k),
       trace = trace, state = fin$state)
}
