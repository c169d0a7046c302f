# Why RAISE's implied log Z can fall below the truth on real data (the anomaly
# seen in bench/rts/rts_vs_ais.out, where RAISE on 100 test digits came out below
# the reference log Z of a 784 x 100 RBM at every budget).
#
# RAISE's p_hat(v) is unbiased for p_ann(v), the distribution of the forward
# annealing chain (the "annealed model"), not for the model p(v) (checked state
# by state in tests/testthat/test-raise.R). So its implied log Z,
# -F(v) - log p_hat(v), is above log Z on average only where the annealed
# model fits v no better than the model: E_q[log p_ann - log p] = KL(q || p) -
# KL(q || p_ann), which is -KL(p || p_ann) <= 0 for v drawn from the model
# itself (q = p), but can be positive for digits (q = data) when the model puts
# mass the annealing chain does not reach (spurious modes away from the data).
#
# The experiment: on the 20-hidden PCD MNIST RBM of bench/varopt/schedules.R (exact
# log Z by enumeration), RAISE's implied log Z from (a) 200 test digits and (b)
# 200 exact samples of the model (h from its exact marginal over the 2^20
# hidden states, then v | h), beside AIS, at K = 100, 1000, 10000 linear steps.
# Run: Rscript bench/archive/raise_annealed.R > bench/archive/raise_annealed.out (about 10 min)
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
fit <- readRDS("bench/models/rbm20_pcd.rds")   # from bench/training/train_rbm20.R
m <- fit$model
log_z <- fit$log_z
cat(sprintf("PCD(20) RBM (%d updates); exact log Z = %.4f\n", fit$updates, log_z))

# exact samples: log p(h) = h'b + sum_i softplus(a_i + W_i h) - log Z over 2^20 h
set.seed(7)
n <- 200L
nh <- m$n_hidden
H <- as.matrix(expand.grid(rep(list(0:1), nh)))
lp <- numeric(nrow(H))
blocks <- split(seq_len(nrow(H)), ceiling(seq_len(nrow(H)) / 65536))
for (rows in blocks) {
  X <- sweep(H[rows, , drop = FALSE] %*% t(m$W), 2, m$a, "+")
  lp[rows] <- H[rows, , drop = FALSE] %*% m$b + rowSums(pmax(X, 0) + log1p(exp(-abs(X))))
}
cat(sprintf("log-sum-exp over hidden states - exact log Z = %.2e (check)\n",
            max(lp) + log(sum(exp(lp - max(lp)))) - log_z))
hs <- H[sample.int(nrow(H), n, replace = TRUE, prob = exp(lp - max(lp))), , drop = FALSE]
P <- plogis(sweep(hs %*% t(m$W), 2, m$a, "+"))
model_samples <- (matrix(runif(length(P)), nrow(P)) < P) * 1
digits <- mnist$x[9001:(9000 + n), ]
rm(H, lp)

rows <- list()
for (K in c(100L, 1000L, 10000L)) {
  s <- schedule_linear(K)
  a <- ais(m, s, n_chains = n, progress = FALSE)
  rd <- raise(m, digits, s, n_chains = 1, progress = FALSE)
  rs <- raise(m, model_samples, s, n_chains = 1, progress = FALSE)
  rows[[length(rows) + 1L]] <- data.frame(
    K = K, ais = a$log_z - log_z, ais_se = a$se,
    raise_digits = rd$log_z - log_z, digits_se = rd$se,
    raise_model = rs$log_z - log_z, model_se = rs$se)
}
tab <- do.call(rbind, rows)
cat(sprintf("\nEstimate - exact log Z (%d AIS chains; RAISE: one chain per point, %d points)\n",
            n, n))
print(format(tab, digits = 3), row.names = FALSE)
cat("\nAIS is below the truth and RAISE on model samples above it, as the sandwich",
    "requires;\nRAISE on digits falls below the truth where the annealed model puts",
    "more mass on digits than the model does.\n")
