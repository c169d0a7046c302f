# AIS throughput on a 784 x 500 MNIST RBM with 100 chains: chain-sweeps per
# second of logz::ais() with each kernel (dense BLAS, sparse 0/1, auto) on 1 and
# 2 threads, the sparse kernel at each instruction set (LOGZ_ISA caps the one the
# dispatcher picks), against the dense bound (the two products of a sweep,
# [W a a0]'V and W H, by R's BLAS on all cores), PyTorch float32 (when
# python3-torch is installed) and a plain vectorised-R AIS, all timed in the same
# run in interleaved rounds; then rts(), raise() and rbm_train() at the
# dispatched and the portable instruction set, and the log Z each AIS gives on a
# longer schedule. Run: Rscript bench/ais/ais_rbm.R   (about 4 minutes wall on
# an idle machine, far longer under load). The crossover of the sparse products against dgemm per
# density is bench/ais/binary_crossover.R.
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "\n")
isa <- logz:::kernel_isa()
cat("instruction set of the Gibbs kernels (dispatcher's choice):", isa, "\n")
cpuinfo <- tryCatch(readLines("/proc/cpuinfo"), error = function(e) character())
cat("CPU AVX flags:", sort(unique(unlist(regmatches(cpuinfo, gregexpr("avx[0-9a-z_]*", cpuinfo))))),
    "\n")
loadavg <- function() tryCatch(readLines("/proc/loadavg"), error = function(e) NA)
cat("load average at start:", loadavg(), "\n\n")

set.seed(2015)
t0 <- proc.time()[[3]]
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 500, method = "cd", k = 1, epochs = 3,
                   learning_rate = 0.05, progress = FALSE)
cat(sprintf("trained a 784 x 500 RBM by CD-1 (3 epochs) in %.1f s\n\n", proc.time()[[3]] - t0))

softplus <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))
# Plain vectorised R: all chains at once with BLAS matrix products, the same path
# and base as ais() (hidden units summed out, base-rate visible biases a0).
plain_r_ais <- function(model, betas, M) {
  W <- model$W; a <- model$a; b <- model$b; a0 <- model$base_rate
  nv <- length(a); nh <- length(b); K <- length(betas) - 1L
  V <- matrix(as.double(runif(M * nv) < rep(plogis(a0), each = M)), M, nv)
  logw <- numeric(M)
  for (k in seq_len(K)) {
    b0 <- betas[k]; b1 <- betas[k + 1L]
    X <- V %*% W + rep(b, each = M)
    logw <- logw + drop(V %*% ((b1 - b0) * (a - a0))) +
      rowSums(softplus(b1 * X) - softplus(b0 * X))
    if (k < K) {
      H <- matrix(as.double(runif(M * nh) < plogis(b1 * X)), M, nh)
      Y <- tcrossprod(H, W) * b1 + rep((1 - b1) * a0 + b1 * a, each = M)
      V <- matrix(as.double(runif(M * nv) < plogis(Y)), M, nv)
    }
  }
  log_z0 <- sum(softplus(a0)) + nh * log(2)
  mx <- max(logw)
  list(log_z = log_z0 + mx + log(mean(exp(logw - mx))), sweeps = M * (K - 1))
}

M <- 100L
K <- 300L
sched <- schedule_linear(K)

# The dense bound: a sweep of M chains needs [W a a0]'V (502 x 784 x M) and W H
# (784 x 500 x M); R's BLAS makes them on all its threads at this rate.
Wx <- cbind(model$W, model$a, model$base_rate)
dense_bound <- function(reps = 30L) {
  V <- matrix(as.double(runif(784 * M) < 0.15), 784, M)
  H <- matrix(as.double(runif(500 * M) < 0.45), 500, M)
  t0 <- proc.time()
  for (i in seq_len(reps)) { X <- crossprod(Wx, V); Y <- model$W %*% H }
  el <- proc.time() - t0
  list(sweeps = M * reps, el = el[[3]], cpu = el[[1]] + el[[2]], log_z = NA)
}

# PyTorch float32, the same algorithm (100 steps), on 1 and 2 threads (skipped when
# not installed)
torch_py <- Sys.which("python3")
if (file.exists("/usr/bin/python3")) torch_py <- "/usr/bin/python3"
has_torch <- nzchar(torch_py) &&
  identical(suppressWarnings(system2(torch_py, c("-c", shQuote("import torch")),
                                     stdout = FALSE, stderr = FALSE)), 0L)
