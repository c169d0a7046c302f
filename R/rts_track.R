# Tracking log Z during RBM training with RTS (Carlson et al. 2016, Section
# 4.4): tempered chains persist through training; after every parameter update
# (track$every = "update", the paper's schedule) or after every epoch
# ("epoch") they run a few sweeps under the current parameters and the ladder
# log Z_hat_k moves a fraction alpha_t of the way to its RTS update (Eq. 12),
#   Z^(t+1) = Z^(t) ((r_1 / r_k) (c_k / c_1))^alpha_t,
# applied to the whole ladder (the paper writes it for Z_K) so that the
# sampler stays balanced as the parameters move. With track$gain = "fixed"
# alpha_t = alpha (the paper's constant step); with "adaptive" (the default)
# alpha_t = max(alpha, 1 - (3 se_t / d_t)^2), d_t the step's innovation (its
# own estimate of log Z_K minus the tracked value) and se_t its Eq. 16 se: a
# shrinkage gain that takes a move well beyond 3 se of the step's noise nearly
# whole, while for innovations of the size of the noise (log Z settled) it is
# alpha and the smoothing is the paper's. A step whose innovation exceeds 3 se
# is followed by up to track$extra_steps further steps under the same
# parameters (rts_tracker_update()), so that the chains catch up with a log Z
# that moves fast; not in the paper.

rts_track_defaults <- list(every = "update", K = 100L, n_chains = 100L, sweeps = NULL,
                           alpha = NULL, init_iter = 10L, init_sweeps = 50L, prior = "exp2",
                           max_examples = 2000L, check_every = 0L, predict = FALSE,
                           gain = "adaptive", extra_steps = NULL)

# The defaults that depend on the schedule: per update a few sweeps, the
# paper's alpha = 0.2 and up to 3 extra steps where log Z moves fast; per epoch
# more sweeps, a full update (alpha = 1) and no extra steps.
rts_track_schedule_defaults <- list(update = list(sweeps = 5L, alpha = 0.2, extra_steps = 3L),
                                    epoch = list(sweeps = 200L, alpha = 1, extra_steps = 0L))

rts_track_control <- function(track) {
  if (!is.list(track) || (length(track) && is.null(names(track))) ||
      !all(names(track) %in% names(rts_track_defaults)))
    stop_no_call(sprintf("`track` must be a named list with elements among %s.",
                         paste(names(rts_track_defaults), collapse = ", ")))
  ctl <- utils::modifyList(rts_track_defaults, track)
  ctl$every <- match_arg(ctl$every, "track$every", c("update", "epoch"))
  sched <- rts_track_schedule_defaults[[ctl$every]]
  if (is.null(ctl$sweeps)) ctl$sweeps <- sched$sweeps
  if (is.null(ctl$alpha)) ctl$alpha <- sched$alpha
  if (is.null(ctl$extra_steps)) ctl$extra_steps <- sched$extra_steps
  ctl$K <- check_count(ctl$K, "track$K", min = 2L)
  ctl$chains <- check_count(ctl$n_chains, "track$n_chains")
  ctl$sweeps <- check_count(ctl$sweeps, "track$sweeps")
  ctl$init_iter <- check_count(ctl$init_iter, "track$init_iter", min = 0L)
  ctl$init_sweeps <- check_count(ctl$init_sweeps, "track$init_sweeps")
  ctl$max_examples <- check_count(ctl$max_examples, "track$max_examples")
  ctl$check_every <- check_count(ctl$check_every, "track$check_every", min = 0L)
  check_flag(ctl$predict, "track$predict")
  ctl$extra_steps <- check_count(ctl$extra_steps, "track$extra_steps", min = 0L, max = 100L)
  ctl$gain <- match_arg(ctl$gain, "track$gain", c("adaptive", "fixed"))
  ctl$alpha <- check_number(ctl$alpha, "track$alpha", lower = 0, upper = 1, lower_open = TRUE)
  if (!identical(ctl$prior, "exp2") && !identical(ctl$prior, "uniform"))
    stop_no_call("`track$prior` must be \"exp2\" (r_k proportional to exp(2 beta_k)) or \"uniform\".")
  ctl
}

