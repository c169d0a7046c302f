# Where ARM-reseed (the paper's weighting, fresh particles from training digits) expands on PCD(500)
# at R = 100, to extrapolate the cost of the paper's 3,000 fresh Gibbs moves from a timed partial run.
# One run of bench/arm/arm_rbm500_fig4.R's `run pcd reseed_digits_eq 100 SEED` (RESEED_STEPS fresh
# moves, default 20), not added to its runs; prints the fresh blocks (S = 100 particles each at
# R = 100) by iteration band, and the fresh particle-sweeps that RESEED_STEPS = 3000 would cost.
# Usage: R_LIBS=<lib> OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/arm/arm_rbm500_reseed_cost.R [SEED]
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
seed <- if (length(args)) as.integer(args[1]) else 1L
rs_steps <- as.integer(Sys.getenv("RESEED_STEPS", "20"))
cat(sprintf("R BLAS: %s\nR LAPACK: %s\n", extSoftVersion()[["BLAS"]], La_library()))
m <- readRDS("bench/models/rbm500_pcd.rds")
if (!inherits(m, "rbm")) m <- m$model
R <- 100L
set.seed(seed)
t0 <- proc.time()
digits <- mnist$x[sample.int(nrow(mnist$x), 1000L), ]
fit <- suppressWarnings(arm(m, particles = R, variant = "reseed", i_max = 2L, move_steps = 10L,
                            reseed_steps = rs_steps, reseed_data = digits, reseed_weights = "equal",
                            keep_particles = FALSE, progress = FALSE))
tt <- proc.time() - t0
d <- fit$diagnostics
blocks <- (d$particles - R) / 100   # fresh blocks at iteration n (S = max(., 100) = 100 at R = 100)
band <- cut(d$n, c(0, 70, 110, 200, 300, 400, 500, 600, 700, 784))
cat(sprintf("reseed_digits_eq R = %d seed %d, %d fresh moves: log Z %.3f, %d expansions, %.1f CPU-s\n",
            R, seed, rs_steps, fit$log_z, fit$counts[["expansions"]], tt[["user.self"]] + tt[["sys.self"]]))
cat("fresh blocks of 100 particles by iteration n (the particle-sweeps of each block are at n - 1 units):\n")
tab <- data.frame(n = levels(band), blocks = as.vector(tapply(blocks, band, sum)),
                  mean_n = round(as.vector(tapply(blocks * d$n, band, sum) / tapply(blocks, band, sum))))
print(tab, row.names = FALSE)
sw <- sum(blocks * 100 * (d$n - 1))
cat(sprintf(paste0("fresh particle-sweeps x units with 3,000 moves: %.3g; the pool's (10 moves of R at each n): %.3g;\n",
                   "ratio %.1f (the fresh moves' share of a 3,000-move run's work, cost taken as proportional to units)\n"),
            3000 * sw, 10 * R * sum(d$n - 1), 3000 * sw / (10 * R * sum(d$n - 1))))
