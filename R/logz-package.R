#' logz: log partition functions and exact samples for unnormalised models
#'
#' Estimators of log partition functions (normalising constants, model
#' evidence) and exact samplers for unnormalised distributions, written in C on
#' top of R's BLAS and random number generator.
#'
#' Start with [ais()] on an RBM from [rbm_train()] or [rbm()], compare with
#' [exact_log_z()] on small models, and read the vignette
#' `vignette("logz", package = "logz")`.
#'
#' Every estimator returns a `logz_estimate` object with at least `log_z`,
#' `se`, `method`, `time`, `counts`, `diagnostics`, `seed` and `call`; see
#' [logz_estimate].
#'
#' @section Package options:
#' \describe{
#'   \item{`logz.warn_unreliable`}{`FALSE` silences the reliability warnings
#'     (the flags are still recorded; see [logz_reliability]). Default `TRUE`.}
#'   \item{`logz.mode_check_starts`, `logz.mode_check_margin`,
#'     `logz.mode_check_occupancy`}{the random starts of the RBM mode search (0
#'     turns the mode checks off), and the margins in nats of the mode-bound and
#'     occupancy checks (see [logz_base], "The mode check"). Defaults 30, 0.1,
#'     0.25.}
#'   \item{`logz.ais_crossover`}{the fraction of active units below which
#'     [ais()]'s `kernel = "auto"` uses the sparse product on an RBM. Default
#'     1 (always sparse) where the sparse kernels run on AVX-512, 0.5 on AVX2,
#'     0.35 otherwise. The Gibbs kernels pick the best of AVX-512, AVX2 and
#'     plain C the CPU supports when a run starts; the environment variable
#'     `LOGZ_ISA` (`"portable"`, `"avx2"` or `"avx512"`) caps that choice.}
#'   \item{`logz.chunk_work`}{the work (about chains x units x steps) of one
#'     call into C between interrupt and progress checks. Default `5e7`.}
#'   \item{`logz.max_bytes`}{the memory limit of the size checks, in bytes
#'     (else the `LOGZ_MAX_BYTES` environment variable, else a default of each
#'     check).}
#'   \item{`logz.progress`}{`"auto"`, `"progressr"` or `"txt"`: how progress is
#'     shown (see [logz_progress]).}
#' }
#'
#' @keywords internal
#' @useDynLib logz, .registration = TRUE, .fixes = "C_"
"_PACKAGE"
