# The held-out check of rbm_train(): the mean train and validation
# log-likelihood at chosen epochs, with log Z exact (enumeration of the hidden
# layer, exact_log_z()) for n_hidden <= rbm_eval_exact_max, else an AIS
# estimate (linear schedule of rbm_eval_ais_steps steps, rbm_eval_ais_chains
# chains from the data's base-rate model), so that over-sharpening -- train
# log-likelihood rising while the held-out one falls -- shows in `history`.

rbm_eval_exact_max <- 20L
rbm_eval_ais_steps <- 1000L
rbm_eval_ais_chains <- 100L
rbm_eval_max_examples <- 2000L

# log Z of params for the check: list(log_z, how, se).
rbm_eval_log_z <- function(params, base_rate) {
  m <- new_rbm(params$W, params$a, params$b, base_rate = base_rate)
  if (m$n_hidden <= rbm_eval_exact_max)
    return(list(log_z = exact_log_z(m, progress = FALSE), how = "exact", se = 0))
  # a rough check by design: its reliability flags are kept in the history
  # (log_z_method "ais (flagged)") rather than warned about at every check
  fit <- suppressWarnings(ais(m, schedule = schedule_linear(rbm_eval_ais_steps),
                              n_chains = rbm_eval_ais_chains, progress = FALSE))
  list(log_z = fit$log_z, how = if (isTRUE(fit$reliable)) "ais" else "ais (flagged)",
       se = fit$se)
}

# Fill history row `ep` with log Z and the log-likelihoods (NA when not due).
rbm_eval_epoch <- function(history, ep, params, data, validation, due) {
  if (is.null(history$log_z)) {
    history$log_z <- NA_real_
    history$log_z_se <- NA_real_
    history$log_z_method <- NA_character_
    history$train_ll <- NA_real_
    history$valid_ll <- NA_real_
  }
  if (!due) {
    history[ep, c("log_z", "log_z_se", "train_ll", "valid_ll")] <- NA_real_
    history$log_z_method[ep] <- NA_character_
    return(history)
  }
  lz <- rbm_eval_log_z(params, base_rate_bias(data))
  history$log_z[ep] <- lz$log_z
  history$log_z_se[ep] <- lz$se
  history$log_z_method[ep] <- lz$how
  history$train_ll[ep] <- rts_track_ll(params, data, lz$log_z, rbm_eval_max_examples)
  history$valid_ll[ep] <- rts_track_ll(params, validation, lz$log_z, rbm_eval_max_examples)
  history
}

# Warn when the held-out log-likelihood at the last check is more than
# max(1 nat, 3 se of log Z) below its best while the train log-likelihood rose
# over the same epochs: the signature of over-sharpening (or over-fitting).
rbm_eval_warn <- function(history) {
  h <- history[!is.na(history$valid_ll), , drop = FALSE]
  if (nrow(h) < 2L) return(invisible(FALSE))
  best <- which.max(h$valid_ll)
  last <- nrow(h)
  tol <- max(1, 3 * max(h$log_z_se[c(best, last)]))
  if (h$valid_ll[last] < h$valid_ll[best] - tol && h$train_ll[last] > h$train_ll[best]) {
    warning(sprintf(paste0(
      "rbm_train(): the held-out log-likelihood fell from %.2f (epoch %d) to %.2f (epoch %d) ",
      "while the train log-likelihood rose from %.2f to %.2f (threshold: %.2g nats). The model ",
      "is over-sharpening or over-fitting: lower `learning_rate`, use lr_schedule = \"linear\", ",
      "more `n_chains`, or stop at epoch %d (see `history`)."),
      h$valid_ll[best], h$epoch[best], h$valid_ll[last], h$epoch[last], h$train_ll[best],
      h$train_ll[last], tol, h$epoch[best]), call. = FALSE)
    return(invisible(TRUE))
  }
  invisible(FALSE)
}

# Mean log-likelihood of (at most max_examples rows of) data under params.
rts_track_ll <- function(params, data, log_z, max_examples) {
  if (is.null(data)) return(NA_real_)
  if (nrow(data) > max_examples) data <- data[seq_len(max_examples), , drop = FALSE]
  m <- new_rbm(params$W, params$a, params$b)
  mean(-free_energy(m, data)) - log_z
}
