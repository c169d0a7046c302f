# Figure 2 of Fraccaro, Paquet & Winther (2016) in miniature: log Z (log of the
# mean Z over repeats) and the sd of log Z against time for ARM, RM and AIS with
# elliptical slice sampling on GP probit classification, with EP as reference.
# Data: MNIST 3 vs 5 (the package's binarised subset, 2 x 2 average pooled to
# 14 x 14 grey levels in [0, 1]; the paper used USPS 16 x 16 in [-1, 1], so its
# hardest setting log l = 4.85, log sigma = 5.1 becomes l = exp(4.85) / 2 on our
# half-as-wide pixel scale, sigma = exp(5.1)); and mlbench's Ionosphere
# (V2, a constant, dropped; l = 3, sigma = 10, a strongly correlated prior).
# Besides elapsed time (noisy on a shared machine) each row reports the work per
# run: particle-moves (one Gibbs sweep of one particle) for ARM/RM, chain-sweeps
# (one elliptical slice update of all n latents of one chain) for AIS.
# After the table: where ARM spent its particles (gamma = ESS / R_n before the
# generate loop, `gamma0`, and after it) and the paper's Theorem 1 bound on what any
# allocation of particles over iterations can gain over a fixed R (independent
# samples; v_n = 1 / gamma0 - 1 from the RM R=1000 runs). The issue's target (ARM sd
# 2x below RM's at equal time) is not met: the bound itself is 1.3-1.7 on these
# problems, gamma hardly grows in the generate loop (it estimates 1 / (1 + v_n),
# which more particles targeting p_n do not raise), so the loop mostly runs to
# i_max, and the added blocks (the same chains moved one more sweep) are strongly
# correlated with the first one.
# Run: R_LIBS=... Rscript bench/arm/arm_gpc.R [n_mnist n_iono repeats] > bench/arm/arm_gpc.out
library(logz)
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
args <- commandArgs(TRUE)
n_mnist <- if (length(args) >= 1) as.integer(args[1]) else 100L
n_iono <- if (length(args) >= 2) as.integer(args[2]) else 120L
repeats <- if (length(args) >= 3) as.integer(args[3]) else 10L
i_max <- 10L
cat(sprintf("MNIST points %d, Ionosphere points %d, %d repeats per setting, ARM i_max %d\n",
            n_mnist, n_iono, repeats, i_max))
cat(sprintf("load average at start: %s\n\n", paste(readLines("/proc/loadavg", warn = FALSE),
                                                  collapse = "")))

source("bench/arm/gpc_problems.R")
m1 <- mnist35_gpc(n_mnist)
m2 <- ionosphere_gpc(n_iono)

source("bench/arm/report.R")
run <- function(label, fun)
  arm_bench_run(label, fun, repeats, 1000L, keep = function(label, fits)
    if (inherits(fits[[1]], "logz_arm")) diags[[label]] <<- do.call(rbind, lapply(fits, function(f)
      cbind(f$diagnostics, R = f$particles))))

# Where ARM spent its particles: gamma = ESS / R_n before (gamma0) and after the
# generate loop in the iterations it expanded, and how often the loop reached
# gamma_threshold (0.7) rather than i_max.
expansion_summary <- function() {
  for (nm in grep("^ARM", names(diags), value = TRUE)) {
    d <- diags[[nm]]
    ex <- d$particles > d$R
    cat(sprintf(paste0("  %-10s expanded %4.1f iterations per run, mean R_n/R %.2f; there gamma0 median %.2f",
                       " -> gamma median %.2f, loop stopped by gamma >= 0.7 in %.0f%%\n"),
                nm, sum(ex) / repeats, mean(d$particles / d$R), stats::median(d$gamma0[ex]),
                stats::median(d$gamma[ex]), 100 * mean(d$gamma[ex] >= 0.7)))
  }
  # Theorem 1 of the paper: with independent samples, the best allocation R_n of a
  # fixed budget gives var (sum sqrt v_n)^2 / R_tot against sum v_n / R for a fixed
  # R; v_n = 1 / gamma0 - 1 estimated by the RM runs (averaged over them).
  th <- theorem1_ceiling(diags[["RM R=1000"]])
  cat(sprintf(paste0("  Theorem 1 bound on RM sd / (ideally allocated) sd at equal budget: %.2f ",
                     "(budget in particles), %.2f (budget in n^2-weighted sweeps)\n"),
              th$particles, th$n2))
}

bench <- function(model, name) {
  diags <<- list()
  ep <- ep_log_z(model)
  cat(sprintf("== %s: n = %d, d = %d, lengthscale %.3g, amplitude %.3g; EP log Z = %.3f\n",
              name, model$n, ncol(model$x), model$lengthscale, model$amplitude, ep))
  res <- rbind(
    run("ARM R=30", function() arm(model, 30, i_max = i_max, progress = FALSE)),
    run("ARM R=100", function() arm(model, 100, i_max = i_max, progress = FALSE)),
    run("ARM R=300", function() arm(model, 300, i_max = i_max, progress = FALSE)),
    run("RM R=100", function() arm(model, 100, variant = "rm", progress = FALSE)),
    run("RM R=300", function() arm(model, 300, variant = "rm", progress = FALSE)),
    run("RM R=1000", function() arm(model, 1000, variant = "rm", progress = FALSE)),
    run("AIS-ESS K=100", function()
      ais(model, schedule_geometric(100), n_chains = 50, progress = FALSE)),
    run("AIS-ESS K=500", function()
      ais(model, schedule_geometric(500), n_chains = 50, progress = FALSE)))
  res$err_vs_ep <- res$log_mean_z - ep
  cat("\n")
  print(format(res, digits = 4), row.names = FALSE)
  arm_bench_sd_ratios(res)
  expansion_summary()
  cat("\n")
  invisible(res)
}
bench(m1, "MNIST 3 vs 5 (14 x 14)")
bench(m2, "Ionosphere")
