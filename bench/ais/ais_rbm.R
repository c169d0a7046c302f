# AIS throughput on a 784 x 500 MNIST RBM with 100 chains: chain-sweeps per
# second of logz::ais() (dense BLAS kernel, sparse 0/1 kernel, auto; 1 and 2
# threads) against a plain vectorised-R AIS written below, with their ratio, and
# the log Z each gives on the same schedule (they must agree within their se).
# Run: Rscript bench/ais/ais_rbm.R   (about 4 minutes)
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "\n\n")

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
rows <- list()
# Each configuration runs `reps` times from the same seed: the machine is a
# shared VM, so we report the best (least disturbed) and the median rate.
reps <- 3L
time_it <- function(label, threads, run) {
  el <- numeric(reps)
  for (r in seq_len(reps)) {
    set.seed(1)
    t0 <- proc.time()[[3]]
    res <- run()
    el[r] <- proc.time()[[3]] - t0
  }
  sweeps <- if (inherits(res, "logz_ais")) res$counts[["gibbs_sweeps"]] else res$sweeps
  rows[[length(rows) + 1L]] <<- data.frame(implementation = label, threads = threads,
                                           best_s = min(el),
                                           chain_sweeps_per_s = sweeps / min(el),
                                           median_per_s = sweeps / stats::median(el),
                                           log_z = res$log_z)
}
time_it("plain R (BLAS products)", NA, function() plain_r_ais(model, sched, M))
for (kernel in c("dense", "sparse", "auto")) for (th in 1:2) {
  time_it(sprintf("ais(kernel = \"%s\")", kernel), th,
          function() ais(model, sched, n_chains = M, threads = th, kernel = kernel,
                         progress = FALSE))
}
tab <- do.call(rbind, rows)
tab$vs_plain_R <- tab$chain_sweeps_per_s / tab$chain_sweeps_per_s[1]
cat(sprintf("Throughput, %d chains, %d-step linear schedule (%d sweeps per chain):\n", M, K, K - 1))
print(format(tab, digits = 4), row.names = FALSE)
auto2 <- tab$chain_sweeps_per_s[tab$implementation == "ais(kernel = \"auto\")" & tab$threads %in% 2]
auto2_med <- tab$median_per_s[tab$implementation == "ais(kernel = \"auto\")" & tab$threads %in% 2]
cat(sprintf(paste0("\nais(kernel = \"auto\", threads = 2): %.0f chain-sweeps/s best, %.0f median = ",
                   "%.1fx plain R (targets: 25,000/s and 4x)\n"),
            auto2, auto2_med, auto2 / tab$chain_sweeps_per_s[1]))

# Accuracy at matched schedule: the C and plain-R estimators on a longer run.
set.seed(7)
fit <- ais(model, schedule_sm08(3000), n_chains = M, threads = 2, progress = FALSE)
set.seed(7)
pr <- plain_r_ais(model, as.double(schedule_sm08(3000)), M)
cat(sprintf("\nsm08(3000) schedule: ais() log Z %.3f (se %.3f, ESS %.1f) in %.1f s; plain R %.3f\n",
            fit$log_z, fit$se, fit$ess, fit$time, pr$log_z))
