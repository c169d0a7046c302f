# Tracking log Z while an RBM trains (Carlson et al. 2016, Section 4.4) with extra tracking steps
# where log Z moves fast: rbm_train(track_log_z = TRUE) on the default recipe of
# bench/rts/track_training.R part A (784 x 20 PCD, 8,000 digits, 30 epochs, 2,400 updates),
# tracked log Z against the exact log Z (enumeration) at every epoch's end, for
#   extra 0   the tracker without extra steps (track$extra_steps = 0; adaptive gain, 5 sweeps)
#   extra 3   track$extra_steps = 3: after a step whose innovation exceeds 3 se, up to 3 more steps
#             under the same parameters
#   pr+ex 3   track$predict = TRUE and track$extra_steps = 3
# All settings start from the same seed and train the same model (checked).
# The cost: track_time / (time - track_time), over all epochs and over epochs 1-5 / 6-15 / 16-30.
# Run: OPENBLAS_NUM_THREADS=1 nohup nice -n 10 Rscript bench/rts/track_extra_steps.R > bench/rts/track_extra_steps.out 2>&1 &
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "rts", "track_fits.R"))
options(width = 160)
cat("Command: Rscript bench/rts/track_extra_steps.R\n",
    "Date: ", format(Sys.time(), tz = "UTC", usetz = TRUE), "; commit: ",
    tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"),
    "; OPENBLAS_NUM_THREADS=", Sys.getenv("OPENBLAS_NUM_THREADS"), "\n", sep = "")
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
x <- mnist$x[1:8000, ]
valid <- mnist$x[9001:10000, ]
ep <- 30L
settings <- list("extra 0" = list(extra_steps = 0), "extra 3" = list(extra_steps = 3),
                 "pr+ex 3" = list(predict = TRUE, extra_steps = 3))
fits <- track_fits(settings, x, valid, ep, width = 8L, quiet = TRUE)
exact <- fits[[1]]$history$check_log_z
cat(sprintf("  same trained model as extra 0: %s\n",
            paste(vapply(fits, function(m) isTRUE(all.equal(m$W, fits[[1]]$W)), TRUE), collapse = ", ")))
rng <- list(all = seq_len(ep), e1_5 = 1:5, e6_15 = 6:15, e16_30 = 16:ep)
tab <- do.call(rbind, lapply(seq_along(fits), function(i) {
  h <- fits[[i]]$history
  err <- h$log_z - exact
  cost <- function(e) sum(h$track_time[e]) / sum((h$time - h$track_time)[e])
  data.frame(setting = names(settings)[i],
             rmse = sqrt(mean(err^2)), rmse_1_5 = sqrt(mean(err[1:5]^2)),
             rmse_6_15 = sqrt(mean(err[6:15]^2)), rmse_16_30 = sqrt(mean(err[16:ep]^2)),
             worst = max(abs(err)), cover2 = mean(abs(err) <= 2 * h$log_z_se),
             cost = cost(rng$all), cost_1_5 = cost(rng$e1_5), cost_6_15 = cost(rng$e6_15),
             cost_16_30 = cost(rng$e16_30),
             flagged_epochs = sum(h$innov_z2 > 9 | abs(h$lag_z) > 3 | h$visit_ratio < 0.1))
}))
print(format(tab, digits = 3), row.names = FALSE)
cat("  (rmse*: tracked - exact log Z at the epochs' ends, nats; worst: largest |error|; cover2: fraction of\n",
    "   epochs' ends with |error| <= 2 se; cost*: tracking time / training time over those epochs;\n",
    "   flagged_epochs: epochs with a tracking flag)\n", sep = "")
cat("\n  error per epoch (nats):\n")
print(format(data.frame(epoch = seq_len(ep), exact = exact,
                        sapply(setNames(fits, names(settings)), function(m) m$history$log_z - exact),
                        check.names = FALSE), digits = 3), row.names = FALSE)
for (i in seq_along(fits)) {
  lt <- fits[[i]]$log_z_track
  cat(sprintf("  per-update trace in the last epoch, %s: sd %.3f nats\n", names(settings)[i],
              stats::sd(lt$log_z[lt$epoch == ep])))
}
