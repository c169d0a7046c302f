test_that("rgumbel draws Gumbel(location) and is reproducible", {
  set.seed(11)
  g <- rgumbel(5000, location = 1.5)
  expect_gt(suppressWarnings(ks.test(g, pgumbel, location = 1.5))$p.value, 1e-3)
  expect_equal(mean(g) - 0.5772157, 1.5, tolerance = 4 * pi / sqrt(6 * 5000), ignore_attr = TRUE)
  set.seed(11)
  expect_identical(rgumbel(5000, location = 1.5), g)
  expect_equal(rgumbel(3, location = -Inf), rep(-Inf, 3))
  expect_length(rgumbel(0), 0)
})

test_that("rtruncgumbel stays below the bound and has the truncated CDF", {
  set.seed(12)
  b <- 0.3
  g <- rtruncgumbel(5000, location = 1, bound = b)
  expect_true(all(g <= b))
  ptr <- function(q) pgumbel(pmin(q, b), 1) / pgumbel(b, 1)
  expect_gt(ks.test(g, ptr)$p.value, 1e-3)
  # with a scale: the truncated CDF of Gumbel(1, 2.5), and scale 1 is the old draw
  set.seed(13)
  g <- rtruncgumbel(5000, location = 1, bound = b, scale = 2.5)
  expect_true(all(g <= b))
  ptr_s <- function(q) pgumbel(pmin(q, b), 1, 2.5) / pgumbel(b, 1, 2.5)
  expect_gt(ks.test(g, ptr_s)$p.value, 1e-3)
  expect_lt(ks.test(g, ptr)$p.value, 1e-3)   # the scale matters
  set.seed(14)
  a <- rtruncgumbel(10, location = 1, bound = b)
  set.seed(14)
  expect_identical(rtruncgumbel(10, location = 1, bound = b, scale = 1), a)
  expect_error(rtruncgumbel(3, 0, 1, scale = -1), "`scale` must be positive")
  # the stable form: a bound far below the location (naive inversion gives -Inf/NaN)
  g <- rtruncgumbel(2000, location = 0, bound = -60)
  expect_true(all(is.finite(g)) && all(g <= -60))
  # far below the location, P(G <= b - t | G <= b) = exp(-e^(m - b) (e^t - 1)):
  # the draws sit within about e^(b - m) = e^-60 of the bound
  expect_true(all(-60 - g < 1e-20))
  g <- rtruncgumbel(5000, location = 0, bound = -2)
  expect_gt(ks.test(g, function(q) exp(-(exp(-pmin(q, -2)) - exp(2))))$p.value, 1e-3)
  # bound = Inf means no truncation; recycled locations and bounds
  set.seed(1)
  a <- rtruncgumbel(4, location = c(0, 10), bound = Inf)
  set.seed(1)
  expect_identical(a, rgumbel(4, location = c(0, 10)))
  g <- rtruncgumbel(6, location = 0, bound = c(-1, 1, 5))
  expect_true(all(g <= rep(c(-1, 1, 5), 2)))
})

test_that("dgumbel and pgumbel agree with each other and with the closed forms", {
  expect_equal(integrate(dgumbel, -Inf, Inf, location = 2)$value, 1, tolerance = 1e-6)
  expect_equal(integrate(dgumbel, -Inf, 0.7, location = 2)$value, pgumbel(0.7, 2), tolerance = 1e-6)
  expect_equal(pgumbel(0), exp(-1))
  expect_equal(pgumbel(0.5, lower.tail = FALSE), 1 - pgumbel(0.5))
  expect_equal(pgumbel(3, log.p = TRUE), log(pgumbel(3)))
  expect_equal(pgumbel(40, lower.tail = FALSE, log.p = TRUE), -40, tolerance = 1e-12)
  expect_equal(dgumbel(1, 1, log = TRUE), -1)
  expect_equal(dgumbel(c(-Inf, Inf)), c(0, 0))
})

test_that("Gumbel functions reject bad input, naming the argument", {
  expect_error(rgumbel(-1), "`n`")
  expect_error(rgumbel(2.5), "`n`")
  expect_error(rgumbel(2, location = NA), "`location`")
  expect_error(rgumbel(2, location = Inf), "`location`")
  expect_error(rgumbel(2, location = "a"), "`location`")
  expect_error(rtruncgumbel(2, 0), "`bound`")
  expect_error(rtruncgumbel(2, 0, bound = NaN), "`bound`")
  expect_error(pgumbel(1, lower.tail = NA), "`lower.tail`")
  expect_error(dgumbel(1, log = "yes"), "`log`")
})

