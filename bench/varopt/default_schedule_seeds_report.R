# Report of bench/varopt/default_schedule_seeds.R: per model, RMSE over seeds of
# linear(14500), SM08(14500) and the pilot's choice (each 100 chains; errors
# against exact log Z), the pilot's picks, and the RMSE ratio of the pilot's
# choice to the better fixed shape with a paired bootstrap 95% interval (seeds
# resampled, 2000 times).
#   Rscript bench/varopt/default_schedule_seeds_report.R > bench/varopt/default_schedule_seeds.out
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
d <- read.csv("bench/varopt/default_schedule_seeds.csv")
d <- d[d$model != "model", ]
for (j in 3:13) d[[j]] <- as.numeric(d[[j]])
d$err_pilot <- ifelse(d$pick == "sm08", d$err_sm08, d$err_linear)
rmse <- function(e) sqrt(mean(e^2))
set.seed(1)
cat(sprintf("%-18s %5s %14s %14s %14s %8s %22s %10s\n", "model", "seeds", "RMSE linear",
            "RMSE SM08", "RMSE pilot", "picks", "pilot / best [95%]", "ESS l / s"))
for (m in unique(d$model)) {
  x <- d[d$model == m, ]
  r <- c(l = rmse(x$err_linear), s = rmse(x$err_sm08), p = rmse(x$err_pilot))
  best <- if (r[["l"]] <= r[["s"]]) "err_linear" else "err_sm08"
  boot <- replicate(2000, {
    i <- sample(nrow(x), replace = TRUE)
    rmse(x$err_pilot[i]) / rmse(x[[best]][i])
  })
  cat(sprintf("%-18s %5d %14.3f %14.3f %14.3f %4d / %-3d %6.2f [%.2f, %.2f] %5.0f / %.0f\n", m,
              nrow(x), r[["l"]], r[["s"]], r[["p"]], sum(x$pick == "linear"), sum(x$pick == "sm08"),
              r[["p"]] / min(r[1:2]), quantile(boot, 0.025), quantile(boot, 0.975),
              mean(x$ess_linear), mean(x$ess_sm08)))
}
cat("picks: linear / SM08. Pilot: 1,450 steps x 20 chains of each shape (4% of the budget), the shape",
    "with the smaller Var[log w] chosen; its error is the chosen shape's full run at the same seed.\n")