# Start: the initial iterations of Section 2.4 on the initial parameters.
rts_tracker_start <- function(params, a0, ctl) {
  K <- ctl$K
  betas <- seq(0, 1, length.out = K)
  prior <- if (identical(ctl$prior, "exp2")) exp(2 * betas) else rep(1, K)
  args <- rts_check_args(K, NULL, prior, ctl$chains, ctl$sweeps, ctl$init_iter,
                         ctl$init_sweeps, 0.1, "rts", 1L, 1L, FALSE)
  nh <- ncol(params$W)
  log_z1 <- sum(softplus(a0)) + nh * log(2)
  X <- matrix(as.double(stats::runif(nrow(params$W) * ctl$chains) < stats::plogis(a0)),
              nrow(params$W))
  mlist <- c(params[c("W", "a", "b")], list(a0 = a0))
  res <- rts_engine(function(state, control) rts_rbm_chunk(mlist, betas, state, control),
                    X, log_z1, args)
  s <- rowSums(res$acc[, "sum_q", , drop = FALSE])
  zeta <- rts_update_ladder(res$zeta, s / sum(s), log(args$prior))
  list(state = res$state, zeta = zeta, betas = betas, log_r = log(args$prior), a0 = a0,
       log_z1 = log_z1, ctl = ctl, step = 1 / (K - 1), sum_q = numeric(K), time = 0,
       se = NA_real_, lag_z = NA_real_, extra = 0L)
}

# One tracking step under the current parameters; returns the updated tracker
# (sum_q accumulates c_hat over steps, for the visit check of each epoch;
# time the seconds spent tracking). The step's own RTS estimate full[K] has
# the Eq. 16 se of its chains and lies d = full[K] - previous from the last
# tracked value; the new tracked value, moved by the gain alpha_t, lies
# gap = (1 - alpha_t) d from it, and lag_z = gap / se_step: while the ladder
# keeps up with the parameters the gaps are noise of mean 0, while it trails
# a moving log Z they keep one sign. The tracker's se is
# sqrt(se_step^2 + ((1 - alpha) d)^2 + lag^2): the step's noise, the lag the
# constant gain alpha would leave, and the chains' lag estimated from the
# recent innovations (rts_track_lag_scale, below). innov_z2 keeps the last
# rts_track_window squared innovation z's, innov_ex their excess over noise.
# With track$predict the ladder first moves by rts_tracker_predict(), unless
# predict = FALSE (a further step under the same parameters).
rts_tracker_step <- function(tr, params, predict = TRUE) {
  t0 <- proc.time()[["elapsed"]]
  if (predict && isTRUE(tr$ctl$predict) && !is.null(tr$lk))
    tr$zeta <- tr$zeta + rts_tracker_predict(tr, params, rts_track_predict_at(length(tr$betas)))
  mlist <- c(params[c("W", "a", "b")], list(a0 = tr$a0))
  S <- as.integer(tr$ctl$sweeps)
  control <- list(final = TRUE, threads = 1L, sweeps = S, thin = if (isTRUE(tr$ctl$predict)) S else 0L,
                  offset = 0L, step = tr$step, moments = FALSE, lrz = tr$log_r - tr$zeta)
  res <- rts_rbm_chunk(mlist, tr$betas, tr$state, control)
  if (isTRUE(tr$ctl$predict)) {
    tr$lk <- res$store
    tr$params <- params[c("W", "a", "b")]
  }
  rts_tracker_absorb(tr, res, t0)
}

