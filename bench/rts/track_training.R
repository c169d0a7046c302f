# Tracking log Z while an RBM trains (Carlson et al. 2016, Section 4.4, Figure 5):
# rbm_train(track_log_z = TRUE), a tracking step after every parameter update
# (the default: K = 100, 100 chains, 5 sweeps, alpha = 0.2 with the adaptive
# gain alpha_t = max(alpha, 1 - (3 se_t / d_t)^2), up to 3 extra steps after an
# innovation beyond 3 se, prior exp(2 beta)) against the
# paper's constant alpha = 0.2 (track$gain = "fixed"), alpha = 1, track$predict,
# and one step per epoch (track$every = "epoch": 200 sweeps, alpha = 1).
#  A. 784 x 20 PCD on 8,000 digits with the default recipe (30 epochs, 2,400
#     updates): tracked log Z against the exact log Z (enumeration) at every
#     epoch (track$check_every = 1). All settings start from the same seed and
#     draw the same tracker start, so they train the same model (checked).
#  B. 784 x 500 PCD, a short run (2,000 digits, 5 epochs, 100 updates): tracked
#     log Z against AIS (1,000 linear steps, 100 chains) at every epoch, and
#     at the end against AIS with the paper's 10,000 steps.
# The cost: track_time / (time - track_time), tracking against training alone
# (the tracker's initial iterations not included; they run once).
# Run: OPENBLAS_NUM_THREADS=1 nohup nice -n 10 Rscript bench/rts/track_training.R > bench/rts/track_training.out 2>&1 &
# (about 30 minutes wall, 7.5 CPU-minutes, at load 7 on 2 cores; TRACK_BENCH_PART=A or B runs one part).
# TRACK_BENCH_QUICK=1: a smoke test.
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "rts", "track_fits.R"))
options(width = 160)
cat("Command: Rscript bench/rts/track_training.R (TRACK_BENCH_PART=", Sys.getenv("TRACK_BENCH_PART", "AB"),
    if (nzchar(Sys.getenv("TRACK_BENCH_QUICK"))) ", TRACK_BENCH_QUICK=1", ")\n",
    "Date: ", format(Sys.time(), tz = "UTC", usetz = TRUE), "; commit: ",
    tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"),
    "; OPENBLAS_NUM_THREADS=", Sys.getenv("OPENBLAS_NUM_THREADS"), "\n", sep = "")
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
quick <- nzchar(Sys.getenv("TRACK_BENCH_QUICK"))
part <- Sys.getenv("TRACK_BENCH_PART", "AB")

cat("The paper (Figure 5): 500 hidden units on the 180-dimensional dna data, pretrained by CD-1,\n",
    "then 8,000 RMSspectral updates; K = 100, 2,000 chains x 25 sweeps between updates, alpha = 0.2,\n",
    "r_k ~ exp(2 beta_k); its tempered chains also give the gradient, so tracking costs only the\n",
    "c_hat_k. Train / validation log-likelihood by RTS and by AIS (100 chains, 10^4 temperatures)\n",
    "agree by eye at every iteration (no table of numbers is given).\n",
    "Ours: separate tracker chains; the training itself is PCD-1 with 100 chains.\n\n", sep = "")

summ <- function(name, m, exact) {
  h <- m$history
  err <- h$log_z - exact
  data.frame(setting = name, epochs = nrow(h), steps = nrow(m$log_z_track),
             bias = mean(err), rmse = sqrt(mean(err^2)), max_abs = max(abs(err)),
             last_err = err[length(err)], min_visit = min(h$visit_ratio),
             cost = sum(h$track_time) / sum(h$time - h$track_time))
}

