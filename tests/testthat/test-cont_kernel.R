# The kernels of the continuous samplers (random-walk Metropolis, MALA, HMC)
# leave the target invariant.

test_that("MALA and HMC leave the target invariant: base = target keeps exact draws (KS)", {
  # f_beta is the target for every beta, so the final states are exact draws
  # only if the kernel leaves the target invariant
  f <- function(X) -rowSums((X - 1)^2) / (2 * 0.5^2)
  g <- function(X) -(X - 1) / 0.5^2
  for (k in c("mala", "hmc")) {
    set.seed(31)
    fit <- ais(f, proposal_normal(c(1, 1), 0.5), schedule = schedule_linear(30), n_chains = 400,
               gradient = g, kernel = k, vectorized = TRUE, step_size = 0.9, adapt = "none",
               progress = FALSE)
    expect_gt(mean(fit$diagnostics$accept, na.rm = TRUE), 0.3)
    for (j in 1:2) expect_gt(suppressWarnings(ks.test(fit$x[, j], "pnorm", 1, 0.5))$p.value, 1e-3)
    expect_lt(abs(fit$log_z - log(2 * pi * 0.25)), 1e-8)
  }
})
