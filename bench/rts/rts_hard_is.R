# Importance-sampling reference log Z for the hard 784 x 500 RBM of
# bench/rts/rts_hard.R (bench/models/rbm500_cd25.rds), issue 14. The model puts
# about 90% of its mass on the blank image (log f(0) = 541.99 against
# log Z = 542.08), so a proposal around the blank image works: each pixel i is
# on independently with the probability p_i = P(v_i = 1 | all other pixels off)
# = plogis(log f(e_i) - log f(0)) of the model itself, in a defensive mixture
# with the same product at 4 p_i (so near-blank states with several co-active
# pixels are not under-proposed): q(v) = (Bern(p) + Bern(min(4 p, 0.5))) / 2.
# log f(v) = a'v + sum_j softplus(b_j + W_j'v) (hidden units summed out).
# log Z = log mean(f / q), se by the delta method; the ESS and the largest
# weight's share are printed too. Far-away digit-like states (78 nats below
# log Z in bench/rts/rts_hard.R's outlier chain) carry no mass to this precision.
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 Rscript bench/rts/rts_hard_is.R [N] > bench/rts/rts_hard_is.out
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
N <- if (length(args)) as.numeric(args[1]) else 4e6
chunk <- 2e5
set.seed(542)
model <- readRDS("bench/models/rbm500_cd25.rds")$model
cat(sprintf("logz %s; R %s; BLAS: %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
            extSoftVersion()[["BLAS"]], La_library()))
W <- model$W
a <- model$a
b <- model$b
nv <- nrow(W)
sp <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))
lf0 <- sum(sp(b))
lf1 <- a + vapply(seq_len(nv), function(i) sum(sp(b + W[i, ])), 0)
p1 <- stats::plogis(lf1 - lf0)
p2 <- pmin(4 * p1, 0.5)
cat(sprintf("log f(blank) = %.4f; sum p = %.4f (expected pixels on under Bern(p))\n", lf0, sum(p1)))
# log q(v) for a sparse v given as the list of its active pixels per sample
lq0 <- c(sum(log1p(-p1)), sum(log1p(-p2)))
lr1 <- log(p1) - log1p(-p1)
lr2 <- log(p2) - log1p(-p2)
t0 <- proc.time()[[3]]
lw <- numeric(0)
n_done <- 0
while (n_done < N) {
  n <- min(chunk, N - n_done)
  comp <- stats::runif(n) < 0.5
  p_use <- cbind(p1, p2)
  # draw the active pixels of each sample: per pixel, which samples have it on
  rows <- integer(0)
  cols <- integer(0)
  for (i in seq_len(nv)) {
    on <- which(stats::runif(n) < ifelse(comp, p1[i], p2[i]))
    if (length(on)) {
      rows <- c(rows, rep.int(i, length(on)))
      cols <- c(cols, on)
    }
  }
  lf <- rep(lf0, n)
  lqa <- rep(lq0[1], n)
  lqb <- rep(lq0[2], n)
  nz <- sort(unique(cols))
  if (length(nz)) {
    idx <- match(cols, nz)
    V <- matrix(0, nv, length(nz))
    V[cbind(rows, idx)] <- 1
    X <- crossprod(W, V) + b
    lf[nz] <- drop(crossprod(V, a)) + colSums(sp(X))
    lqa[nz] <- lq0[1] + drop(crossprod(V, lr1))
    lqb[nz] <- lq0[2] + drop(crossprod(V, lr2))
  }
  lq <- pmax(lqa, lqb) + log1p(exp(-abs(lqa - lqb))) - log(2)
  lw <- c(lw, lf - lq)
  n_done <- n_done + n
}
m <- max(lw)
w <- exp(lw - m)
log_z <- m + log(mean(w))
se <- stats::sd(w) / (sqrt(length(w)) * mean(w))
ess <- sum(w)^2 / sum(w^2)
cat(sprintf("N = %s draws in %.0f s; ESS = %.0f (%.1f%% of N); largest weight share %.2e\n",
            format(N, big.mark = ","), proc.time()[[3]] - t0, ess, 100 * ess / N, max(w) / sum(w)))
cat(sprintf("share of the mass on the blank image: f(0) / Z = %.4f\n", exp(lf0 - log_z)))
cat(sprintf("log Z (importance sampling around the blank image) = %.4f nats, se %.4f nats\n",
            log_z, se))
# the two halves agree within their se?
h <- split(lw, rep(1:2, each = ceiling(length(lw) / 2))[seq_along(lw)])
hz <- vapply(h, function(x) max(x) + log(mean(exp(x - max(x)))), 0)
cat(sprintf("halves: %.4f and %.4f\n", hz[1], hz[2]))
saveRDS(list(log_z = log_z, se = se, N = N, ess = ess), "bench/rts/rts_hard_is.rds")
