#' logz: log partition functions and exact samples for unnormalised models
#'
#' Estimators of log partition functions (normalising constants, model
#' evidence) and exact samplers for unnormalised distributions, written in C on
#' top of R's BLAS and random number generator.
#'
#' Start with [ais()] on an RBM from [rbm_train()] or [rbm()], compare with
#' [exact_log_z()] on small models, and read the vignette
#' `vignette("getting-started", package = "logz")`.
#'
#' Every estimator returns a `logz_estimate` object with at least `log_z`,
#' `se`, `method`, `time`, `counts`, `diagnostics`, `seed` and `call`; see
#' [logz_estimate].
#'
#' @keywords internal
#' @useDynLib logz, .registration = TRUE, .fixes = "C_"
"_PACKAGE"
