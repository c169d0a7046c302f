# The default schedule's pilots on the 784 x 500 MNIST RBMs: per seed, the
# pilots of schedule_pilot() (linear and SM08, 1,450 steps x 20 chains each),
# their Var[log w] and mean log w and the shape each criterion of
# schedule_pilot() chooses (the default: the smaller variance; "mean": the
# larger mean log weight). The full runs (14,500 steps x 100 chains, about 25 times a
# 20-hidden run each) did not fit the CPU budget of this session; the
# reference log Z of the PCD model is bench/rts/rts_fig3_pcd500_ref.rds.
#   Rscript bench/varopt/pilot_rules_500.R SEEDS > bench/varopt/pilot_rules_500.out
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat("date:", format(Sys.time(), tz = "UTC"), "UTC | commit:",
    system("git rev-parse --short HEAD", intern = TRUE), "\n")
library(logz)
args <- commandArgs(TRUE)
seeds <- if (length(args)) eval(parse(text = args[1])) else 1:2
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
cat(sprintf("reference log Z of rbm500_pcd: %.3f (+/- %.3f, %s)\n", ref$mid, ref$err, ref$key))
for (file in c("rbm500_pcd.rds", "rbm500_cd25.rds")) {
  m <- readRDS(file.path("bench/models", file))$model
  for (s in seeds) {
    set.seed(s)
    t0 <- proc.time()[["elapsed"]]
    sch <- schedule_pilot(m, K = 14500, n_chains = 100)
    p <- attr(sch, "pilot")
    cat(sprintf("%-16s seed %d: pilot Var[log w] linear %.2f, SM08 %.2f; mean log w %.2f / %.2f; ESS %.1f / %.1f of 20; variance picks %s, mean picks %s (%.0f s)\n",
                sub("\\.rds$", "", file), s, p$var_log_w[p$shape == "linear"], p$var_log_w[p$shape == "sm08"],
                p$mean_log_w[p$shape == "linear"], p$mean_log_w[p$shape == "sm08"],
                p$ess[p$shape == "linear"], p$ess[p$shape == "sm08"], p$shape[which.min(p$var_log_w)],
                p$shape[which.max(p$mean_log_w)],
                proc.time()[["elapsed"]] - t0))
  }
}