torch_dir <- tempfile("ais_rbm_torch")
if (has_torch) {
  dir.create(torch_dir)
  writeLines(paste(nrow(model$W), ncol(model$W)), file.path(torch_dir, "dims.txt"))
  for (nm in c("W", "a", "b")) writeBin(as.double(model[[nm]]), file.path(torch_dir, paste0(nm, ".bin")))
  writeBin(as.double(model$base_rate), file.path(torch_dir, "a0.bin"))
  torch_version <- system2(torch_py, c("-c", shQuote("import torch; print(torch.__version__)")),
                           stdout = TRUE)
  cat("PyTorch", torch_version, "float32 via", torch_py, "\n\n")
} else cat("PyTorch: not installed (python3-torch); its rows are skipped\n\n")
torch_script <- file.path("bench", "ais", "ais_rbm_torch.py")
run_torch <- function(threads) {
  out <- system2(torch_py, c(torch_script, torch_dir, threads, M, 100L), stdout = TRUE)
  v <- as.numeric(strsplit(out[length(out)], " ")[[1]])
  list(sweeps = v[1], el = v[2], cpu = v[3], log_z = v[4])
}

with_isa <- function(level, code) {
  Sys.setenv(LOGZ_ISA = level)
  on.exit(Sys.unsetenv("LOGZ_ISA"))
  force(code)
}
run_ais <- function(kernel, threads, level = isa) {
  with_isa(level, {
    set.seed(1)
    t0 <- proc.time()
    r <- ais(model, sched, n_chains = M, threads = threads, kernel = kernel, progress = FALSE)
    el <- proc.time() - t0
    list(sweeps = r$counts[["gibbs_sweeps"]], el = el[[3]], cpu = el[[1]] + el[[2]],
         log_z = r$log_z)
  })
}
levels <- c("portable", "avx2", "avx512")
levels <- levels[seq_len(match(isa, levels))]
variants <- list()
for (kernel in c("dense", "sparse", "auto")) for (th in 1:2)
  variants[[sprintf("ais(kernel = \"%s\") [%s] t%d", kernel, isa, th)]] <-
    list(threads = th, run = local({ k <- kernel; t <- th; function() run_ais(k, t) }))
for (lv in rev(setdiff(levels, isa))) for (th in 1:2)
  variants[[sprintf("ais(kernel = \"sparse\") [LOGZ_ISA=%s] t%d", lv, th)]] <-
    list(threads = th, run = local({ l <- lv; t <- th; function() run_ais("sparse", t, l) }))
variants[["dense bound (R BLAS, 2 products/sweep)"]] <- list(threads = NA, run = dense_bound)
if (has_torch) for (th in 1:2)
  variants[[sprintf("PyTorch float32 t%d", th)]] <-
    list(threads = th, run = local({ t <- th; function() run_torch(t) }))
variants[["plain R (BLAS products)"]] <- list(threads = NA, run = function() {
  set.seed(1)
  t0 <- proc.time()
  r <- plain_r_ais(model, as.double(schedule_linear(100)), M)
  el <- proc.time() - t0
  list(sweeps = r$sweeps, el = el[[3]], cpu = el[[1]] + el[[2]], log_z = NA)
})

rounds <- 3L
rates <- matrix(NA_real_, length(variants), rounds, dimnames = list(names(variants), NULL))
cpu_rates <- rates
logzs <- setNames(rep(NA_real_, length(variants)), names(variants))
for (r in seq_len(rounds)) {
  for (v in names(variants)) {   # interleaved: every variant once per round
    res <- variants[[v]]$run()
    rates[v, r] <- res$sweeps / res$el
    cpu_rates[v, r] <- res$sweeps / res$cpu
    logzs[v] <- res$log_z
  }
  cat(sprintf("round %d done, load average %s\n", r, loadavg()))
}
tab <- data.frame(implementation = sub(" t[12]$", "", names(variants)),
                  threads = vapply(variants, function(x) as.integer(x$threads), 1L),
                  median_per_s = apply(rates, 1, median), min_per_s = apply(rates, 1, min),
                  max_per_s = apply(rates, 1, max),
                  per_cpu_s = apply(cpu_rates, 1, median), log_z = logzs, row.names = NULL)
