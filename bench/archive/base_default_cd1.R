# Why default ais() is 1.2 to 1.45 nats low on Kiwaki's CD-1 784 x 20 MNIST RBM
# (bench/models/rbm20_cd1_v1.rds, a copy of the rbm20_cd1.rds studied in issue
# 14) from every base, with ESS near M: which mode it misses, and how long
# AIS must run to find it.
# 1. Exact hidden marginal by enumeration of the 2^20 hidden states:
#    f(h) = exp(b'h) prod_i (1 + exp(a_i + W_i h)), Z = sum_h f(h).
# 2. Default ais() (schedule_sm08(), 100 chains) from the data, model and mode
#    bases: where its final states sit (the hidden state argmax p(h | v) of each
#    chain, tabulated over the four states of largest mass; "other" = the
#    rest), and the error.
# 3. Longer AIS from the model base: 10^5 steps x 30 chains, 10^6 steps x 10.
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/archive/base_default_cd1.R > bench/archive/base_default_cd1.out 2>&1
suppressPackageStartupMessages(library(logz))
cat(sprintf("logz base_default_cd1 bench, %s\nLAPACK: %s; BLAS: %s\n", format(Sys.time()),
            La_library(), extSoftVersion()[["BLAS"]]))
x <- readRDS("bench/models/rbm20_cd1_v1.rds")
m <- rbm(x$model$W, x$model$a, x$model$b)
nh <- m$n_hidden
codes <- 0:(2^nh - 1)
lf <- numeric(2^nh)
for (s in seq(0, 2^nh - 1, by = 2^15)) {
  idx <- s:(s + 2^15 - 1)
  H <- vapply(0:(nh - 1), function(j) (idx %/% 2^j) %% 2, numeric(length(idx)))
  lf[idx + 1] <- logz:::rbm_log_f_hidden(m, t(H))
}
lz <- logz:::log_sum_exp(lf)
cat(sprintf("\nexact log Z by enumeration of the hidden states: %.4f (file: %.4f)\n", lz, x$log_z))
p <- exp(lf - lz)
top <- order(-p)[1:4] - 1
cat("hidden states of largest mass (share of Z; units on; visible entropy of p(v | h), nats):\n")
for (k in top) {
  h <- (k %/% 2^(0:(nh - 1))) %% 2
  pv <- plogis(drop(m$W %*% h) + m$a)
  ent <- -sum(pv * log(pv) + (1 - pv) * log1p(-pv))
  cat(sprintf("  h = %7d: share %.3f, %d units on {%s}, mean p(v_i) %.3f, entropy %.1f\n", k, p[k + 1],
              sum(h), paste(which(h == 1), collapse = ","), mean(pv), ent))
}
cat(sprintf("  the four hold %.3f of Z; the top 100 %.5f\n", sum(p[top + 1]),
            sum(sort(p, decreasing = TRUE)[1:100])))
occupancy <- function(V) {
  H <- (crossprod(m$W, V) + m$b) > 0
  code <- drop(colSums(H * 2^(0:(nh - 1))))
  t <- vapply(top, function(k) mean(code == k), 0)
  sprintf("%s other %.2f", paste(sprintf("%d: %.2f", top, t), collapse = ", "), 1 - sum(t))
}
run <- function(label, model, base, steps, chains) {
  set.seed(1)
  b <- suppressWarnings(logz:::resolve_base(model, base))
  t0 <- proc.time()[["elapsed"]]
  r <- logz:::ais_rbm_engine(model, as.double(schedule_sm08(steps)), chains, 1L, b$bias)
  w <- r$log_w
  est <- r$log_z0 + max(w) + log(mean(exp(w - max(w))))
  ess <- sum(exp(w - max(w)))^2 / sum(exp(2 * (w - max(w))))
  cat(sprintf("%-22s %8d %6d %+8.3f %6.1f %6.2f %6.0f  %s\n", label, steps, chains, est - lz, ess,
              stats::sd(w), proc.time()[["elapsed"]] - t0, occupancy(r$V)))
}
cat("\nforward AIS (schedule_sm08(steps)); final states tabulated by argmax p(h | v)\n")
cat(sprintf("%-22s %8s %6s %8s %6s %6s %6s  %s\n", "base", "steps", "chains", "error", "ESS",
            "sd(lw)", "time", "final states in the hidden states above"))
run("data (base rates)", x$model, "data", 14500, 100)
run("model (Gibbs marginals)", m, "model", 14500, 100)
run("mode", m, "mode", 14500, 100)
run("model", m, "model", 1e5, 30)
run("model", m, "model", 1e6, 10)
set.seed(2)
hs <- sample(codes, 100, replace = TRUE, prob = p)
cat(sprintf("(exact draws for comparison: %s)\n",
            occupancy(matrix(as.double(runif(784 * 100) < plogis(m$W %*% vapply(hs, function(k)
              (k %/% 2^(0:(nh - 1))) %% 2, numeric(nh)) + m$a)), 784))))
