# The main job: log partition functions of RBMs trained on the bundled MNIST
# subset, by annealed importance sampling, checked against exact enumeration.
#   make demo                      (from the package sources)
#   demo("mnist", package = "logz")
# Writes ais_traces.png to $LOGZ_DEMO_DIR (default: a temporary directory).
library(logz)
out_dir <- Sys.getenv("LOGZ_DEMO_DIR", tempdir())
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
threads <- min(2L, parallel::detectCores())
cat("R BLAS:", extSoftVersion()[["BLAS"]], "\n")
cat(sprintf("threads: %d\n\n", threads))
t_start <- proc.time()[["elapsed"]]

train <- mnist$x[1:8000, ]
test <- mnist$x[8001:10000, ]
set.seed(2015)

cat("== 20 hidden units: exact log Z vs AIS (the default: 14,500 steps of linear or SM08 shape chosen by a pilot, 100 chains)\n")
small <- list(
  "CD-1" = rbm_train(train, n_hidden = 20, method = "cd", k = 1, progress = FALSE),
  "PCD"  = rbm_train(train, n_hidden = 20, method = "pcd", progress = FALSE))
rows <- list()
fits <- list()
for (nm in names(small)) {
  m <- small[[nm]]
  t0 <- proc.time()[["elapsed"]]
  exact <- exact_log_z(m, threads = threads)
  t_exact <- proc.time()[["elapsed"]] - t0
  fit <- ais(m, n_chains = 100, threads = threads, progress = FALSE)
  fits[[nm]] <- fit
  rows[[nm]] <- data.frame(model = sprintf("%s(20)", nm), exact = exact,
                           exact_s = t_exact, ais = fit$log_z, se = fit$se,
                           error = fit$log_z - exact, ess = fit$ess, ais_s = fit$time,
                           test_ll = log_likelihood(m, test, exact))
}
print(format(do.call(rbind, rows), digits = 5), row.names = FALSE)

cat("\n== 500 hidden units (CD-1): AIS with the default schedule (14,500 steps, linear or SM08 chosen by a pilot, 100 chains)\n")
big <- rbm_train(train, n_hidden = 500, method = "cd", k = 1, epochs = 10, progress = FALSE)
fit_big <- ais(big, n_chains = 100, threads = threads, progress = interactive())
print(fit_big)
ll <- log_likelihood(big, test, fit_big)
cat(sprintf("average test log-likelihood: %.2f nats per digit (3-sd interval [%.2f, %.2f])\n",
            ll, attr(ll, "bounds")[["lower"]], attr(ll, "bounds")[["upper"]]))
cat(sprintf("training reconstruction error: %.2f -> %.2f\n", big$history$reconstruction_error[1],
            big$history$reconstruction_error[nrow(big$history)]))

png_file <- file.path(out_dir, "ais_traces.png")
grDevices::png(png_file, width = 1000, height = 700, res = 110)
op <- par(mfrow = c(2, 2), mar = c(4.2, 4.2, 2.2, 1))
plot(fits[["PCD"]], type = "ess", main = "PCD(20): ESS of on-the-fly weights")
plot(fits[["PCD"]], type = "log_z", main = "PCD(20): running log Z (red: exact, by enumeration)")
abline(h = rows[["PCD"]]$exact, col = "red")
plot(fit_big, type = "ess", main = "CD-1(500): ESS of on-the-fly weights")
plot(fit_big, type = "log_z", main = "CD-1(500): running log Z and 3-sd bounds")
par(op)
invisible(grDevices::dev.off())
cat(sprintf("\nwrote %s\ntotal time %.0f s\n", png_file, proc.time()[["elapsed"]] - t_start))