bound <- tab$median_per_s[grepl("^dense bound", tab$implementation)]
tab$vs_dense_bound <- tab$median_per_s / bound
if (has_torch)
  tab$vs_torch2 <- tab$median_per_s / tab$median_per_s[tab$implementation == "PyTorch float32" &
                                                         tab$threads %in% 2L]
tab$vs_plain_R <- tab$median_per_s / tab$median_per_s[grepl("^plain R", tab$implementation)]
cat(sprintf(paste0("\nChain-sweeps/s, %d chains, %d-step linear schedule (plain R and PyTorch: 100 steps): ",
                   "median and range of %d interleaved rounds (wall clock), and per CPU second ",
                   "(all threads' CPU time; median):\n"), M, K, rounds))
print(format(tab, digits = 3), row.names = FALSE)
auto2 <- rates[sprintf("ais(kernel = \"auto\") [%s] t2", isa), ]
bound_r <- rates[grepl("^dense bound", rownames(rates)), ]
cat(sprintf("\nais(kernel = \"auto\", threads = 2) / dense bound, per round: %s (target >= 1.5)\n",
            paste(sprintf("%.2f", auto2 / bound_r), collapse = ", ")))
sparse2 <- rates[sprintf("ais(kernel = \"sparse\") [%s] t2", isa), ]
cat(sprintf("ais(kernel = \"auto\", threads = 2) / ais(kernel = \"sparse\", threads = 2), per round: %s\n",
            paste(sprintf("%.2f", auto2 / sparse2), collapse = ", ")))
if (has_torch) {
  tr <- rates["PyTorch float32 t2", ]
  cat(sprintf("ais(kernel = \"auto\", threads = 2) / PyTorch float32, per round: %s (target >= 4)\n",
              paste(sprintf("%.2f", auto2 / tr), collapse = ", ")))
}

# rts(), raise() and training at the dispatched and the portable instruction
# set, interleaved (CPU seconds; threads = 2 for rts and raise).
cat("\nOther engines, dispatched vs portable kernels (wall s, median of 3 interleaved rounds):\n")
data <- mnist$x[1:5, ]
others <- list(
  `rts(kernel = "sparse", threads = 2)` = function() rts(model, K = 50, n_chains = 40, sweeps = 20,
                                                       threads = 2, progress = FALSE),
  `rts(kernel = "dense", threads = 2)` = function() rts(model, K = 50, n_chains = 40, sweeps = 20,
                                                      threads = 2, kernel = "dense", progress = FALSE),
  `raise(threads = 2)` = function() raise(model, data, schedule_linear(100), n_chains = 10,
                                          threads = 2, progress = FALSE),
  `rbm_train(pcd, 1 epoch of 2000)` = function() rbm_train(mnist$x[1:2000, ], n_hidden = 500, method = "pcd",
                                                           epochs = 1, progress = FALSE, seed = 1))
el <- array(NA_real_, c(length(others), 2, 3),
            dimnames = list(names(others), c(isa, "portable"), NULL))
for (r in 1:3) for (o in names(others)) for (lv in c(isa, "portable")) {
  el[o, lv, r] <- with_isa(lv, { set.seed(5); system.time(others[[o]]())[["elapsed"]] })
}
ot <- data.frame(engine = names(others), dispatched_s = apply(el[, 1, , drop = FALSE], 1, median),
                 portable_s = apply(el[, 2, , drop = FALSE], 1, median), row.names = NULL)
ot$speedup <- ot$portable_s / ot$dispatched_s
ot$speedup_range <- apply(el[, 2, ] / el[, 1, ], 1, function(x) sprintf("%.2f-%.2f", min(x), max(x)))
print(format(ot, digits = 3), row.names = FALSE)

# Accuracy at matched schedule: the C and plain-R estimators on a longer run.
set.seed(7)
fit <- ais(model, schedule_sm08(3000), n_chains = M, threads = 2, progress = FALSE)
set.seed(7)
pr <- plain_r_ais(model, as.double(schedule_sm08(3000)), M)
cat(sprintf("\nsm08(3000) schedule: ais() log Z %.3f (se %.3f, ESS %.1f) in %.1f s; plain R %.3f\n",
            fit$log_z, fit$se, fit$ess, fit$time, pr$log_z))
cat("load average at end:", loadavg(), "\n")
