# Tracking log Z during RBM training with RTS (Carlson et al. 2016, Section
# 4.4): tempered chains persist across epochs; after every epoch they run a few
# sweeps under the current parameters and the ladder log Z_hat_k moves a
# fraction alpha of the way to its RTS update (Eq. 12; alpha = 1 by default
# since the update is per epoch, not per gradient step as in the paper),
#   Z^(t+1) = Z^(t) ((r_1 / r_k) (c_k / c_1))^alpha.

rts_track_defaults <- list(K = 100L, n_chains = 100L, sweeps = 200L, alpha = 1,
                           init_iter = 10L, init_sweeps = 50L, prior = "exp2",
                           max_examples = 2000L)

rts_track_control <- function(track) {
  if (is.list(track) && "chains" %in% names(track)) {   # a deprecated alias of n_chains
    warning("`track$chains` is deprecated; use `track$n_chains`.", call. = FALSE)
    track$n_chains <- track$chains
    track$chains <- NULL
  }
  if (!is.list(track) || (length(track) && is.null(names(track))) ||
      !all(names(track) %in% names(rts_track_defaults)))
    stop_no_call(sprintf("`track` must be a named list with elements among %s.",
                         paste(names(rts_track_defaults), collapse = ", ")))
  ctl <- utils::modifyList(rts_track_defaults, track)
  ctl$K <- check_count(ctl$K, "track$K", min = 2L)
  ctl$chains <- check_count(ctl$n_chains, "track$n_chains")
  ctl$sweeps <- check_count(ctl$sweeps, "track$sweeps")
  ctl$init_iter <- check_count(ctl$init_iter, "track$init_iter", min = 0L)
  ctl$init_sweeps <- check_count(ctl$init_sweeps, "track$init_sweeps")
  ctl$max_examples <- check_count(ctl$max_examples, "track$max_examples")
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
       log_z1 = log_z1, ctl = ctl,
       step = 1 / (K - 1))
}

# One tracking step under the current parameters; returns the updated tracker.
rts_tracker_step <- function(tr, params) {
  mlist <- c(params[c("W", "a", "b")], list(a0 = tr$a0))
  control <- list(final = TRUE, threads = 1L, sweeps = as.integer(tr$ctl$sweeps), thin = 0L,
                  offset = 0L, step = tr$step, moments = FALSE, lrz = tr$log_r - tr$zeta)
  res <- rts_rbm_chunk(mlist, tr$betas, tr$state, control)
  s <- rowSums(res$acc[, "sum_q", , drop = FALSE])
  full <- rts_update_ladder(tr$zeta, s / sum(s), tr$log_r)
  tr$zeta <- tr$zeta + tr$ctl$alpha * (full - tr$zeta)
  tr$state <- list(X = res$X, k = res$k, streams = res$streams)
  tr
}

rts_tracker_log_z <- function(tr) tr$log_z1 + tr$zeta[length(tr$zeta)]

# Mean log-likelihood of (at most max_examples rows of) data under params.
rts_track_ll <- function(params, data, log_z, max_examples) {
  if (is.null(data)) return(NA_real_)
  if (nrow(data) > max_examples) data <- data[seq_len(max_examples), , drop = FALSE]
  m <- new_rbm(params$W, params$a, params$b)
  mean(-free_energy(m, data)) - log_z
}
