# Default schedule check on the model the default rbm_train() call gives (PCD,
# 20 hidden units, epochs chosen from the data) on the demo's split and seed:
# AIS with the default linear(14500) schedule against schedule_sm08() at the
# same cost, 100 chains, 5 seeds each, errors against exact log Z.
#   Rscript bench/varopt/default_schedule_pcd.R > bench/varopt/default_schedule_pcd.out
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
library(logz)
train <- mnist$x[1:8000, ]
set.seed(2015)
cd <- rbm_train(train, n_hidden = 20, method = "cd", k = 1, progress = FALSE)
m <- rbm_train(train, n_hidden = 20, method = "pcd", progress = FALSE)
ex <- as.numeric(exact_log_z(m, threads = 2))
err <- list(linear = numeric(), sm08 = numeric())
for (s in 1:5) for (sc in c("linear", "sm08")) {
  set.seed(s)
  f <- suppressWarnings(if (sc == "linear") ais(m, n_chains = 100, threads = 2, progress = FALSE)
       else ais(m, schedule_sm08(), n_chains = 100, threads = 2, progress = FALSE))
  cat(sprintf("seed %d %-6s err %+.3f se %.3f z %+.2f ess %.0f reliable %s\n", s, sc, f$log_z - ex, f$se,
              (f$log_z - ex) / f$se, f$ess, f$reliable))
  err[[sc]] <- c(err[[sc]], f$log_z - ex)
}
rmse <- vapply(err, function(e) sqrt(mean(e^2)), 0)
cat(sprintf("RMSE linear %.3f, SM08 %.3f, SM08 / linear %.2f (5 seeds each)\n",
            rmse[["linear"]], rmse[["sm08"]], rmse[["sm08"]] / rmse[["linear"]]))
