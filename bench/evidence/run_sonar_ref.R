# The reference log Z of the Sonar logistic regression of common.R: two long
# runs by different methods, AIS (HMC from the Laplace base, 1000 linear
# steps, 400 chains, 4 independent runs) and bridge sampling on 20,000 HMC
# draws (4 independent runs). They must agree within their errors; the
# reference (bench/evidence/sonar_reference.rds) is the inverse-variance
# weighted mean of the two. Run from the package root:
#   Rscript bench/evidence/run_sonar_ref.R
source("bench/evidence/common.R")
bench_header("evidence benchmark: Sonar reference log Z")
tg <- model_sonar()
t0 <- proc.time()
ais_runs <- vapply(1:4, function(s) {
  set.seed(100 + s)
  fit <- ais(tg$f, gradient = tg$g, vectorized = TRUE, start = tg$start,
             schedule = schedule_linear(1000), n_chains = 400, progress = FALSE)
  cat(sprintf("AIS run %d: %.4f (se %.4f, ESS %.0f of 400)\n", s, fit$log_z, fit$se, fit$ess))
  fit$log_z
}, 0)
bridge_runs <- vapply(1:4, function(s) {
  set.seed(200 + s)
  h <- hmc_draws(tg, draws = 20000L, chains = 20L, warmup = 500L)
  b <- bridge_on_draws(tg, h$x)
  cat(sprintf("bridge run %d: %.4f (error_measures cv %.4f)\n", s, b$log_z, b$se))
  b$log_z
}, 0)
m <- c(ais = mean(ais_runs), bridge = mean(bridge_runs))
se <- c(ais = sd(ais_runs) / 2, bridge = sd(bridge_runs) / 2)
w <- 1 / se^2
ref <- sum(w * m) / sum(w)
cat(sprintf("\nAIS    %.4f (se %.4f over 4 runs)\nbridge %.4f (se %.4f over 4 runs)\n", m[1], se[1], m[2], se[2]))
cat(sprintf("difference %.4f, z = %.2f\nreference log Z %.4f (se %.4f)\n", m[1] - m[2],
            (m[1] - m[2]) / sqrt(sum(se^2)), ref, 1 / sqrt(sum(w))))
saveRDS(list(log_z = ref, se = 1 / sqrt(sum(w)), ais = ais_runs, bridge = bridge_runs),
        "bench/evidence/sonar_reference.rds")
cat(sprintf("CPU %.0f s\n", sum((proc.time() - t0)[c(1, 2)])))