# The ladder update of a step from its chains' result `res` (list(X, k,
# streams, acc) of rts_rbm_chunk() or the chains of rbm_tempered_chunk()),
# the tracker's se and lag (see rts_tracker_step()); t0: the step's start.
rts_tracker_absorb <- function(tr, res, t0) {
  s <- rowSums(res$acc[, "sum_q", , drop = FALSE])
  full <- rts_update_ladder(tr$zeta, s / sum(s), tr$log_r)
  K <- length(full)
  se_step <- rts_se(res$acc)[K]              # Eq. 16 of the step's own estimate full[K]
  alpha <- tr$ctl$alpha
  d <- full[K] - tr$zeta[K]                  # the step's innovation
  gain <- if (tr$ctl$gain == "adaptive" && is.finite(se_step) && d != 0)
            max(alpha, 1 - (rts_track_gain_z * se_step / d)^2) else alpha
  tr$zeta <- tr$zeta + gain * (full - tr$zeta)
  gap <- full[K] - tr$zeta[K]                # (1 - gain) x the innovation
  W <- rts_track_window
  tr$innov_ex <- utils::tail(c(tr$innov_ex, if (is.finite(se_step)) max(d^2 - se_step^2, 0) else NA), W)
  tr$innov_z2 <- utils::tail(c(tr$innov_z2, (d / se_step)^2), W)
  lag_var <- rts_track_lag_scale^2 * mean(tr$innov_ex, na.rm = TRUE)
  tr$se <- sqrt(se_step^2 + ((1 - alpha) * d)^2 + if (is.finite(lag_var)) lag_var else 0)
  tr$gain <- gain
  tr$se_step <- se_step
  tr$innov <- d
  tr$lag_z <- gap / se_step
  tr$state <- list(X = res$X, k = res$k, streams = res$streams)
  tr$sum_q <- tr$sum_q + s
  tr$time <- tr$time + proc.time()[["elapsed"]] - t0
  tr
}

rts_tracker_log_z <- function(tr) tr$log_z1 + tr$zeta[length(tr$zeta)]

# The tracked log Z after a step, its se and the step's lag z (see
# rts_tracker_step()).
rts_tracker_point <- function(tr)
  matrix(c(rts_tracker_log_z(tr), tr$se, tr$lag_z, rts_tracker_innov_z2(tr)), 1L,
         dimnames = list(NULL, rts_track_cols))

rts_track_cols <- c("log_z", "se", "lag_z", "innov_z2")

# The mean squared innovation z, (d_t / se_t)^2, over the last
# rts_track_window steps (NA before the first step).
rts_tracker_innov_z2 <- function(tr)
  if (length(tr$innov_z2) && any(is.finite(tr$innov_z2))) mean(tr$innov_z2, na.rm = TRUE) else NA_real_

# The visit ratio min_k c_hat_k / r_k of the steps since the last call (c_hat
# pooled over them), and the tracker with its accumulator reset. Well below 1
# (rts()'s visit-deficit threshold is 0.1) means the ladder lags the
# parameters: some temperatures go unvisited.
rts_tracker_visits <- function(tr) {
  s <- tr$sum_q
  r <- exp(tr$log_r)
  ratio <- if (sum(s) > 0) min((s / sum(s)) / (r / sum(r))) else NA_real_
  tr$sum_q[] <- 0
  list(tracker = tr, ratio = ratio)
}

# One epoch of training with a tracking step after every parameter update: the
# epoch's mini-batches go one at a time through rbm_train_epoch() (same
# updates, learning rates and random draws as one call over the epoch).
# Returns the rbm_train_epoch() result with the epoch's mean reconstruction
# error, plus the tracker and log_z (matrix, one row per update:
# rts_tracker_point()).
rts_track_epoch <- function(data_t, params, state, control, tracker) {
  B <- control$batch_size
  N <- ncol(data_t)
  nb <- N %/% B
  if (control$pcd == 1L && is.null(state$P)) {   # fresh persistent chains, as in src/rbm_train.c
    ex <- pmin(as.integer(stats::runif(control$n_chains) * N), N - 1L) + 1L
    state$P <- data_t[, ex, drop = FALSE]
  }
  lz <- matrix(NA_real_, nb, length(rts_track_cols), dimnames = list(NULL, rts_track_cols))
  recon <- 0
  ctl <- control
  ctl$perm <- seq_len(B) - 1L
  lr <- control$learning_rate
  for (i in seq_len(nb)) {
    ctl$learning_rate <- lr
    lr <- max(0, lr - control$lr_step)   # the arithmetic of src/rbm_train.c, to the last bit
    res <- rbm_train_epoch(data_t[, control$perm[(i - 1L) * B + seq_len(B)] + 1L, drop = FALSE],
                           params, state, ctl)
    params <- res[c("W", "a", "b")]
    state <- res[c("dW", "da", "db", "P")]
    recon <- recon + res$recon_error
    tracker <- rts_tracker_update(tracker, params)
    lz[i, ] <- rts_tracker_point(tracker)
  }
  res$recon_error <- recon / max(nb, 1L)
  c(res, list(tracker = tracker, log_z = lz))
}

