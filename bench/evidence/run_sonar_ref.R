# The reference log Z of the Sonar logistic regression of common.R: two long
# runs by different methods, AIS (HMC from the Laplace base, 1000 linear
# steps, 400 chains) and bridge sampling on 20,000 HMC draws, `n_runs`
# independent runs each (default 1); the se of each mean is from the runs' own se
# (AIS: the weights; bridge sampling: error_measures()). They must agree within their errors; the
# reference (bench/evidence/sonar_reference.rds) is the inverse-variance
# weighted mean of the two. Run from the package root:
#   Rscript bench/evidence/run_sonar_ref.R [n_runs]
source("bench/evidence/common.R")
bench_header("evidence benchmark: Sonar reference log Z")
tg <- model_sonar()
n_runs <- if (length(commandArgs(TRUE))) as.integer(commandArgs(TRUE)[1]) else 1L
t0 <- proc.time()
ais_runs <- sapply(seq_len(n_runs), function(s) {
  set.seed(100 + s)
  fit <- ais(tg$f, gradient = tg$g, vectorized = TRUE, start = tg$start,
             schedule = schedule_linear(1000), n_chains = 400, progress = FALSE)
  cat(sprintf("AIS run %d: %.4f (se %.4f, ESS %.0f of 400)\n", s, fit$log_z, fit$se, fit$ess))
  c(log_z = fit$log_z, se = fit$se)
})
bridge_runs <- sapply(seq_len(n_runs), function(s) {
  set.seed(200 + s)
  h <- hmc_draws(tg, draws = 20000L, chains = 20L, warmup = 500L)
  b <- bridge_on_draws(tg, h$x)
  cat(sprintf("bridge run %d: %.4f (error_measures cv %.4f)\n", s, b$log_z, b$se))
  c(log_z = b$log_z, se = b$se)
})
m <- c(ais = mean(ais_runs["log_z", ]), bridge = mean(bridge_runs["log_z", ]))
se <- c(ais = sqrt(sum(ais_runs["se", ]^2)), bridge = sqrt(sum(bridge_runs["se", ]^2))) / n_runs
w <- 1 / se^2
ref <- sum(w * m) / sum(w)
cat(sprintf("\nAIS    %.4f (se %.4f, %d runs)\nbridge %.4f (se %.4f, %d runs)\n", m[1], se[1], n_runs, m[2], se[2], n_runs))
cat(sprintf("difference %.4f, z = %.2f\nreference log Z %.4f (se %.4f)\n", m[1] - m[2],
            (m[1] - m[2]) / sqrt(sum(se^2)), ref, 1 / sqrt(sum(w))))
saveRDS(list(log_z = ref, se = 1 / sqrt(sum(w)), ais = ais_runs, bridge = bridge_runs),
        "bench/evidence/sonar_reference.rds")
cat(sprintf("CPU %.0f s\n", sum((proc.time() - t0)[c(1, 2)])))
