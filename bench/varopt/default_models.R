# The three 20-hidden MNIST RBMs the current default rbm_train() call gives
# (epochs chosen from the data) on the demo's 8,000 / 2,000 split and seed,
# with CD-1, PCD and CD-25, saved with their exact log Z (enumeration over the
# hidden units) for bench/varopt/default_schedule_seeds.R.
#   Rscript bench/varopt/default_models.R > bench/varopt/default_models.out
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
library(logz)
train <- mnist$x[1:8000, ]
test <- mnist$x[8001:10000, ]
specs <- list(cd1 = list(method = "cd", k = 1), pcd = list(method = "pcd"),
              cd25 = list(method = "cd", k = 25))
for (nm in names(specs)) {
  set.seed(2015)
  t0 <- proc.time()[["elapsed"]]
  m <- do.call(rbm_train, c(list(train, n_hidden = 20, progress = FALSE), specs[[nm]]))
  ex <- exact_log_z(m)
  ll <- log_likelihood(m, test, log_z = ex)
  cat(sprintf("%-5s exact log Z %.4f  test log-likelihood %.2f  (%.0f s)\n", nm, as.numeric(ex),
              as.numeric(ll), proc.time()[["elapsed"]] - t0))
  saveRDS(list(model = m, log_z = as.numeric(ex), test_ll = as.numeric(ll)),
          sprintf("bench/models/rbm20_%s_default.rds", nm))
}
