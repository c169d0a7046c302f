# Where VAROPT pays and where it cannot: AIS on Ising grids (exact log Z by
# junction tree) with LINEAR, VAROPT (Kiwaki 2015), decelerated VAROPT, GMS13 and
# SM08 schedules, on models whose g(beta) = Var_beta[D] is flat, rises towards
# the critical coupling, and peaks inside (0, 1) (the ordered phase).
# For each model the script prints the perfect-transition ceiling of ANY
# schedule's gain over LINEAR: with g the pilot's estimate, LINEAR's J is
# int g and the optimum's is (int sqrt g)^2 (Cauchy-Schwarz), so
#   ESS(opt) / ESS(LINEAR) <= exp((int g - (int sqrt g)^2) / K)   (lognormal weights).
# The same ceiling is printed for the three RBMs of bench/varopt/schedules.R: it is
# what decides whether the issue's 1.3x target at K = 10^4 is reachable there
# (it is 1.001-1.002: no schedule built from g can gain 1.3x under perfect
# transitions, and the measured ESS is limited by mixing instead).
# Each cell: mean ESS (out of M = 1000 runs) and log Z RMSE over `reps`
# independent repeats; the ratio of mean ESS to LINEAR's, with a 95% t-interval.
# Result (bench/varopt/schedules_ising.out): where g peaks where the chains mix slowly
# (near-critical and ordered grids) VAROPT beats LINEAR by more than the
# perfect-transition ceiling (1.37x at K = 300, J = 0.5; 1.18-1.22x at K = 1000,
# J = 0.8); where g is flat (disordered, spin glass) all g-based schedules tie.
# Run: Rscript bench/varopt/schedules_ising.R > bench/varopt/schedules_ising.out
#      (23 minutes on a loaded 2-core machine, one thread)
suppressPackageStartupMessages(library(logz))
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
reps <- as.integer(Sys.getenv("BENCH_REPEATS", "5"))
M <- 1000L
Ks <- c(100L, 300L, 1000L)
threads <- as.integer(Sys.getenv("BENCH_THREADS", "1"))
set.seed(2015)
models <- list(
  "12x12 grid, J = 0.3 (disordered)" = ising_grid(12, 12, coupling = 0.3, type = "constant"),
  "12x12 grid, J = 0.5 (near critical)" = ising_grid(12, 12, coupling = 0.5, type = "constant"),
  "12x12 grid, J = 0.8 (ordered)" = ising_grid(12, 12, coupling = 0.8, type = "constant"),
  "12x12 grid, mixed J ~ U(-1, 1)" = ising_grid(12, 12, coupling = 1, type = "mixed"))
ceiling_of <- function(beta, g, K) {
  h <- diff(beta)
  gm <- (head(g, -1) + tail(g, -1)) / 2
  sm <- (sqrt(head(g, -1)) + sqrt(tail(g, -1))) / 2
  c(int_g = sum(h * gm), int_sqrt_g_sq = sum(h * sm)^2,
    ceiling = exp((sum(h * gm) - sum(h * sm)^2) / K))
}
rows <- list()
for (nm in names(models)) {
  m <- models[[nm]]
  lz <- exact_log_z(m)
  pilot <- schedule_varopt(m, 100L, pilot_K = 1000L, pilot_chains = 200L, threads = threads)
  gms <- schedule_gms13(m, 100L, knots = 10L, n_chains = 100L, sweeps = 500L, burn_in = 100L,
                        threads = threads)
  g <- attr(pilot, "g")
  cat(sprintf("\n== %s: exact log Z %.4f\n", nm, lz))
  cat(sprintf("   g(beta) at 0, .2, .4, .6, .8, 1: %s\n",
              paste(sprintf("%.1f", approx(g$beta, g$g, c(0, .2, .4, .6, .8, 1))$y),
                    collapse = ", ")))
  for (K in Ks) {
    cl <- ceiling_of(g$beta, g$g, K)
    cat(sprintf("   K = %4d: int g = %.1f, (int sqrt g)^2 = %.1f, perfect-transition ceiling of any schedule's ESS gain %.2f\n",
                K, cl[["int_g"]], cl[["int_sqrt_g_sq"]], cl[["ceiling"]]))
    sch <- list(LINEAR = schedule_linear(K), VAROPT = schedule_varopt(m, K, from = pilot),
                VAROPT_d = schedule_varopt(m, K, from = pilot, delta = 3 / K),
                GMS13 = schedule_gms13(m, K, from = gms), SM08 = schedule_sm08(K))
    for (s in names(sch)) {
      fits <- lapply(seq_len(reps), function(r)
        ais(m, sch[[s]], n_chains = M, threads = threads, progress = FALSE))
      rows[[length(rows) + 1L]] <- data.frame(
        model = nm, K = K, schedule = s, ess = vapply(fits, `[[`, 0, "ess"),
        error = vapply(fits, `[[`, 0, "log_z") - lz, rep = seq_len(reps))
    }
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("\n== ESS (mean over %d repeats of M = %d runs), ratio to LINEAR [95%% t-interval], RMSE of log Z ==\n",
            reps, M))
for (nm in names(models)) {
  cat(sprintf("\n%s\n", nm))
  for (K in Ks) {
    sub <- tab[tab$model == nm & tab$K == K, ]
    lin <- sub$ess[sub$schedule == "LINEAR"]
    for (s in unique(sub$schedule)) {
      x <- sub[sub$schedule == s, ]
      # the interval: a t-interval of the mean log ratio, repeat i of a schedule
      # against (independent) repeat i of LINEAR
      tt <- if (s == "LINEAR") c(1, 1) else {
        lr <- log(x$ess) - log(lin)
        exp(mean(lr) + c(-1, 1) * qt(0.975, reps - 1) * sd(lr) / sqrt(reps))
      }
      cat(sprintf("  K = %4d %-9s ESS %6.1f  ratio %.2f [%.2f, %.2f]  RMSE %.3f\n", K, s,
                  mean(x$ess), mean(x$ess) / mean(lin), tt[1], tt[2], sqrt(mean(x$error^2))))
    }
  }
}

cat("\n== The same ceiling for the RBMs of bench/varopt/schedules.R (increment g of ais() on the RBM path) ==\n")
for (f in c(pcd = "pcd", cd1 = "cd1", cd25 = "cd25")) {
  path <- file.path("bench/models", sprintf("rbm20_%s.rds", f))
  if (!file.exists(path)) next
  fit <- readRDS(path)
  set.seed(7)
  p <- schedule_varopt(fit$model, 100L, pilot_K = 1000L, pilot_chains = 100L, g = "increment",
                       threads = threads)
  g <- attr(p, "g")
  for (K in c(1000L, 10000L)) {
    cl <- ceiling_of(g$beta, g$g, K)
    cat(sprintf("  %-4s K = %5d: int g = %.1f, (int sqrt g)^2 = %.1f, ceiling %.3f\n", f, K,
                cl[["int_g"]], cl[["int_sqrt_g_sq"]], cl[["ceiling"]]))
  }
}
cat("\nPaper, Table 1 (K = 10^4, M = 1000): VAROPT_0.009 / LINEAR ESS = 809/517 = 1.56 (PCD),",
    "814/713 = 1.14 (CD1), 820/664 = 1.23 (CD25)\n")
