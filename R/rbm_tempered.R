# rbm_train()'s R-driven training: method "tempered" (the gradient's negative
# phase from persistent simulated-tempering chains, Carlson, Stinson, Pakman &
# Paninski 2016, Section 4.4, with log Z tracked from the same chains) and CD /
# PCD with the RMSspectral optimizer. The minibatch loop, the positive phase
# and the optimiser run in R (R/rbm_optimizer.R); the tempered chains in C
# (src/rbm_tempered.c through rbm_tempered_chunk()).

rbm_tempered_defaults <- list(K = 100L, prior = "exp2", alpha = 0.2, gain = "fixed",
                              init_iter = 10L, init_sweeps = 50L, max_examples = 2000L,
                              ll_every = 1L, keep_every = 0L)

# The settings of method = "tempered" from rbm_train()'s `track` list.
rbm_tempered_control <- function(track) {
  if (!is.list(track) || (length(track) && is.null(names(track))) ||
      !all(names(track) %in% names(rbm_tempered_defaults)))
    stop_no_call(sprintf("`track` must be a named list with elements among %s for method = \"tempered\".",
                         paste(names(rbm_tempered_defaults), collapse = ", ")))
  ctl <- utils::modifyList(rbm_tempered_defaults, track)
  ctl$K <- check_count(ctl$K, "track$K", min = 2L, max = 100000L)
  ctl$init_iter <- check_count(ctl$init_iter, "track$init_iter", min = 0L)
  ctl$init_sweeps <- check_count(ctl$init_sweeps, "track$init_sweeps")
  ctl$max_examples <- check_count(ctl$max_examples, "track$max_examples")
  ctl$keep_every <- check_count(ctl$keep_every, "track$keep_every", min = 0L)
  ctl$ll_every <- check_count(ctl$ll_every, "track$ll_every")
  ctl$alpha <- check_number(ctl$alpha, "track$alpha", lower = 0, upper = 1, lower_open = TRUE)
  ctl$gain <- match_arg(ctl$gain, "track$gain", c("fixed", "adaptive"))
  if (!identical(ctl$prior, "exp2") && !identical(ctl$prior, "uniform"))
    stop_no_call("`track$prior` must be \"exp2\" (r_k proportional to exp(2 beta_k)) or \"uniform\".")
  ctl
}

# The tempered chains (n_chains of them, drawn from the base) and their ladder
# after the initial iterations of Section 2.4 on params: a tracker as
# rts_track.R keeps it (state, zeta = log Z_hat_k - log Z_1, betas, log_r).
rbm_tempered_start <- function(params, a0, ctl, n_chains, sweeps, threads) {
  K <- ctl$K
  betas <- seq(0, 1, length.out = K)
  prior <- if (identical(ctl$prior, "exp2")) exp(2 * betas) else rep(1, K)
  args <- rts_check_args(K, NULL, prior, n_chains, sweeps, ctl$init_iter, ctl$init_sweeps, 0.1,
                         "rts", 1L, threads, FALSE)
  log_z1 <- sum(softplus(a0)) + ncol(params$W) * log(2)
  nv <- nrow(params$W)
  X <- matrix(as.double(stats::runif(nv * n_chains) < stats::plogis(a0)), nv)
  mlist <- c(params[c("W", "a", "b")], list(a0 = a0))
  res <- rts_engine(function(state, control) rts_rbm_chunk(mlist, betas, state, control),
                    X, log_z1, args)
  s <- rowSums(res$acc[, "sum_q", , drop = FALSE])
  list(state = res$state, zeta = rts_update_ladder(res$zeta, s / sum(s), log(args$prior)),
       betas = betas, log_r = log(args$prior), a0 = a0, log_z1 = log_z1,
       ctl = c(ctl, list(sweeps = sweeps)), step = 1 / (K - 1), sum_q = numeric(K), time = 0,
       se = NA_real_, lag_z = NA_real_, extra = 0L)
}

# The negative phase of one update on the tempered chains; returns list(neg =
# list(W, a, b), tracker) with the tracker's ladder moved by Eq. 12 (partial
# update) from the sweeps' c_hat_k; tracker$time counts only that update.
rbm_tempered_negative <- function(params, tr, threads) {
  mlist <- c(params[c("W", "a", "b")], list(a0 = tr$a0))
  control <- list(final = TRUE, threads = threads, sweeps = as.integer(tr$ctl$sweeps), thin = 0L,
                  offset = 0L, step = tr$step, moments = FALSE, lrz = tr$log_r - tr$zeta)
  res <- rbm_tempered_chunk(mlist, tr$betas, tr$state, control)
  tr <- rts_tracker_absorb(tr, res$chains, proc.time()[["elapsed"]])
  list(neg = list(W = res$W_neg, a = res$a_neg, b = res$b_neg), tracker = tr, wq = res$wq)
}

