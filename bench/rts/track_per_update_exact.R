# Tracking log Z per update against the exact value after EVERY update (not only at the epochs'
# ends as in bench/rts/track_training.R): a 784 x 12 PCD RBM (exact log Z by enumerating 2^12
# hidden states, cheap enough to run after each update), the default recipe (8,000 digits,
# batch 100, rate 0.05 decaying over 30 epochs, momentum 0.5), the first TRACK_EPOCHS epochs
# (default 8), several trackers on the same training run (each from the same start; all
# 100 chains x 5 sweeps per step, K = 100):
# Every tracker but extra and pr_extra has track$extra_steps = 0 (no extra steps).
#   fixed    track$gain = "fixed": alpha 0.2 at every step (the paper's constant step)
#   decay    alpha_t = max(0.2, 1 / (t + 1)), t = 0, 1, ... the tracking step (stochastic
#            approximation; emulated here with gain "fixed" and alpha set before each step)
#   adaptive the default gain, track$gain = "adaptive": alpha_t = max(0.2, 1 - (3 se_t / d_t)^2), d_t the
#            step's innovation, se_t its Eq. 16 se
#   sweeps   gain "fixed", and while the step's lag z exceeds 3, up to 4 more steps (5 sweeps
#            each) under the same parameters
#   alpha1   alpha 1 at every step
#   predict  gain "fixed" with track$predict = TRUE (the change of the ladder estimated at 11 rungs
#            and interpolated in beta)
#   adapt_pr the default gain with track$predict = TRUE
#   extra    the default (adaptive gain, track$extra_steps = 3): after a step whose innovation exceeds 3 se,
#            up to 3 more steps (5 sweeps each) under the same parameters, until it does not
#   pr_extra the default gain with track$predict = TRUE and track$extra_steps = 3
# Per epoch: the range of the exact log Z, the sd of its change per update, and each tracker's
# RMSE over the epoch's updates (nats); then each tracker's time against the training time and
# against the adaptive tracker's (no extra steps), and the extra steps per update by epoch.
# The training loop mirrors rts_track_epoch() with the internal functions.
# Run: OPENBLAS_NUM_THREADS=1 nohup nice -n 10 Rscript bench/rts/track_per_update_exact.R > bench/rts/track_per_update_exact.out 2>&1 &
library(logz)
cat("Command: Rscript bench/rts/track_per_update_exact.R (TRACK_EPOCHS=", Sys.getenv("TRACK_EPOCHS", "8"), ")\n",
    "Date: ", format(Sys.time(), tz = "UTC", usetz = TRUE), "; commit: ",
    tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"), "\n", sep = "")
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
epochs <- as.integer(Sys.getenv("TRACK_EPOCHS", "8"))
set.seed(7)
x <- mnist$x[1:8000, ]; nv <- 784; nh <- 12
data_t <- t(x)
params <- list(W = matrix(rnorm(nv * nh, sd = 0.01), nv, nh), a = logz:::base_rate_bias(x), b = numeric(nh))
state <- list(dW = matrix(0, nv, nh), da = numeric(nv), db = numeric(nh), P = NULL)
a0 <- logz:::base_rate_bias(x)
mk <- function(tr) {
  set.seed(8)   # every tracker from the same start
  logz:::rts_tracker_start(params, a0, logz:::rts_track_control(tr))
}
fixed <- list(gain = "fixed", extra_steps = 0)
no_extra <- list(extra_steps = 0)
trs <- list(fixed = mk(fixed), decay = mk(fixed), adaptive = mk(no_extra), sweeps = mk(fixed),
            alpha1 = mk(c(no_extra, alpha = 1)), predict = mk(c(fixed, predict = TRUE)),
            adapt_pr = mk(c(no_extra, predict = TRUE)), extra = mk(list(extra_steps = 3)),
            pr_extra = mk(list(predict = TRUE, extra_steps = 3)))
n_step <- 0L
step <- function(n, tr, params) {
  if (n == "decay") tr$ctl$alpha <- max(0.2, 1 / (n_step + 1))
  tr <- logz:::rts_tracker_update(tr, params)
  if (n == "sweeps")
    for (j in 1:4) if (abs(tr$lag_z) > 3) tr <- logz:::rts_tracker_step(tr, params)
  tr
}
cover <- list()
set.seed(9)
B <- 100; nb <- 80
lr_step <- 0.05 / (30 * nb)
out <- list()
lr <- 0.05
train_time <- 0
rmse <- function(e) sqrt(mean(e^2))
for (ep in 1:epochs) {
  perm <- sample.int(8000) - 1L
  if (is.null(state$P)) state$P <- data_t[, sample.int(8000, 100)]
  for (i in 1:nb) {
    ctl <- list(perm = 0:(B-1), pcd = 1L, k = 1L, batch_size = B, n_chains = 100L, learning_rate = lr, lr_step = lr_step, momentum = 0.5, weight_decay = 2e-4)
    lr <- lr - lr_step
    t0 <- proc.time()[["elapsed"]]
    res <- logz:::rbm_train_epoch(data_t[, perm[(i-1)*B + 1:B] + 1L, drop = FALSE], params, state, ctl)
    train_time <- train_time + proc.time()[["elapsed"]] - t0
    params <- res[c("W","a","b")]; state <- res[c("dW","da","db","P")]
    for (n in names(trs)) trs[[n]] <- step(n, trs[[n]], params)
    n_step <- n_step + 1L
    ex <- exact_log_z(rbm(params$W, params$a, params$b), progress = FALSE)$log_z
    n_extra <- sapply(trs[c("extra", "pr_extra")], function(t) t$extra)
    out[[length(out)+1]] <- c(ep = ep, u = i, exact = ex, sapply(trs, logz:::rts_tracker_log_z) - ex,
                              n_extra = n_extra,
                              lag = sapply(trs, function(t) t$lag_z), se = sapply(trs, function(t) t$se))
  }
  d <- as.data.frame(do.call(rbind, out)); d <- d[d$ep == ep, ]
  cat(sprintf("epoch %d: exact %.1f..%.1f, sd of change/update %.2f; RMSE %s\n", ep, min(d$exact), max(d$exact),
              sd(diff(d$exact)), paste(sprintf("%s %.2f", names(trs), sapply(names(trs), function(n) rmse(d[[n]]))), collapse = " ")))
}
d <- as.data.frame(do.call(rbind, out))
cat("\nRMSE (nats) over the updates of epochs 1-2, 3-", epochs, ", the first 10 updates, and the last epoch:\n", sep = "")
tab <- data.frame(tracker = names(trs),
                  ep1_2 = sapply(names(trs), function(n) rmse(d[[n]][d$ep <= 2])),
                  ep3_end = sapply(names(trs), function(n) rmse(d[[n]][d$ep >= 3])),
                  first10 = sapply(names(trs), function(n) rmse(d[[n]][1:10])),
                  last_ep = sapply(names(trs), function(n) rmse(d[[n]][d$ep == epochs])),
                  lag_epochs = sapply(names(trs), function(n) sum(tapply(d[[paste0("lag.", n)]], d$ep, function(z) abs(mean(z)) > 3))),
                  cover2 = sapply(names(trs), function(n) mean(abs(d[[n]]) <= 2 * d[[paste0("se.", n)]])),
                  cover2_ep3 = sapply(names(trs), function(n) mean((abs(d[[n]]) <= 2 * d[[paste0("se.", n)]])[d$ep >= 3])),
                  cost = sapply(trs, function(t) t$time) / train_time,
                  cost_vs_adaptive = sapply(trs, function(t) t$time) / trs$adaptive$time)
print(format(tab, digits = 3), row.names = FALSE)
cat("(lag_epochs: epochs whose mean lag z exceeds 3 in size, the tracking-lag flag; cover2, cover2_ep3: fraction of\n",
    " the updates (all; epochs 3 on) whose |tracked - exact| <= 2 se; cost: tracking time / training time;\n",
    " cost_vs_adaptive: tracking time / the adaptive tracker's, without extra steps)\n")
cat("\nExtra steps per update, by epoch:\n")
for (n in c("extra", "pr_extra"))
  cat(sprintf("%-8s %s\n", n, paste(sprintf("%.2f", tapply(diff(c(0, d[[paste0("n_extra.", n)]])), d$ep, mean)),
                                     collapse = " ")))
