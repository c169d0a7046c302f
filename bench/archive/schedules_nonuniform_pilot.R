# Issue 18: pick an RBM whose g(beta) is strongly non-uniform AND where LINEAR's
# ESS is usable, so that a VAROPT / LINEAR ratio means something (the
# pcd_v1_uniform cell of bench/varopt/schedules.R had ESS 2-4 of 1000 under every
# schedule). Cheap pilots: per candidate (model, base, K) one VAROPT pilot
# (linear, 1000 steps x 100 chains, as bench/varopt/schedules.R), then LINEAR, VAROPT
# and SM08 at M = 100 runs. Printed: the dynamic range of the smoothed g VAROPT
# uses (max/min), VAROPT's predicted ESS gain under perfect transitions
# (exp((J_linear - J_varopt)/K)), and the measured ESS/100 and log Z error
# (exact log Z by enumerating the 20 hidden units).
# Candidates: the three Table 1 models from the uniform (bias-free) base at
# K = 1000 and 3000 (their g varies 80- to 140-fold there, bench/archive/schedules_g.out);
# the PCD(20) model with W, a and b scaled by 1.5 and 2 (the model at inverse
# temperature 1.5 and 2: larger weights) from the data base; small enumerable
# RBMs (20 x 10, 100 x 20) with strong random weights from the uniform base.
# BENCH_ONLY: regex on candidate names (the second round was run with
# BENCH_ONLY='a-6|W/2', the third with BENCH_ONLY='a-9', each appended to the .out).
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/archive/schedules_nonuniform_pilot.R \
#        > bench/archive/schedules_nonuniform_pilot.out
suppressPackageStartupMessages(library(logz))
options(width = 200)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
t_all <- proc.time()
M <- as.integer(Sys.getenv("BENCH_M", "100"))
ld <- function(f) readRDS(file.path("bench/models", sprintf("rbm20_%s.rds", f)))
scaled <- function(m, s) rbm(s * m$W, s * m$a, s * m$b)
pcd <- ld("pcd")$model
set.seed(7)
small1 <- rbm(matrix(rnorm(200, sd = 1), 20, 10), rnorm(20, sd = 2), rnorm(10, sd = 1))
small2 <- rbm(matrix(rnorm(2000, sd = 0.5), 100, 20), rnorm(100, -2, 1), rnorm(20, sd = 1))
set.seed(8)
small3 <- rbm(matrix(rnorm(2000, sd = 0.3), 100, 20), rnorm(100, -6, 1.5), rnorm(20, -1, 1))
small4 <- rbm(matrix(rnorm(2000, sd = 1), 100, 20), rnorm(100, -6, 1.5), rnorm(20, -1, 1))
small5 <- rbm(matrix(rnorm(2000, sd = 0.3), 100, 20), rnorm(100, -9, 1), rnorm(20, -1, 1))
small6 <- rbm(matrix(rnorm(2000, sd = 1), 100, 20), rnorm(100, -9, 1), rnorm(20, -1, 1))
pcd_half <- rbm(pcd$W / 2, pcd$a, pcd$b / 2)
cands <- list(
  list(name = "PCD(20) uniform", m = pcd, base = "uniform", K = c(1000L, 3000L)),
  list(name = "CD25(20) uniform", m = ld("cd25")$model, base = "uniform", K = c(1000L, 3000L)),
  list(name = "CD1(20) uniform", m = ld("cd1")$model, base = "uniform", K = c(1000L, 3000L)),
  list(name = "PCD(20) x1.5 data", m = scaled(pcd, 1.5), base = pcd$base_rate, K = c(1000L, 3000L)),
  list(name = "PCD(20) x2 data", m = scaled(pcd, 2), base = pcd$base_rate, K = c(1000L, 3000L)),
  list(name = "20x10 sd1 uniform", m = small1, base = "uniform", K = c(30L, 100L, 300L)),
  list(name = "100x20 sd0.5 uniform", m = small2, base = "uniform", K = c(30L, 100L, 300L)),
  # second round: the small models above have g ranges of 7-8 only. Strong visible
  # biases (sparse images, as MNIST's background pixels) with a base that ignores
  # them (uniform) give a g that falls steeply from beta = 0, and weak weights let
  # Gibbs mix (near-perfect transitions, the theory's assumption).
  list(name = "100x20 a-6 W0.3 uniform", m = small3, base = "uniform", K = c(100L, 300L, 1000L)),
  list(name = "100x20 a-6 W1 uniform", m = small4, base = "uniform", K = c(100L, 300L, 1000L)),
  list(name = "784x20 PCD a, W/2 uniform", m = pcd_half, base = "uniform", K = c(300L, 1000L)),
  # third round: the ranges above are 33-58-fold; stronger biases (-9) for >= 100-fold
  list(name = "100x20 a-9 W0.3 uniform", m = small5, base = "uniform", K = c(100L, 300L, 1000L)),
  list(name = "100x20 a-9 W1 uniform", m = small6, base = "uniform", K = c(100L, 300L, 1000L)))
only <- Sys.getenv("BENCH_ONLY", "")
if (nzchar(only)) cands <- Filter(function(cd) grepl(only, cd$name), cands)
ess_of <- function(a) a$ess
for (cd in cands) {
  t0 <- proc.time()
  exact <- exact_log_z(cd$m, progress = FALSE)
  set.seed(11)
  pil <- schedule_varopt(cd$m, max(cd$K), pilot_K = 1000, pilot_chains = 100, base = cd$base)
  gd <- attr(pil, "g")
  for (K in cd$K) {
    v <- schedule_varopt(cd$m, K, from = pil)
    sch <- list(LINEAR = schedule_linear(K), VAROPT = v, SM08 = schedule_sm08(K))
    set.seed(12)
    res <- lapply(sch, function(s) ais(cd$m, s, n_chains = M, base = cd$base, progress = FALSE))
    cat(sprintf(paste0("%-22s K %5d: g range %7.1f (g0 %8.1f, g1 %7.1f), pilot ESS %5.1f, predicted gain %5.2f | ",
                       "ESS/%d LIN %5.1f VAR %5.1f SM08 %5.1f | err LIN %+7.3f VAR %+7.3f SM08 %+7.3f | ",
                       "VAROPT max step %.2g, J lin %.0f var %.0f\n"),
                cd$name, K, max(gd$g) / min(gd$g), gd$g[1], gd$g[length(gd$g)],
                attr(pil, "pilot")$ess, logz:::schedule_predicted_gain(v), M,
                res$LINEAR$ess, res$VAROPT$ess, res$SM08$ess,
                res$LINEAR$log_z - exact, res$VAROPT$log_z - exact, res$SM08$log_z - exact,
                max(diff(as.double(v))), attr(v, "objective")[["linear"]],
                attr(v, "objective")[["schedule"]]))
  }
  cat(sprintf("  (%s: exact log Z %.3f, %.0f s CPU)\n", cd$name, exact,
              sum((proc.time() - t0)[1:2])))
}
cat(sprintf("\ntotal CPU %.0f s\n", sum((proc.time() - t_all)[1:2])))
