# Ising models: constructor checks, generators, print and summary, and ais() on
# them against exact log Z (exact inference is in test-exact.R, test-junction_tree.R,
# Gibbs sampling in test-gibbs_sample.R).

test_that("ising() builds models from data frames and weight matrices", {
  e <- data.frame(from = c(1, 2, 1), to = c(2, 3, 3), weight = c(0.5, -0.25, 1))
  m <- ising(e, field = c(0.1, 0.2, 0.3))
  expect_s3_class(m, "ising")
  expect_identical(m$n, 3L)
  expect_identical(m$edges$from, c(1L, 2L, 1L))
  expect_identical(m$values, c(-1, 1))
  expect_null(m$colour)                       # a triangle is not bipartite
  W <- matrix(0, 3, 3)
  W[cbind(e$from, e$to)] <- e$weight
  W <- W + t(W)
  m2 <- ising(W, field = c(0.1, 0.2, 0.3), spins = "01")
  expect_identical(m2$values, c(0, 1))
  expect_equal(exact_log_z(m2), brute_force(m2)$log_z, tolerance = 1e-12)
  expect_equal(sort(paste(m2$edges$from, m2$edges$to, m2$edges$weight)),
               sort(paste(e$from, e$to, e$weight)))
  # n from the largest index; no edges at all
  expect_identical(ising(data.frame(from = 1, to = 4, weight = 1))$n, 4L)
  m0 <- ising(NULL, field = c(0.3, -1.2))
  expect_equal(exact_log_z(m0), sum(log(exp(-m0$field) + exp(m0$field))), tolerance = 1e-12)
})

test_that("bad input gives errors that name the argument", {
  e <- data.frame(from = c(1, 2), to = c(2, 3), weight = c(0.5, 0.5))
  expect_error(ising(rbind(e, data.frame(from = 3, to = 3, weight = 1))),
               "`edges` row 3 is a self edge")
  expect_error(ising(rbind(e, data.frame(from = 1, to = 2, weight = 1))),
               "`edges` rows 1 and 3 both couple nodes 1 and 2 \\(a duplicate\\)")
  expect_error(ising(rbind(e, data.frame(from = 3, to = 2, weight = 1))),
               "`edges` rows 2 and 3 .*reversed duplicate")
  expect_error(ising(transform(e, weight = c(NA, 1))), "`edges\\$weight` must not contain NA")
  expect_error(ising(transform(e, weight = c(Inf, 1))), "`edges\\$weight` must not contain")
  expect_error(ising(e, n = 2), "`edges\\$to` must hold node indices in 1..2")
  expect_error(ising(transform(e, from = c(0, 1))), "`edges\\$from` must hold node indices")
  expect_error(ising(transform(e, from = c(1.5, 1))), "`edges\\$from` must hold whole")
  expect_error(ising(e[, 1:2]), "`edges` must have columns from, to and weight; missing: weight")
  expect_error(ising(list(1, 2)), "`edges` must be a data frame")
  expect_error(ising(e, field = c(1, 2), n = 3), "`field` must have length 3")
  expect_error(ising(e, field = c(1, NA, 2)), "`field` must not contain NA")
  W <- matrix(c(0, 1, 0.5, 0), 2, 2)
  expect_error(ising(W), "`edges` must be a symmetric weight matrix")
  expect_error(ising(diag(2)), "`edges` has a self edge")
  expect_error(ising(e, spins = "binary"), "`spins`")
  expect_error(ising_grid(0, 3), "`rows` must be a whole number")
  expect_error(ising_grid(3, 3, coupling = -1), "`coupling` must be a finite number")
  expect_error(ising_random(4, n_edges = 7), "`n_edges` must be a whole number between 0 and 6")
  # too large for enumeration / junction tree
  big <- ising_random(30, n_edges = 40)
  expect_error(exact_log_z(big, method = "enumerate"),
               "`model` has n = 30 variables: enumeration needs 2\\^30 states.*`max_states`")
  expect_error(exact_log_z(ising_clique(24), method = "junction_tree", max_treewidth = 10),
               "`model` has treewidth up to 23 .*`max_treewidth` = 10")
  expect_error(exact_log_z(ising_clique(30), max_treewidth = 10),
               "`model` is too large for exact inference: n = 30 .*width 29 > `max_treewidth`")
  expect_error(exact_log_z(ising_clique(70), method = "junction_tree"),
               "`model` has treewidth more than 60 .*`max_treewidth` = 20")
  expect_error(exact_log_z(ising_clique(70)), "n = 70 .*width more than 60 > `max_treewidth`")
  expect_error(exact_log_z(ising_grid(70, 70), method = "junction_tree"),
               "`model` has treewidth more than 60")
  expect_error(exact_log_z(ising_clique(12), max_states = 2^8, method = "enumerate"),
               "`max_states` = 256")
  expect_error(exact_marginals(1:3), "does not know how to handle `model`")
  m <- ising_grid(2, 2)
  expect_error(gibbs_sample(m, 0), "`n` must be a whole number")
  expect_error(gibbs_sample(m, 5, init = c(1, 0, 1, 1)), "`init` must hold only the spin values")
  expect_error(gibbs_sample(m, 5, init = c(1, 1)), "`init` must have length 4")
  expect_error(ais(m, n_chains = 0, progress = FALSE), "`n_chains` must be a whole number")
  expect_error(ais(m, base = "flat", progress = FALSE), "`base` must be NULL")
  expect_error(ais(m, base = 1:3, progress = FALSE), "`base` must have length 4")
})