## A. 20 hidden units, exact log Z every epoch
if (grepl("A", part)) {
cat("== A. 784 x 20 PCD, 8,000 digits, default recipe; error of the tracked log Z at each epoch's end ==\n")
x <- mnist$x[1:if (quick) 1000 else 8000, ]
valid <- mnist$x[9001:10000, ]
ep <- if (quick) 3L else 30L
settings <- list(
  "update: 100 chains x 5 sweeps, alpha 0.2, adaptive gain, extra steps (default)" = list(),
  "update: 100 chains x 5 sweeps, alpha 0.2 fixed (the paper's)" = list(gain = "fixed", extra_steps = 0L),
  "update: 100 chains x 5 sweeps, alpha 1" = list(alpha = 1, extra_steps = 0L),
  "update: as the default, with track$predict" = list(predict = TRUE),
  "epoch: 100 chains x 200 sweeps, alpha 1 (per-epoch option)" = list(every = "epoch"))
fits <- track_fits(settings, x, valid, ep, width = 78L, each = function(i, fit) {
  if (i == 1L) exact <<- fit$history$check_log_z
  print(format(summ(names(settings)[i], fit, exact), digits = 3), row.names = FALSE)
})
same <- vapply(fits, function(m) isTRUE(all.equal(m$W, fits[[1]]$W)), TRUE)
cat(sprintf("  same trained model as the default setting: %s\n",
            paste(sprintf("%s", same), collapse = ", ")))
exacts <- lapply(fits, function(m) if (is.null(m$history$check_log_z)) exact else m$history$check_log_z)
tabA <- do.call(rbind, Map(summ, names(settings), fits, exacts))
rownames(tabA) <- NULL
print(format(tabA, digits = 3), row.names = FALSE)
cat("  (bias, rmse, max_abs, last_err: tracked - exact log Z in nats over the epochs' ends;\n",
    "   min_visit: smallest min_k c_hat_k / r_k of an epoch; cost: tracking time / training time)\n", sep = "")
h <- fits[[1]]$history
cat("\n  per epoch, default setting (log Z and log-likelihoods in nats):\n")
print(format(data.frame(epoch = h$epoch, exact = exact, tracked = h$log_z,
                        err = h$log_z - exact, se = h$log_z_se,
                        err_fixed = fits[[2]]$history$log_z - exact,
                        err_alpha1 = fits[[3]]$history$log_z - exact,
                        err_predict = fits[[4]]$history$log_z - exact,
                        err_epoch_mode = fits[[5]]$history$log_z - exact,
                        train_ll = h$train_ll, valid_ll = h$valid_ll,
                        valid_ll_exact = h$valid_ll + h$log_z - exact), digits = 4),
      row.names = FALSE)
# within the first epoch the exact value is known only at its end: the
# per-update trace's spread in the last epoch, where the parameters barely move
for (i in 1:2) {
  lt <- fits[[i]]$log_z_track
  last <- lt$log_z[lt$epoch == ep]
  cat(sprintf("\n  per-update trace in the last epoch, %s: sd %.3f nats over %d updates (exact at its end %.3f)",
              names(settings)[i], stats::sd(last), length(last), exact[ep]))
}
cat(sprintf("\n  epochs flagged for tracking lag: default %d, fixed %d; for visit deficit: default %d, fixed %d\n",
            sum(abs(fits[[1]]$history$lag_z) > 3), sum(abs(fits[[2]]$history$lag_z) > 3),
            sum(fits[[1]]$history$visit_ratio < 0.1), sum(fits[[2]]$history$visit_ratio < 0.1)))
rm5 <- function(i, e) sqrt(mean((fits[[i]]$history$log_z - exact)[e]^2))
cat(sprintf("  RMSE over epochs 1-5 / 6-15 / 16-30: default %.2f / %.2f / %.2f, fixed %.2f / %.2f / %.2f nats\n",
            rm5(1, 1:5), rm5(1, 6:15), rm5(1, 16:ep), rm5(2, 1:5), rm5(2, 6:15), rm5(2, 16:ep)))

}
## B. 500 hidden units, AIS at checkpoints
if (grepl("B", part)) {
cat("\n== B. 784 x 500 PCD, 2,000 digits, 5 epochs (100 updates); tracked log Z against AIS ==\n")
x5 <- mnist$x[1:if (quick) 400 else 2000, ]
ep5 <- if (quick) 2L else 5L
set.seed(31)
t0 <- proc.time()[["elapsed"]]
m5 <- suppressWarnings(rbm_train(x5, n_hidden = 500, method = "pcd", epochs = ep5,
                                 track_log_z = TRUE, track = list(check_every = 1L),
                                 progress = FALSE))
cat(sprintf("  trained and tracked in %.1f s (AIS checks included)\n", proc.time()[["elapsed"]] - t0))
h5 <- m5$history
print(format(data.frame(epoch = h5$epoch, tracked = h5$log_z, ais_1000 = h5$check_log_z,
                        ais_se = h5$check_log_z_se, ais_method = h5$check_method,
                        diff = h5$log_z - h5$check_log_z, visit = h5$visit_ratio,
                        train_s = h5$time - h5$track_time, track_s = h5$track_time), digits = 4),
      row.names = FALSE)
cat(sprintf("  tracking cost: %.2f x the training time (%d updates)\n",
            sum(h5$track_time) / sum(h5$time - h5$track_time), nrow(m5$log_z_track)))
set.seed(32)
t0 <- proc.time()[["elapsed"]]
a4 <- suppressWarnings(ais(m5, schedule = schedule_linear(if (quick) 1000 else 10000),
                           n_chains = 100, progress = FALSE))
ta <- proc.time()[["elapsed"]] - t0
cat(sprintf("  final model: tracked %.3f, AIS 10^4 steps %.3f (se %.3f, %s): diff %+.3f nats\n",
            h5$log_z[ep5], a4$log_z, a4$se, if (isTRUE(a4$reliable)) "reliable" else "flagged",
            h5$log_z[ep5] - a4$log_z))
cat(sprintf("  that AIS run took %.1f s = %.1f x the whole tracking time of the run\n",
            ta, ta / sum(h5$track_time)))
set.seed(31)
m5b <- suppressWarnings(rbm_train(x5, n_hidden = 500, method = "pcd", epochs = ep5,
                                  track_log_z = TRUE, track = list(alpha = 1), progress = FALSE))
cat(sprintf("  same run with alpha = 1 per update (same model: %s): tracked - AIS per epoch %s nats\n",
            isTRUE(all.equal(m5b$W, m5$W)),
            paste(sprintf("%+.2f", m5b$history$log_z - h5$check_log_z), collapse = ", ")))
set.seed(31)
m5f <- suppressWarnings(rbm_train(x5, n_hidden = 500, method = "pcd", epochs = ep5,
                                  track_log_z = TRUE, track = list(gain = "fixed"), progress = FALSE))
cat(sprintf("  same run with the paper's fixed alpha = 0.2 (same model: %s): tracked - AIS per epoch %s nats; cost %.2f x training\n",
            isTRUE(all.equal(m5f$W, m5$W)),
            paste(sprintf("%+.2f", m5f$history$log_z - h5$check_log_z), collapse = ", "),
            sum(m5f$history$track_time) / sum(m5f$history$time - m5f$history$track_time)))
set.seed(31)
m5c <- suppressWarnings(rbm_train(x5, n_hidden = 500, method = "pcd", epochs = ep5,
                                  track_log_z = TRUE, track = list(predict = TRUE), progress = FALSE))
cat(sprintf("  same run with track$predict (same model: %s): tracked - AIS per epoch %s nats; cost %.2f x training\n",
            isTRUE(all.equal(m5c$W, m5$W)),
            paste(sprintf("%+.2f", m5c$history$log_z - h5$check_log_z), collapse = ", "),
            sum(m5c$history$track_time) / sum(m5c$history$time - m5c$history$track_time)))
}