# The tracked log Z of every tracking step: data frame update (the parameter
# update after which it was taken; per epoch, the epoch's last update),
# epoch, log_z, se, lag_z, innov_z2. lz: one matrix (rts_tracker_point() rows)
# per epoch.
rts_track_table <- function(lz, every, n_batches) {
  n <- vapply(lz, nrow, 0L)
  epoch <- rep(seq_along(lz), n)
  m <- do.call(rbind, lz)
  data.frame(update = if (every == "update") seq_len(sum(n)) else epoch * n_batches,
             epoch = epoch, log_z = m[, "log_z"], se = m[, "se"], lag_z = m[, "lag_z"],
             innov_z2 = m[, "innov_z2"])
}

# The check of the tracker at epoch ep (track$check_every > 0): log Z of the
# current parameters by rbm_eval_log_z() (exact up to 20 hidden units, else
# AIS) in history's check_log_z, check_log_z_se, check_method (NA at epochs
# not checked). The check's random numbers (AIS) leave R's RNG as it was, so
# that checking does not change the trained model.
rts_track_check <- function(history, ep, params, base_rate, due) {
  if (is.null(history$check_log_z)) {
    history$check_log_z <- NA_real_
    history$check_log_z_se <- NA_real_
    history$check_method <- NA_character_
  }
  if (!due) {
    history[ep, c("check_log_z", "check_log_z_se")] <- NA_real_
    history$check_method[ep] <- NA_character_
    return(history)
  }
  lz <- keep_rng_state(rbm_eval_log_z(params, base_rate))   # checks leave the training alone
  history$check_log_z[ep] <- lz$log_z
  history$check_log_z_se[ep] <- lz$se
  history$check_method[ep] <- lz$how
  history
}

# The change of the ladder from the tracker's last parameters to `params`,
# estimated by importance weights on the chains' current states:
# log Z_k' - log Z_k = log E_k[f_k'(x) / f_k(x)], with E_k the expectation
# under rung k, Rao-Blackwellized as sum_c q(k | x_c) w_ck / sum_c q(k | x_c),
# at the rungs `rungs` (indices, the first and last included) and
# interpolated linearly in beta between them (K values). Rungs whose weights
# underflow (no chain near them) are left out of the interpolation; without
# an estimate at the top rung the prediction is no change.
rts_tracker_predict <- function(tr, params, rungs = seq_along(tr$betas)) {
  X <- tr$state$X
  old <- tr$params
  bt <- tr$betas[rungs]
  M <- ncol(X)
  nh <- ncol(params$W)
  lin <- drop(crossprod(X, params$a - old$a))                    # M
  Zn <- crossprod(params$W, X) + params$b                         # nh x M
  Zo <- crossprod(old$W, X) + old$b
  sp <- softplus(outer(as.vector(Zn), bt)) - softplus(outer(as.vector(Zo), bt))
  d <- matrix(colSums(matrix(sp, nh)), M) + outer(lin, bt)        # M x G: log f'_k / f_k
  L <- t(tr$lk) + rep(tr$log_r - tr$zeta, each = M)               # M x K: log q(k | x) + const
  L <- L - apply(L, 1L, max)
  Q <- exp(L)
  Q <- (Q / rowSums(Q))[, rungs, drop = FALSE]
  mx <- apply(d, 2L, max)
  w <- exp(d - rep(mx, each = M))
  V <- Q / rep(colSums(Q), each = M)                              # normalised rung weights
  R <- colSums(V * w)
  est <- log(R) + mx
  est[bt == 0] <- 0                          # the base does not move
  ok <- is.finite(est)                       # a rung no chain's q(k | x) reaches: no estimate
  if (!ok[length(ok)]) return(numeric(length(tr$betas)))
  if (length(bt) < length(tr$betas) || !all(ok))
    est <- stats::approx(bt[ok], est[ok], xout = tr$betas, rule = 2)$y
  est
}

# The rungs at which rts_tracker_predict() estimates the change of the ladder
# (indices into K rungs, the first and last included): rts_track_predict_rungs
# of them evenly spaced in beta, the change at the others interpolated
# linearly in beta. The change is a smooth function of beta, 0 at beta = 0
# (the base does not move); a handful of rungs carry it at a fraction of the
# cost of all K.
rts_track_predict_rungs <- 11L
rts_track_predict_at <- function(K)
  unique(as.integer(round(seq(1, K, length.out = min(K, rts_track_predict_rungs)))))