test_that("generators build the paper models", {
  set.seed(1)
  g <- ising_grid(3, 4, coupling = 0.7, field = 0.2)
  expect_identical(nrow(g$edges), 3L * 3L + 4L * 2L)
  expect_true(all(g$edges$weight >= 0 & g$edges$weight <= 0.7))
  expect_true(all(abs(g$field) <= 0.2))
  # row-major numbering: horizontal neighbours differ by 1, vertical by cols
  expect_setequal(unique(abs(g$edges$to - g$edges$from)), c(1L, 4L))
  # checkerboard colouring is a proper 2-colouring
  expect_false(is.null(g$colour))
  expect_true(all(g$colour[g$edges$from] != g$colour[g$edges$to]))
  mx <- ising_grid(3, 3, coupling = 2, type = "mixed")
  expect_true(all(abs(mx$edges$weight) <= 2) && any(mx$edges$weight < 0))
  cst <- ising_grid(2, 3, coupling = 0.3, field = -0.1, type = "constant", spins = "01")
  expect_true(all(cst$edges$weight == 0.3) && all(cst$field == -0.1))
  k <- ising_clique(7)
  expect_identical(nrow(k$edges), 21L)
  r <- ising_random(40, n_edges = 60)
  expect_identical(nrow(r$edges), 60L)
  expect_true(all(r$edges$from < r$edges$to))
  expect_false(anyDuplicated(paste(r$edges$from, r$edges$to)) > 0)
  # every pair can be drawn: the full set of pairs decodes correctly
  full <- ising_random(9, n_edges = 36)
  expect_setequal(paste(full$edges$from, full$edges$to),
                  paste(ising_clique(9)$edges$from, ising_clique(9)$edges$to))
})

test_that("print and summary methods", {
  m <- ising(data.frame(from = c(1, 2), to = c(2, 3), weight = c(0.5, -0.25)),
             field = c(0.1, 0, -0.1))
  expect_snapshot(print(m))
  expect_snapshot(summary(m))
  utils::capture.output(v <- withVisible(print(m)))
  expect_false(v$visible)
  expect_identical(v$value, m)
})

test_that("AIS is within its standard error of exact log Z", {
  set.seed(17)
  m <- ising_random(20, n_edges = 40, coupling = 0.6, field = 0.4, type = "mixed")
  lz <- exact_log_z(m, method = "enumerate")
  fit <- ais(m, schedule_linear(500), n_chains = 100, progress = FALSE)
  expect_s3_class(fit, c("logz_ais", "logz_estimate"))
  # the delta-method se is an honest scale: fail beyond 4 se (AIS's downward
  # bias is O(se^2), negligible here), and require a precise run
  expect_lt(fit$se, 0.05)
  expect_lt(abs(fit$log_z - lz), 4 * fit$se)
  expect_equal(fit$log_z0, sum(log(exp(-m$field) + exp(m$field))))

  g <- ising_grid(10, 10, coupling = 0.5, field = 0.2)
  lzg <- exact_log_z(g)                                   # junction tree truth
  fg <- ais(g, schedule_linear(1000), n_chains = 100, progress = FALSE)
  expect_lt(fg$se, 0.05)
  expect_lt(abs(fg$log_z - lzg), 4 * fg$se)
  fu <- ais(g, schedule_linear(1000), n_chains = 100, base = "uniform", progress = FALSE)
  expect_equal(fu$log_z0, 100 * log(2))
  expect_lt(abs(fu$log_z - lzg), 4 * fu$se)
  expect_identical(nrow(fg$diagnostics), 1000L)
  expect_identical(fg$counts[["gibbs_sweeps"]], 999 * 100)
  grDevices::pdf(NULL)
  expect_silent(plot(fg, type = "ess"))
  grDevices::dev.off()

  # 0/1 spins and an explicit base field
  m01 <- ising_random(14, n_edges = 25, coupling = 1, field = 0.5, type = "mixed", spins = "01")
  f01 <- ais(m01, schedule_linear(500), n_chains = 100, base = rep(0.1, 14), progress = FALSE)
  expect_lt(abs(f01$log_z - exact_log_z(m01)), 4 * f01$se)
})

test_that("AIS is reproducible and independent of threads", {
  g <- ising_grid(6, 6, coupling = 0.5, field = 0.2)
  set.seed(18)
  a <- ais(g, schedule_linear(150), n_chains = 20, threads = 1, progress = FALSE)
  set.seed(18)
  b <- ais(g, schedule_linear(150), n_chains = 20, threads = 2, progress = FALSE)
  expect_identical(a$log_weights, b$log_weights)
  expect_identical(a$diagnostics, b$diagnostics)
  assign(".Random.seed", a$seed, envir = globalenv())
  c <- ais(g, schedule_linear(150), n_chains = 20, progress = FALSE)
  expect_identical(c$log_weights, a$log_weights)
})
