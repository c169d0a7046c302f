# Tracking log Z per update against the exact value after EVERY update (not only at the epochs'
# ends as in bench/rts/track_training.R): a 784 x 12 PCD RBM (exact log Z by enumerating 2^12
# hidden states, cheap enough to run after each of the 400 updates), the default recipe's first
# 5 epochs (8,000 digits, batch 100, rate 0.05 decaying over 30 epochs, momentum 0.5), four
# trackers on the same training run: a02 = the default (100 chains x 5 sweeps, alpha 0.2),
# a1 = alpha 1, s25 = 25 sweeps, c500 = the default with track$predict = TRUE (the column name
# is left from an earlier 500-chain variant). Per epoch: the range of the exact log Z, the sd
# of its change per update, and each tracker's RMSE over the epoch's updates (nats).
# The training loop mirrors rts_track_epoch() with the internal functions.
# Run: nohup nice Rscript bench/rts/track_per_update_exact.R > bench/rts/track_per_update_exact.out 2>&1 &
# (about 5 minutes on an idle machine).
library(logz)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
set.seed(7)
x <- mnist$x[1:8000, ]; nv <- 784; nh <- 12
data_t <- t(x)
params <- list(W = matrix(rnorm(nv * nh, sd = 0.01), nv, nh), a = logz:::base_rate_bias(x), b = numeric(nh))
state <- list(dW = matrix(0, nv, nh), da = numeric(nv), db = numeric(nh), P = NULL)
a0 <- logz:::base_rate_bias(x)
mk <- function(tr) logz:::rts_tracker_start(params, a0, logz:::rts_track_control(tr))
trs <- list(a02 = mk(list()), a1 = mk(list(alpha = 1)), s25 = mk(list(sweeps = 25)), c500 = mk(list(predict = TRUE)))
B <- 100; nb <- 80; epochs <- 5
lr_step <- 0.05 / (30 * nb)
out <- list()
lr <- 0.05
for (ep in 1:epochs) {
  perm <- sample.int(8000) - 1L
  if (is.null(state$P)) state$P <- data_t[, sample.int(8000, 100)]
  for (i in 1:nb) {
    ctl <- list(perm = 0:(B-1), pcd = 1L, k = 1L, batch_size = B, n_chains = 100L, learning_rate = lr, lr_step = lr_step, momentum = 0.5, weight_decay = 2e-4)
    lr <- lr - lr_step
    res <- logz:::rbm_train_epoch(data_t[, perm[(i-1)*B + 1:B] + 1L, drop = FALSE], params, state, ctl)
    params <- res[c("W","a","b")]; state <- res[c("dW","da","db","P")]
    for (n in names(trs)) trs[[n]] <- logz:::rts_tracker_step(trs[[n]], params)
    ex <- exact_log_z(rbm(params$W, params$a, params$b), progress = FALSE)$log_z
    out[[length(out)+1]] <- c(ep = ep, u = i, exact = ex, sapply(trs, logz:::rts_tracker_log_z) - ex)
  }
  d <- as.data.frame(do.call(rbind, out)); d <- d[d$ep == ep, ]
  cat(sprintf("epoch %d: exact range %.1f..%.1f, sd of per-update change %.2f; RMSE a02 %.2f a1 %.2f s25 %.2f c500 %.2f\n", ep, min(d$exact), max(d$exact), sd(diff(d$exact)),
    sqrt(mean(d$a02^2)), sqrt(mean(d$a1^2)), sqrt(mean(d$s25^2)), sqrt(mean(d$c500^2))))
}
