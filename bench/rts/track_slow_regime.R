# The existing PCD tracker (rbm_train(track_log_z = TRUE)'s RTS tracker, Section 4.4 of
# Carlson et al. 2016) in a slow, paper-like regime: a 784 x 12 RBM (exact log Z by enumerating
# 2^12 hidden states after every update) on 8,000 MNIST digits, CD-1 pretraining (TRACK_PRE
# epochs, default 5, rate 0.05 decaying linearly, momentum 0.5), then PCD-1 at a small constant
# rate (TRACK_LR, default 0.005) for TRACK_EPOCHS epochs (default 4; 80 updates of 100 rows
# each), tracked from the pretrained parameters by two trackers on the same training run (same
# start; 100 chains x 5 sweeps per update, K = 100, prior exp(2 beta)):
#   default  the package default (adaptive gain, up to 3 extra steps while the innovation
#            exceeds 3 se)
#   paper    the paper's constant partial update alpha = 0.2, no extra steps
# Per epoch: the range of the exact log Z, its change per update, each tracker's RMSE; then
# RMSE, 2-se coverage and tracking time over training time. The loop mirrors
# rts_track_epoch() with the internal functions (as bench/rts/track_per_update_exact.R).
# Run: OMP_WAIT_POLICY=PASSIVE nohup Rscript bench/rts/track_slow_regime.R > bench/rts/track_slow_regime.out 2>&1 &
suppressPackageStartupMessages(library(logz))
pre <- as.integer(Sys.getenv("TRACK_PRE", "5"))
epochs <- as.integer(Sys.getenv("TRACK_EPOCHS", "4"))
lr_slow <- as.numeric(Sys.getenv("TRACK_LR", "0.005"))
cat(sprintf("Command: Rscript bench/rts/track_slow_regime.R (TRACK_PRE=%d TRACK_EPOCHS=%d TRACK_LR=%g)\n",
            pre, epochs, lr_slow))
cat("Date:", format(Sys.time(), tz = "UTC", usetz = TRUE), "; commit:",
    tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"),
    "; load average:", readLines("/proc/loadavg"), "\n")
cat("R LAPACK:", La_library(), "\n")
set.seed(7)
x <- mnist$x[1:8000, ]
nv <- 784
nh <- 12
data_t <- t(x)
a0 <- logz:::base_rate_bias(x)
params <- list(W = matrix(rnorm(nv * nh, sd = 0.01), nv, nh), a = a0, b = numeric(nh))
state <- list(dW = matrix(0, nv, nh), da = numeric(nv), db = numeric(nh), P = NULL)
B <- 100
nb <- 80
batch <- function(params, state, perm, i, pcd, lr, lr_step) {
  ctl <- list(perm = 0:(B - 1), pcd = pcd, k = 1L, batch_size = B, n_chains = 100L,
              learning_rate = lr, lr_step = lr_step, momentum = 0.5, weight_decay = 2e-4)
  logz:::rbm_train_epoch(data_t[, perm[(i - 1) * B + 1:B] + 1L, drop = FALSE], params, state, ctl)
}
# CD-1 pretraining
lr <- 0.05
lr_step <- 0.05 / (pre * nb)
for (ep in seq_len(pre)) {
  perm <- sample.int(8000) - 1L
  for (i in 1:nb) {
    res <- batch(params, state, perm, i, 0L, lr, lr_step)
    lr <- lr - lr_step
    params <- res[c("W", "a", "b")]
    state <- res[c("dW", "da", "db", "P")]
  }
}
ex0 <- exact_log_z(rbm(params$W, params$a, params$b), progress = FALSE)$log_z
cat(sprintf("after %d epochs of CD-1: exact log Z %.3f\n", pre, ex0))
mk <- function(tr) {
  set.seed(8)
  logz:::rts_tracker_start(params, a0, logz:::rts_track_control(tr))
}
trs <- list(default = mk(list()), paper = mk(list(gain = "fixed", alpha = 0.2, extra_steps = 0)))
state$dW[] <- 0
state$da[] <- 0
state$db[] <- 0
state$P <- NULL
out <- list()
train_time <- 0
rmse <- function(e) sqrt(mean(e^2))
for (ep in seq_len(epochs)) {
  perm <- sample.int(8000) - 1L
  if (is.null(state$P)) state$P <- data_t[, sample.int(8000, 100)]
  for (i in 1:nb) {
    t0 <- proc.time()[["elapsed"]]
    res <- batch(params, state, perm, i, 1L, lr_slow, 0)
    train_time <- train_time + proc.time()[["elapsed"]] - t0
    params <- res[c("W", "a", "b")]
    state <- res[c("dW", "da", "db", "P")]
    for (n in names(trs)) trs[[n]] <- logz:::rts_tracker_update(trs[[n]], params)
    ex <- exact_log_z(rbm(params$W, params$a, params$b), progress = FALSE)$log_z
    out[[length(out) + 1]] <- c(ep = ep, u = i, exact = ex,
                                sapply(trs, logz:::rts_tracker_log_z) - ex,
                                se = sapply(trs, function(t) t$se))
  }
  d <- as.data.frame(do.call(rbind, out))
  d <- d[d$ep == ep, ]
  cat(sprintf("epoch %d: exact %.2f..%.2f, sd of change/update %.3f; RMSE %s\n", ep, min(d$exact),
              max(d$exact), sd(diff(d$exact)),
              paste(sprintf("%s %.3f", names(trs), sapply(names(trs), function(n) rmse(d[[n]]))),
                    collapse = ", ")))
}
d <- as.data.frame(do.call(rbind, out))
tab <- data.frame(tracker = names(trs),
                  rmse = sapply(names(trs), function(n) rmse(d[[n]])),
                  rmse_ep2_end = sapply(names(trs), function(n) rmse(d[[n]][d$ep >= 2])),
                  mean_err = sapply(names(trs), function(n) mean(d[[n]])),
                  max_abs = sapply(names(trs), function(n) max(abs(d[[n]]))),
                  cover2 = sapply(names(trs), function(n) mean(abs(d[[n]]) <= 2 * d[[paste0("se.", n)]])),
                  cost = sapply(trs, function(t) t$time) / train_time)
cat("\nover all tracked updates (nats; cover2: share with |tracked - exact| <= 2 se; cost: tracking\n",
    "time / training time of the same updates, elapsed, loaded machine):\n", sep = "")
print(format(tab, digits = 3), row.names = FALSE)