# The training loop. s: the settings of rbm_train() (method, k, epochs,
# learning_rate, lr_step, batch_size, n_chains, momentum, weight_decay,
# optimizer, rms_lambda, rms_epsilon, threads, track_log_z, validation, tctl,
# progress, check_eval, eval_every: the held-out check of R/rbm_train_eval.R); P0: nv x n_chains persistent chains to continue from, or NULL.
# Returns list(params, history, chains (nv x M or NULL), log_z_track, kept).
rbm_train_driven <- function(data, params, P0, s) {
  data_t <- t(data)
  nv <- nrow(params$W)
  N <- ncol(data_t)
  B <- s$batch_size
  n_batches <- N %/% B
  zero <- list(W = params$W * 0, a = params$a * 0, b = params$b * 0)
  opt_state <- zero
  tempered <- s$method == "tempered"
  a0 <- base_rate_bias(data)
  tr <- if (tempered) rbm_tempered_start(params, a0, s$tctl, s$n_chains, s$k, s$threads)
  P <- if (s$method == "pcd") {
    if (is.null(P0)) data_t[, sample.int(N, s$n_chains, replace = TRUE), drop = FALSE] else P0
  }
  history <- data.frame(epoch = integer(0), reconstruction_error = numeric(0),
                        time = numeric(0), learning_rate = numeric(0))
  tracked <- tempered && s$track_log_z
  rows <- if (tracked) vector("list", s$epochs * n_batches)
  kept <- list()
  pb <- progress_bar(s$progress, s$epochs)
  u <- 0L
  for (ep in seq_len(s$epochs)) {
    t0 <- proc.time()[["elapsed"]]
    track_time <- 0
    perm <- sample.int(N)
    recon <- 0
    lr0 <- s$learning_rate - (ep - 1) * n_batches * s$lr_step
    for (bt in seq_len(n_batches)) {
      u <- u + 1L
      lr <- max(0, s$learning_rate - (u - 1) * s$lr_step)
      V0 <- data_t[, perm[(bt - 1L) * B + seq_len(B)], drop = FALSE]
      if (tempered) {
        nres <- rbm_tempered_negative(params, tr, s$threads)
        tr <- nres$tracker
        neg <- nres$neg
      } else {
        neg <- rbm_gibbs_negative(params, if (is.null(P)) V0 else P, s$k)
        if (!is.null(P)) P <- neg$V
      }
      if (tracked) {   # the tracked log Z is that of the parameters the chains ran under
        tt <- proc.time()[["elapsed"]]
        lz <- rts_tracker_log_z(tr)
        ll <- (u - 1L) %% s$tctl$ll_every == 0L || bt == n_batches
        rows[[u]] <- c(update = u, epoch = ep, log_z = lz, se = tr$se,
                       train_ll = if (ll) rts_track_ll(params, data, lz, s$tctl$max_examples)
                                  else NA_real_,
                       valid_ll = if (ll) rts_track_ll(params, s$validation, lz, s$tctl$max_examples)
                                  else NA_real_)
        if (s$tctl$keep_every > 0L && u %% s$tctl$keep_every == 0L)
          kept[[length(kept) + 1L]] <- list(update = u, params = params[c("W", "a", "b")],
                                            log_z = lz, se = tr$se)
        track_time <- track_time + proc.time()[["elapsed"]] - tt
      }
      g <- rbm_batch_gradient(params, V0, neg, s$weight_decay)
      recon <- recon + g$recon
      step <- if (s$optimizer == "rmsspectral")
                rmsspectral_step(params, g$grad, opt_state, lr, s$rms_lambda, s$rms_epsilon)
              else sgd_step(params, g$grad, opt_state, lr, s$momentum)
      params[c("W", "a", "b")] <- step$params[c("W", "a", "b")]
      opt_state <- step$state
      if (!all(is.finite(params$W))) break
      check_interrupt()
    }
    history[ep, c("epoch", "reconstruction_error", "time", "learning_rate")] <-
      list(ep, recon / (n_batches * B), proc.time()[["elapsed"]] - t0, lr0)
    if (tracked) {
      last <- rows[[u]]
      history$log_z[ep] <- last[["log_z"]]
      history$log_z_se[ep] <- last[["se"]]
      history$train_ll[ep] <- last[["train_ll"]]
      history$valid_ll[ep] <- last[["valid_ll"]]
      history$track_time[ep] <- track_time
    }
    if (s$check_eval)
      history <- rbm_eval_epoch(history, ep, params, data, s$validation,
                                due = ep %% s$eval_every == 0L || ep == s$epochs)
    if (tempered) {
      vis <- rts_tracker_visits(tr)
      tr <- vis$tracker
      history$visit_ratio[ep] <- vis$ratio
    }
    pb$update(ep)
    if (!all(is.finite(params$W))) break
  }
  pb$close()
  log_z_track <- if (tracked) as.data.frame(do.call(rbind, rows[seq_len(u)]))
  list(params = params, history = history, log_z_track = log_z_track, kept = kept,
       chains = if (tempered) tr$state$X else P)
}