test_that("the scale parameter matches the closed forms (evd/VGAM parametrisation)", {
  # closed forms: F(q) = exp(-exp(-(q - m)/s)), f = F(q) exp(-(q - m)/s) / s
  q <- c(-3, -0.5, 0, 1.2, 4, 9)
  m <- 1
  s <- 2.5
  z <- (q - m) / s
  expect_equal(pgumbel(q, m, s), exp(-exp(-z)))
  expect_equal(dgumbel(q, m, s), exp(-z - exp(-z)) / s)
  expect_equal(dgumbel(q, m, s, log = TRUE), -z - exp(-z) - log(s))
  expect_equal(pgumbel(q, m, s, lower.tail = FALSE), -expm1(-exp(-z)))
  expect_equal(integrate(dgumbel, -Inf, Inf, location = m, scale = s)$value, 1, tolerance = 1e-6)
  expect_equal(integrate(dgumbel, -Inf, 2, location = m, scale = s)$value, pgumbel(2, m, s),
               tolerance = 1e-6)
  expect_equal(pgumbel(1, scale = c(1, 2, 4)), exp(-exp(-1 / c(1, 2, 4))))
  # draws: KS against the CDF; mean m + s gamma and sd s pi / sqrt(6)
  set.seed(31)
  g <- rgumbel(5000, location = m, scale = s)
  expect_gt(ks.test(g, pgumbel, location = m, scale = s)$p.value, 1e-3)
  expect_equal(mean(g), m + s * 0.5772157, tolerance = 5 * s * pi / sqrt(6 * 5000) / abs(m + s * 0.58))
  # scale = 1 is the old parametrisation, draw for draw; the scaled draws are m + s Z
  set.seed(32)
  a <- rgumbel(10, location = 3)
  set.seed(32)
  expect_identical(rgumbel(10, location = 3, scale = 1), a)
  set.seed(32)
  expect_equal(rgumbel(10, location = 3, scale = 2), 3 + 2 * (a - 3))
  expect_error(rgumbel(3, scale = 0), "`scale` must be positive")
  expect_error(dgumbel(1, scale = -1), "`scale` must be positive")
  expect_error(pgumbel(1, scale = "a"), "`scale` must be a non-empty numeric")
  expect_equal(dgumbel(1, scale = NA_real_), NA_real_)
})

test_that("pgumbel and dgumbel keep full precision in the far tails", {
  # log P(G > z) = log(1 - exp(-e^-z)), to 20 digits (mpmath, 40 digits)
  ref <- c(`0.5` = -0.78798373870444865016, `20` = -20.000000001030576811,
           `30.5` = -30.500000000000028378, `35` = -35.000000000000000315)
  z <- as.numeric(names(ref))
  expect_equal(pgumbel(z, lower.tail = FALSE, log.p = TRUE), unname(ref), tolerance = 1e-15)
  # beyond z = 40 it is -z to double precision; e^-z is subnormal near 708
  # and 0 after 745, where log(1 - exp(-e^-z)) gave -739.9974 and -Inf
  far <- c(40, 700, 740, 800, 1e5, 1e300)
  expect_equal(pgumbel(far, lower.tail = FALSE, log.p = TRUE), -far, tolerance = 1e-15)
  expect_equal(pgumbel(1e6, location = 1e6 - 800, lower.tail = FALSE, log.p = TRUE), -800)
  expect_equal(pgumbel(800, lower.tail = FALSE), 0)
  expect_equal(pgumbel(30, lower.tail = FALSE), -expm1(-exp(-30)))
  # the left tail: log P(G <= z) = -e^-z, exactly representable up to e^709
  expect_equal(pgumbel(-700, log.p = TRUE), -exp(700))
  expect_equal(pgumbel(-710, log.p = TRUE), -Inf)
  expect_equal(dgumbel(c(800, 1e300), log = TRUE), -c(800, 1e300))
  expect_equal(dgumbel(-700, log = TRUE), 700 - exp(700))
  expect_true(all(is.na(pgumbel(c(NA, NaN), lower.tail = FALSE, log.p = TRUE))))
})
