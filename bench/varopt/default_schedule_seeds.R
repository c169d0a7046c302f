# Default AIS schedule for RBMs, measured: linear(14500) against SM08(14500)
# and a pilot-based choice between the two, at the cost of a default ais()
# call (100 chains), seeds 1-10, errors against exact log Z (enumeration over
# the 20 hidden units). The pilot runs each shape with K = 1450 steps and 20
# chains (58,000 chain-steps, 4% of the main run) and picks the shape with the
# smaller variance of the log weights; its error is that of the chosen shape's
# main run at the same seed.
#   Rscript bench/varopt/default_schedule_seeds.R MODEL [SEEDS]   (appends to default_schedule_seeds.csv)
#   MODEL: a file in bench/models/ (rbm20_cd1_default.rds, rbm20_pcd.rds, ...)
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
library(logz)
args <- commandArgs(TRUE)
file <- args[1]
seeds <- if (length(args) > 1) eval(parse(text = args[2])) else 1:10
obj <- readRDS(file.path("bench/models", file))
m <- obj$model
ex <- as.numeric(exact_log_z(m, threads = 1))
out <- "bench/varopt/default_schedule_seeds.csv"
K <- 14500L
Kp <- 1450L
for (s in seeds) {
  set.seed(s)
  pl <- suppressWarnings(ais(m, schedule_linear(Kp), n_chains = 20, progress = FALSE))
  ps <- suppressWarnings(ais(m, schedule_sm08(Kp), n_chains = 20, progress = FALSE))
  set.seed(s)
  fl <- suppressWarnings(ais(m, schedule_linear(K), n_chains = 100, progress = FALSE))
  set.seed(s)
  fs <- suppressWarnings(ais(m, schedule_sm08(K), n_chains = 100, progress = FALSE))
  row <- data.frame(model = sub("\\.rds$", "", file), seed = s, exact = ex,
                    err_linear = fl$log_z - ex, se_linear = fl$se, ess_linear = fl$ess,
                    err_sm08 = fs$log_z - ex, se_sm08 = fs$se, ess_sm08 = fs$ess,
                    pilot_var_linear = var(pl$log_weights), pilot_var_sm08 = var(ps$log_weights),
                    pilot_ess_linear = pl$ess, pilot_ess_sm08 = ps$ess)
  row$pick <- if (row$pilot_var_sm08 < row$pilot_var_linear) "sm08" else "linear"
  cat(sprintf("%s seed %2d linear %+.3f (ess %3.0f) sm08 %+.3f (ess %3.0f) pilot var %.2f / %.2f -> %s\n",
              row$model, s, row$err_linear, row$ess_linear, row$err_sm08, row$ess_sm08,
              row$pilot_var_linear, row$pilot_var_sm08, row$pick))
  write.table(row, out, sep = ",", row.names = FALSE, append = file.exists(out),
              col.names = !file.exists(out))
}
