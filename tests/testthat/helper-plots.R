# One object of every class with a plot() method, built once (test-plot.R,
# test-plot_samples.R, test-autoplot.R).

plot_objects <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    set.seed(1)
    m <- rbm(matrix(stats::rnorm(40, sd = 0.5), 10, 4))
    mm <- ising_grid(3, 3, coupling = 0.5)
    dd <- data.frame(a = stats::rnorm(20), b = stats::rnorm(20), y = rep(c(-1, 1), 10))
    g <- gpc(y ~ a + b, dd, lengthscale = 1)
    pk <- astar_example("peaky", a = 10)
    o <- list(
      exact = log_partition(m),
      ep = log_partition(g, method = "ep"),
      ais_rbm = ais(m, schedule_linear(30), n_chains = 10, progress = FALSE),
      ais_ising = ais(mm, schedule_linear(30), n_chains = 10, progress = FALSE),
      ais_gpc = ais(g, schedule_linear(10), n_chains = 5, progress = FALSE),
      ais_function = ais(function(x) -sum(x^2), proposal_normal(c(0, 0), 2),
                         schedule_geometric(20), n_chains = 10),
      raise = raise(m, data = matrix(stats::rbinom(50, 1, 0.5), 5, 10),
                    schedule = schedule_linear(20), n_chains = 5, progress = FALSE),
      arm = arm(ising_grid(3, 3, coupling = 0.5), particles = 30, progress = FALSE),
      arm_repeats = arm(ising_grid(3, 3, coupling = 0.5), particles = 30, repeats = 3,
                        progress = FALSE),
      astar = astar_sample(pk, n = 10),
      astar_2d = astar_sample(astar_example("gaussian_mean"), n = 10),
      rejection = rejection_sample(pk, n = 5),
      os_star = os_star_sample(pk, n = 5),
      mip = mip_sample(mm, 5, progress = FALSE),
      mip_rejection = rejection_sample(mm, 5, depth = 2),
      perturb_map = logz:::perturb_and_map(mm, 3, progress = FALSE),
      rts = rts(m, K = 5, n_chains = 5, sweeps = 20, init_iter = 1, init_sweeps = 10,
                progress = FALSE))
    cache <<- o
    o
  }
})

# the other objects with plot() methods: a comparison, schedules, RBMs
other_plot_objects <- function() {
  set.seed(3)
  o <- plot_objects()
  x <- mnist$x[1:60, ]
  list(comparison = compare_estimates(exact = o$exact, ais = o$ais_rbm, raise = o$raise),
       schedule = schedule_linear(50),
       schedule_g = schedule_varopt(ising_grid(3, 3, coupling = 0.5), K = 20, pilot_chains = 10,
                                    pilot_K = 50, progress = FALSE),
       rbm_history = rbm_train(x, n_hidden = 4, epochs = 2, batch_size = 20, progress = FALSE),
       rbm_ll = suppressWarnings(rbm_train(x[1:40, ], n_hidden = 4, epochs = 2, batch_size = 20,
                                           progress = FALSE, track_log_z = TRUE,
                                           validation = x[41:60, ]), classes = "logz_unreliable"))
}

plot_types <- function(x) {
  for (cl in class(x)) {
    meth <- utils::getS3method("plot", cl, optional = TRUE)
    if (!is.null(meth)) {
      ty <- formals(meth)$type
      return(if (is.null(ty)) NA_character_ else eval(ty))
    }
  }
  stop("no plot method")
}

# The graphics calls a plot made, from the device's display list.
drawn <- function(expr) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  grDevices::dev.control("enable")
  force(expr)
  lapply(grDevices::recordPlot()[[1]], function(e)
    list(name = e[[2]][[1]]$name, args = e[[2]][-1]))
}

calls_named <- function(d, name) Filter(function(e) identical(e$name, name), d)

texts <- function(d) unlist(lapply(calls_named(d, "C_text"), function(e) e$args[[2]]))

hlines <- function(d) unlist(lapply(calls_named(d, "C_abline"), function(e) e$args[[3]]))

titles <- function(d) {
  t <- calls_named(d, "C_title")
  vapply(1:4, function(i) paste(unlist(lapply(t, function(e) {
    v <- e$args[[i]]
    if (is.expression(v) || is.call(v)) deparse(v) else as.character(v)
  })), collapse = " "), "")
}

autoplot_types <- function(x) {
  for (cl in class(x)) {
    meth <- utils::getS3method("autoplot", cl, optional = TRUE, envir = asNamespace("ggplot2"))
    if (!is.null(meth)) {
      ty <- formals(meth)$type
      return(if (is.null(ty)) NA_character_ else eval(ty))
    }
  }
  stop("no autoplot method")
}