# One tracking step under new parameters followed, with track$extra_steps > 0,
# by up to that many further steps under the same parameters while the last
# step's innovation exceeds rts_track_gain_z of its se in size (|d_t / s_t| >
# 3: the chains have not caught up with a move of log Z). The extra steps
# count as steps of their own (in the windows of the se's lag term and of the
# innovations flag) and their time is tracking time; tr$extra counts them.
rts_tracker_update <- function(tr, params) {
  tr <- rts_tracker_step(tr, params)
  n <- 0L
  while (n < tr$ctl$extra_steps && is.finite(tr$innov / tr$se_step) &&
         abs(tr$innov / tr$se_step) > rts_track_gain_z) {
    tr <- rts_tracker_step(tr, params, predict = FALSE)
    n <- n + 1L
  }
  tr$extra <- tr$extra + n
  tr
}

# The thresholds of the tracking flags: an epoch whose tracking steps visited
# some temperature less than rts_track_visit_min times as often as the prior
# asks (rts()'s visit-deficit threshold), or whose steps' lag z averaged more
# than rts_track_lag_max in size (the tracked value trails the steps' own
# estimates by more than noise allows).
rts_track_visit_min <- 0.1
rts_track_lag_max <- 3

# The chains' lag. While the chains keep up with the parameters the innovations
# z_t = d_t / se_t are noise of about unit variance; chains that trail a moving
# log Z leave each step's own estimate off by a part of the recent moves, which
# its Eq. 16 se does not see. The tracked se adds a lag term of
# rts_track_lag_scale times the RMS excess of the innovations over their noise,
# sqrt(mean(max(d_t^2 - se_t^2, 0))), over the last rts_track_window steps; and
# an epoch in which the mean of z_t^2 over the last rts_track_window steps
# exceeded rts_track_innov_max (innovations beyond 3 se in RMS: log Z moving
# faster than the step's noise, where that lag term is itself a rough guess) is
# flagged.
rts_track_window <- 20L
rts_track_lag_scale <- 2
rts_track_innov_max <- 9

# The adaptive gain's scale: innovations within rts_track_gain_z se of the
# step get the constant gain alpha (see the head of this file).
rts_track_gain_z <- 3

# The reliability flags of the tracked log Z from the history (visit_ratio,
# lag_z, innov_z2 per epoch), through flag_estimate(); character(0) when none.
rts_track_flags <- function(history) {
  fmt <- function(ep) paste(utils::head(ep, 5L), collapse = ", ")
  ep <- history$epoch[!is.na(history$visit_ratio) & history$visit_ratio < rts_track_visit_min]
  f <- character(0)
  if (length(ep))
    f <- c(f, sprintf(paste0("tracking visit deficit: min_k c_hat_k / r_k < %g at %d epoch(s) ",
                             "(first: %s)"), rts_track_visit_min, length(ep), fmt(ep)))
  ep <- history$epoch[!is.na(history$lag_z) & abs(history$lag_z) > rts_track_lag_max]
  if (length(ep))
    f <- c(f, sprintf(paste0("tracking lag: |mean lag z| > %g at %d epoch(s) (first: %s): ",
                             "the ladder trails log Z"), rts_track_lag_max, length(ep), fmt(ep)))
  iz <- history$innov_z2
  ep <- if (!is.null(iz)) history$epoch[!is.na(iz) & iz > rts_track_innov_max]
  if (length(ep))
    f <- c(f, sprintf(paste0("tracking innovations: mean (d_t / se_t)^2 over %d steps > %g at %d ",
                             "epoch(s) (first: %s): log Z moves faster than the chains' noise, ",
                             "the chains may trail it"), rts_track_window, rts_track_innov_max,
                      length(ep), fmt(ep)))
  if (!length(f)) return(f)
  flag_estimate(character(0), f, sprintf(paste0(
    "rbm_train(): the log Z tracked by RTS may be unreliable: %s. The tracked values of those ",
    "epochs can be off by more than their se; see ?rbm_train (`track`)."),
    paste(f, collapse = "; ")))
}
