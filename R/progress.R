# Progress of long runs (text bar or progressr) and its help page.

# Progress of a long run over `max` units: `update(i)` after unit i, `close()`
# at the end. Through progressr (which renders with the user's handlers and
# relays progress from future workers) when it is installed and in use, else a
# text progress bar; a no-op when `show` is FALSE. See ?logz_progress.
progress_bar <- function(show, max) {
  if (!isTRUE(show) || max < 1) return(list(update = function(i) NULL, close = function() NULL))
  if (use_progressr()) {
    p <- progressr::progressor(steps = max, on_exit = FALSE)
    done <- 0
    return(list(update = function(i) {
      if (i > done) p(amount = i - done)
      done <<- max(done, i)
    }, close = function() if (done < max) p(amount = 0, type = "finish")))
  }
  pb <- utils::txtProgressBar(min = 0, max = max, style = 3)
  list(update = function(i) utils::setTxtProgressBar(pb, i), close = function() close(pb))
}

# progressr is used when installed and either its global handlers are on
# (progressr::handlers(global = TRUE)) or options(logz.progress = "progressr")
# (e.g. inside progressr::with_progress()); options(logz.progress = "txt")
# forces the text bar.
use_progressr <- function() {
  how <- logz_option("progress", "auto")
  if (identical(how, "txt") || !namespace_available("progressr")) return(FALSE)
  identical(how, "progressr") || isTRUE(progressr::handlers(global = NA))
}

# A progress signal for the pieces of a run split over future workers: one
# step per finished piece, relayed from the workers by progressr (nothing when
# progressr is not in use or `show` is FALSE).
piece_progressor <- function(show, pieces) {
  if (isTRUE(show) && use_progressr()) progressr::progressor(steps = pieces, on_exit = FALSE)
  else function(...) NULL
}

# Control entries for progress from a C loop over n samples: `tick` is called
# after about every 1% of them (logz_tick() in src/util.c saves R's RNG state
# around the call: the same draws either way).
progress_tick <- function(progress, pb, n) {
  if (!progress) return(list())
  list(tick = function(i) pb$update(i), tick_every = max(1L, n %/% 100L))
}

#' Progress bars of long runs
#'
#' Every long-running function takes `progress` (default `interactive()`):
#' [ais()] (all models, and [ais.function()]), [raise()], [rts()], [arm()],
#' [exact_log_z()] and [exact_marginals()] (enumerations of \eqn{2^{22}}
#' states or more, in chunks), [ep_log_z()], [gibbs_sample()],
#' [blocked_gibbs()], [mip_sample()], [rejection_sample()],
#' [os_star_sample()], [astar_sample()],
#' [perturb_and_map()], [rbm_train()], [schedule_varopt()],
#' [schedule_gms13()] and [log_partition()] (passed on). `progress = FALSE`
#' shows nothing; the results do not depend on it.
#'
#' When \pkg{progressr} is installed and its handlers are on
#' (`progressr::handlers(global = TRUE)`), or inside
#' `progressr::with_progress()` with `options(logz.progress = "progressr")`,
#' progress goes through \pkg{progressr}: it is drawn by the user's handlers
#' and relayed from workers of any \pkg{future} plan (a run split over
#' `workers` reports one step per finished piece). Otherwise a text progress
#' bar is drawn; `options(logz.progress = "txt")` forces it.
#'
#' @examples
#' if (requireNamespace("progressr", quietly = TRUE)) {
#'   old <- options(logz.progress = "progressr")
#'   progressr::with_progress(
#'     fit <- ais(ising_grid(3, 3, coupling = 0.4), schedule_linear(200),
#'                n_chains = 50, progress = TRUE))
#'   options(old)
#' }
#' @name logz_progress
NULL
