# GumbelMIP (Kim, Sabharwal & Ermon 2016): the sampler mip_sample() and its result.
# The models it takes become "mip problems" in mip_problem.R; methods of the result
# and log_z_bounds() are in mip_results.R; the search itself is in src/mip*.c
# (layers in src/mip.h).

# ---- the sampler -------------------------------------------------------------------

#' GumbelMIP: exact and anytime samples by perturbed branch and bound
#'
#' `mip_sample()` draws `n` independent samples from a discrete model by
#' Algorithm 1 of Kim, Sabharwal & Ermon (2016): a best-first branch and
#' bound on the binary variables in which every open sub-problem \eqn{P}
#' carries the maximum \eqn{\gamma_P} of the (implicit) i.i.d. Gumbel
#' perturbations of all its configurations, tied to one configuration
#' \eqn{\sigma}. The root gets \eqn{\gamma \sim \mathrm{Gumbel}(n \log 2)}
#' and a uniform \eqn{\sigma}. A popped sub-problem is bounded (LP relaxation
#' or the simple bound); it is discarded when infeasible or when bound +
#' \eqn{\gamma_P \le v^*}. Otherwise it is split on a variable \eqn{x}: the
#' child with \eqn{x = \sigma_x} inherits \eqn{(\gamma_P, \sigma)}
#' (perturbation inheritance), the other gets \eqn{\tilde\gamma \sim
#' \mathrm{TruncGumbel}((|X_P| - 1)\log 2, \gamma_P)} and a fresh
#' \eqn{\tilde\sigma} (\eqn{\sigma} with \eqn{x} flipped and the other free
#' variables redrawn uniformly), which becomes the incumbent if
#' \eqn{v(\tilde\sigma) + \tilde\gamma > v^*}. Branching is also forced when
#' the LP solution is integral (an integral LP solution is not tied to a
#' Gumbel value). When no open sub-problem can beat \eqn{v^*}, the incumbent
#' is an exact sample and \eqn{v^*} a draw from \eqn{\mathrm{Gumbel}(\log Z)}.
#'
#' **LP bound** (`bound = "lp"`). The local-polytope relaxation (paper,
#' eq. 4). `lp_solver = "glpk"` solves it with GNU GLPK's dual simplex, one
#' LP per call warm-started from the previous optimal basis.
#' `encoding = "local"` uses node indicators and four indicators per edge
#' with the marginalisation equalities; `"compact"` (default) one column
#' \eqn{y_{ij} = s_i s_j} per edge linearised by \eqn{y \le s_i, y \le s_j}
#' or \eqn{y \ge s_i + s_j - 1} (the paper's RBM encoding; for binary
#' pairwise models the same polytope projected, hence the same bound). For
#' attractive (supermodular) pairwise models -- every edge table with
#' \eqn{t_{11} - t_{10} - t_{01} + t_{00} \ge 0}, e.g. Ising models with
#' non-negative weights -- the LP is tight and its optimum is the maximum of
#' the sub-problem, which a minimum s-t cut computes exactly (Kolmogorov &
#' Zabih 2004); `lp_solver = "cut"` does that (Dinic's max-flow), with the
#' cut's source side as the (integral) LP solution. For pairwise models with
#' couplings of both signs (frustrated Ising models, RBMs) `lp_solver =
#' "roof"` computes the same LP bound by roof duality (Boros & Hammer 2002):
#' with a second copy \eqn{t} of the variables standing for \eqn{1 - s}, every
#' term is split into two supermodular halves, one in \eqn{s} and one in
#' \eqn{t}, and the maximum of the resulting attractive model on \eqn{2p}
#' variables -- one minimum cut on the same max-flow, two nodes per free
#' variable (QPBO; Kolmogorov & Rother 2007) -- equals the local-polytope LP;
#' its cut gives the half-integral LP solution \eqn{\tau = (s + 1 - t)/2},
#' whose fractional (1/2) variables are branched on first, ties in the static
#' order. `lp_solver = "cycle"` tightens GLPK's LP of a pairwise model by the
#' triangle inequalities of the cut polytope (Barahona & Mahjoub 1986; Sontag
#' & Jaakkola 2007), \eqn{s_i + s_j + s_k - y_{ij} - y_{ik} - y_{jk} \le 1} and
#' \eqn{y_{ij} + y_{ik} - y_{jk} - s_i \le 0} over the triangles of the
#' model's edges, in the product variables \eqn{y_{ij} = s_i s_j}: a few rounds
#' of the most violated ones, separated on each LP solution, kept in the LP
#' for the rest of the sample. The bound is never looser than the local
#' polytope's, and each bound costs several GLPK solves. `"auto"` (default)
#' uses the cut on attractive pairwise models, roof duality on every other
#' pairwise model ([ising], [rbm]) and GLPK on a [mip_model()].
#' **Simple bound** (`bound = "simple"`, the paper's A*-like baseline): every
#' factor's largest value consistent with the fixed variables, summed.
#'
#' **Early stopping.** With `time_limit` or `node_limit`, a search may stop
#' with open sub-problems: the incumbent is then an approximate sample
#' (`exact = FALSE`), the best in the explored part of the space. `upper` is
#' \eqn{U = \max(v^*, \max_{Q \in L} LP(Q) + \gamma_Q)} (Theorem 2; for
#' sub-problems not yet bounded, their parent's bound), and `rank_bound`
#' Proposition 1's bound on the expected rank of the sample among all
#' perturbed configurations (1 when exact). Early-stopped samples are biased;
#' judge them by [log_z_bounds()] and `rank_bound`.
#'
#' **Reproducibility and threads.** Each sample draws from its own
#' L'Ecuyer-CMRG stream seeded from R's RNG; within a sample the draws of
#' every sub-problem (its truncated Gumbel and redrawn \eqn{\sigma}) come
#' from a stream seeded by a hash of its path from the root, and its
#' branching variable depends only on the sub-problem (fixings, \eqn{\sigma},
#' LP solution). So the samples under [set.seed()] are the same for any
#' `threads`, `workers` split, `node_selection` and `progress`. Samples run
#' in parallel (OpenMP), each thread taking the next sample. With the simple
#' bound, the min-cut LP or roof duality, when fewer samples are left than threads, idle
#' threads join a running search (under a lock; `diagnostics$shared_nodes`
#' counts the sub-problems they bounded), which can change `nodes`,
#' `lp_solves` and times but not the samples. With a finite `node_limit`
#' searches are not shared (the nodes reached by the limit would depend on
#' timing); a finite `time_limit` makes early-stopped samples depend on
#' timing for any `threads`. With GLPK (`lp_solver = "glpk"` or `"cycle"`, or a
#' [mip_model()]) every
#' thread solves its own LP, with its own GLPK environment and error trap;
#' a sample's search is not shared, so `threads` helps only with several
#' samples. This needs a GLPK built with thread-local environments
#' (`glp_config("TLS")` not `NULL`, as in Debian's and Ubuntu's GLPK 5.0);
#' with any other GLPK the LPs are solved on one thread, with a message.
#' `threads` in the result is the number of threads that ran. A GLPK
#' failure on any thread stops every thread and becomes an R error. With
#' `"cycle"` every sample starts from the LP without cuts, so the cuts a
#' search meets do not depend on the samples searched before it.
#'
#' **Primal heuristic** (`heuristic = "dive"`; not in the paper). After the
#' root's LP bound the search rounds the LP solution, improves it by ICM
#' (single flips that raise \eqn{v}) to a target \eqn{h}, and splits along
#' \eqn{h} down to the leaf \eqn{\{h\}}, pushing every sibling, so the
#' incumbent starts at \eqn{v(h) + \gamma_h}. It only chooses where to
#' split, from what is known so far, so the exact sample's distribution is
#' unchanged; the random draws, hence individual samples under one seed,
#' differ from `heuristic = "none"`.
#'
#' **Proposal** (`proposal`; A* sampling's base measure, Maddison, Tarlow
#' & Minka 2014, Sec. 3-4, in the paper's discrete setting). With a
#' factorised \eqn{q(x) = \prod_i q_i(x_i)} (every \eqn{q_i \in (0, 1)}) the
#' search perturbs \eqn{o(x) = v(x) - \log q(x)} with a Gumbel process of
#' base measure \eqn{q}: the root gets \eqn{\gamma \sim \mathrm{Gumbel}(0)}
#' and \eqn{\sigma \sim q}; the non-inheriting child \eqn{Q} gets
#' \eqn{\tilde\gamma \sim \mathrm{TruncGumbel}(\log q(Q), \gamma_P)} and its
#' free variables redrawn from \eqn{q}. The argmax is an exact sample and the
#' value a \eqn{\mathrm{Gumbel}(\log Z)} draw for any such \eqn{q};
#' \eqn{-\log q} only adds to the unaries, so the bounds, attractiveness,
#' Theorem 2 and the log Z estimate apply unchanged (`rank_bound` uses the
#' concavity bound of each configuration's truncated Gumbel, Proposition 1's
#' when uniform). `"uniform"` (default) is the paper's algorithm;
#' `"mean_field"` the naive mean-field fixed point of a pairwise model
#' (sequential sweeps from 1/2; uniform for a [mip_model()]); `"marginals"`
#' the exact marginals of an [ising] model ([exact_marginals()]); or a
#' numeric vector of \eqn{q_i = P(x_i = } the larger value\eqn{)}. The
#' built-in \eqn{q_i} are clamped to \eqn{[0.02, 0.98]}. A peaked \eqn{q}
#' raises the bound \eqn{\max (v - \log q)} where \eqn{q} is small: it can
#' make exact search slower and early-stopped samples better.
#'
#' **Tree proposal** (`proposal = "tree"`; not in the paper). \eqn{q} is the
#' model itself restricted to a maximum spanning forest \eqn{F} of its
#' couplings (Kruskal on \eqn{|b_e|}, \eqn{b_e = t_{11} - t_{10} - t_{01} +
#' t_{00}}), with the model's unaries and the forest edges' own tables:
#' \eqn{\log q(x) = \sum_i v_i(x_i) + \sum_{e \in F} v_e(x_e) - \log Z_q},
#' so \eqn{o(x) = \log Z_q + \sum_{e \notin F} v_e(x_e)}. \eqn{\log q(Q)} of
#' a sub-problem comes from sum-product on the forest with its fixed
#' variables as evidence, and its \eqn{\sigma} from forward filtering and
#' backward sampling: \eqn{O(n)} per split. On a tree or forest model every
#' sample is exact at the root; it suits sparse models (trees, grids, sparse
#' graphs), not dense ones. Attractive models stay attractive. For a
#' [mip_model()] `"tree"` is the uniform \eqn{q}.
#'
#' Measured node counts, times, thread speed-ups and the comparison with
#' Gibbs sampling are in the vignette "mip-sampling"
#' (`vignette("mip-sampling", package = "logz")`).
#'
#' **Interrupts and time limits.** The search checks for user interrupts
#' (and R's [setTimeLimit()]) every 0.1 s on R's thread, also while the other
#' threads search and between slices of 0.2 s of one GLPK simplex call, and
#' then stops every thread with an error.
#'
#' **GLPK is optional** at build time (see [logz_has_glpk()]): without it the
#' LP bound by GLPK (`"glpk"`, `"cycle"`, a [mip_model()]) stops with an error saying how
#' to get GLPK; the min-cut LP and the simple bound need no GLPK.
#'
#' **Scale.** Values \eqn{v(x) + \gamma} are compared in double precision, so
#' log-weights whose factor-wise largest magnitudes sum to more than
#' \eqn{10^{12}} (or overflow) are an error rather than silently wrong
#' frequencies. A constant offset is searched without (any size), and the
#' constraint rows of a [mip_model()] are rescaled to a largest coefficient
#' of 1 (any size).
#'
#' @param model an [ising] model, an [rbm] (visible and hidden units jointly)
#'   or a [mip_model()].
#' @param n number of independent samples (whole number >= 1).
#' @param time_limit seconds per sample (`Inf`: run to exactness).
#' @param node_limit search nodes (bounded sub-problems) per sample.
#' @param bound `"lp"` (LP relaxation) or `"simple"` (per-factor maxima).
#' @param node_selection `"best_first"` (largest bound + Gumbel first) or
#'   `"depth_first"` (the inheriting child first).
#' @param branching `"auto"` (most fractional LP variable; if the LP solution
#'   \eqn{\tau} is integral, as the min cut's always is, the free variable
#'   where it differs from \eqn{\sigma}; on pairwise models, among those, the
#'   one whose single flip lowers the searched value of \eqn{\tau} most),
#'   `"most_fractional"` (then the first free variable in the static order),
#'   or `"first"` (the static order: largest total interaction first; also
#'   used with the simple bound).
#' @param encoding LP encoding for pairwise models: `"compact"` or `"local"`
#'   (GLPK only).
#' @param lp_solver the solver of the LP bound (see LP bound): `"auto"`,
#'   `"glpk"`, `"cut"` (attractive pairwise models only), `"roof"` (pairwise
#'   models only) or `"cycle"` (GLPK with triangle cuts; pairwise models
#'   only).
#' @param heuristic `"dive"` (default) or `"none"`: the primal heuristic
#'   (see Primal heuristic).
#' @param proposal the base measure of the Gumbel perturbations (see
#'   Proposal and Tree proposal): `"uniform"` (default, the paper's
#'   Algorithm 1), `"mean_field"`, `"marginals"` (ising models only),
#'   `"tree"` (the model on a maximum spanning forest), or a numeric vector
#'   of \eqn{p} probabilities \eqn{q_i} of each variable's larger value
#'   (\eqn{+1} for spins, 1 otherwise), finite and strictly inside (0, 1).
#' @param threads number of threads (whole number, 1 to 1024) for independent
#'   samples, also shared by one sample's search when fewer samples than
#'   threads are left and no GLPK bounds (see Reproducibility and threads);
#'   the samples do not depend on it.
#' @param progress show a progress bar over samples.
#' @param workers `NULL` or the number of pieces to split the `n` samples
#'   into, run through the active [future::plan()] and stacked (see
#'   [scale_out]).
#' @return An object of class `c("logz_mip", "logz_samples", "logz_estimate")`:
#' \describe{
#'   \item{`states`}{`n x p` matrix of samples in the model's values (spins
#'     for Ising models, 0/1 otherwise).}
#'   \item{`value`}{\eqn{v^*} per sample (a Gumbel(log Z) draw when exact).}
#'   \item{`upper`}{\eqn{U} per sample (\eqn{= v^*} when exact).}
#'   \item{`exact`}{logical per sample.}
#'   \item{`rank_bound`}{Proposition 1's bound on \eqn{E[k]} per sample.}
#'   \item{`nodes`, `lp_solves`, `sample_time`}{per sample; `sample_time` in
#'     seconds.}
#'   \item{`log_z`, `se`}{`mean(value) - 0.5772` and \eqn{\pi/\sqrt{6n}} when
#'     all samples are exact, else `NA` (use [log_z_bounds()]).}
#'   \item{`trace`}{data frame (`sample`, `nodes`, `time`, `value`, `upper`)
#'     at nodes 1, 2, 4, ... and at the end of each search.}
#'   \item{`threads`}{the number of threads that ran (at most `threads`).}
#'   \item{`method`, `time`, `counts`, `diagnostics`, `seed`, `call`,
#'     `model`}{as for every [logz_estimate].}
#' }
#' @section Errors: `model` not a supported model; `n`, `threads` not whole
#'   numbers (`threads` outside 1 to 1024); `proposal` not one of the names nor
#'   \eqn{p} probabilities strictly inside (0, 1), or `"marginals"` for a
#'   model that is not an ising model; `time_limit`, `node_limit` not
#'   positive; unknown `bound`, `node_selection`, `branching`, `encoding`; a
#'   mip_model with no feasible binary point; log-weights too large (see
#'   Scale); `lp_solver = "cut"` on a model that is not attractive, `"roof"`
#'   or `"cycle"` on a [mip_model()]; the LP bound by GLPK when logz was
#'   built without GLPK; GLPK failures (raised as R errors with GLPK's
#'   message; R does not abort); an interrupt or time limit.
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI
#'   (Algorithm 1, Proposition 1, Theorem 2). Wainwright, M. J. and Jordan,
#'   M. I. (2008). Graphical models, exponential families, and variational
#'   inference (the local polytope). Kolmogorov, V. and Zabih, R. (2004).
#'   What energy functions can be minimized via graph cuts? IEEE TPAMI 26.
#'   Boros, E. and Hammer, P. L. (2002). Pseudo-Boolean optimization.
#'   Discrete Applied Mathematics 123 (roof duality). Kolmogorov, V. and
#'   Rother, C. (2007). Minimizing nonsubmodular functions with graph cuts --
#'   a review. IEEE TPAMI 29 (QPBO). Barahona, F. and Mahjoub, A. R. (1986).
#'   On the cut polytope. Mathematical Programming 36. Sontag, D. and
#'   Jaakkola, T. (2007). New outer bounds on the marginal polytope. NIPS.
#'   Makhorin, A. GNU Linear Programming Kit. Maddison, C. J., Tarlow, D.
#'   and Minka, T. (2014). A* sampling. NIPS (Sec. 3-4: Gumbel processes
#'   with a base measure; the proposal).
#' @seealso [log_z_bounds()], [perturb_and_map()], [rejection_sample()],
#'   [gibbs_sample()], [exact_marginals()]
#' @examples
#' set.seed(1)
#' m <- ising_clique(8, coupling = 0.5, field = 0.5)
#' s <- mip_sample(m, 50, progress = FALSE)
#' s
#' colMeans(s$states == 1)          # compare: exact_marginals(m)
#' exact_log_z(m)
#' # anytime: stop each search after 3 nodes
#' a <- mip_sample(ising_clique(12, coupling = 0.5), 20, node_limit = 3, progress = FALSE)
#' log_z_bounds(a)
#' # early stopping from a mean-field proposal (exact draws need no proposal)
#' b <- mip_sample(ising_grid(4, 4, coupling = 0.5), 20, node_limit = 3,
#'                 proposal = "mean_field", progress = FALSE)
#' log_z_bounds(b)
#' # a tree-shaped base measure: a chain of 200 spins is exact at the root
#' ch <- ising(data.frame(from = 1:199, to = 2:200, weight = runif(199, 0, 2)),
#'             field = runif(200, -1, 1))
#' t <- mip_sample(ch, 20, proposal = "tree", progress = FALSE)
#' c(nodes = max(t$nodes), log_z = t$log_z, exact = exact_log_z(ch))
#' @export
mip_sample <- function(model, n = 1L, time_limit = Inf, node_limit = Inf,
                       bound = c("lp", "simple"), node_selection = c("best_first", "depth_first"),
                       branching = c("auto", "most_fractional", "first"),
                       encoding = c("compact", "local"), lp_solver = c("auto", "glpk", "cut", "roof", "cycle"),
                       heuristic = c("dive", "none"),
                       proposal = c("uniform", "mean_field", "marginals", "tree"), threads = 1L,
                       progress = interactive(), workers = NULL) {
  call <- match.call()
  p <- mip_problem(model)
  n <- check_count(n, "n")
  time_limit <- check_limit(time_limit, "time_limit")
  node_limit <- check_limit(node_limit, "node_limit")
  bound <- match_arg(bound, "bound")
  node_selection <- match_arg(node_selection, "node_selection")
  branching <- match_arg(branching, "branching")
  encoding <- match_arg(encoding, "encoding")
  lp_solver <- match_arg(lp_solver, "lp_solver")
  heuristic <- match_arg(heuristic, "heuristic")
  q <- mip_proposal(proposal, p, model)
  # with the tree proposal only the edges outside the tree are searched
  attractive <- mip_attractive(if (is.list(q)) mip_apply_tree(p, q) else p)
  if (lp_solver == "cut" && !attractive)
    stop_no_call(paste0("`lp_solver = \"cut\"` needs an attractive (supermodular) pairwise model: ",
                        "every edge's t11 - t10 - t01 + t00 >= 0 (Ising: all weights >= 0)."))
  pairwise <- p$kind == MIP_KIND[["pairwise"]]
  if (lp_solver %in% c("roof", "cycle") && !pairwise)
    stop_no_call(sprintf(paste0("`lp_solver = \"%s\"` needs a pairwise model (an ising model or an rbm), ",
                                "not a mip_model() (its LP bound is GLPK's: `lp_solver = \"glpk\"` or ",
                                "\"auto\")."), lp_solver))
  use_cut <- bound == "lp" && (lp_solver == "cut" || (lp_solver == "auto" && attractive))
  use_roof <- bound == "lp" && !use_cut && (lp_solver == "roof" || (lp_solver == "auto" && pairwise))
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  control <- list(bound_lp = as.integer(bound == "lp"),
                  best_first = as.integer(node_selection == "best_first"),
                  branching = MIP_BRANCHING[[branching]],
                  perturb = 1L, node_limit = node_limit, time_limit = time_limit, cut = use_cut,
                  roof = use_roof, cycle = bound == "lp" && lp_solver == "cycle",
                  threads = threads, dive = heuristic == "dive", proposal = q,
                  share = MIP_SHARE[["idle"]])
  pieces <- resolve_pieces(workers, n)
  res <- if (pieces > 1L) {
    parts <- run_pieces(n, pieces, function(size, i) mip_run(p, size, control, encoding, FALSE),
                        progress)
    mip_merge_runs(parts)
  } else mip_run(p, n, control, encoding, progress)
  mip_serial_note(res, threads)
  if (any(res$value == -Inf))
    stop_no_call("`model` has no feasible binary point: every configuration violates the constraints.")
  out <- new_mip_samples(p, res, model, method = sprintf("GumbelMIP (%s)", if (bound == "simple")
    "simple bound" else if (use_cut) "LP bound by min cut" else if (use_roof)
    "LP bound by roof duality" else if (lp_solver == "cycle") "LP bound by GLPK with triangle cuts"
    else "LP bound by GLPK"),
    time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
  if (pieces > 1L) out$pieces <- pieces
  out
}

# The note when GLPK bounded the search on one thread although `threads` > 1
# (GLPK built without thread-local environments; mip_batch.c).
mip_serial_note <- function(res, threads) {
  if (isTRUE(res$lp_serial) && threads > 1L)
    message(sprintf(paste0("mip_sample(): the LPs were solved on 1 thread, not %d: this GLPK keeps ",
                           "one global environment (glp_config(\"TLS\") is NULL; see ?mip_sample, ",
                           "Reproducibility and threads). Threads work with the min-cut LP, roof duality and ",
                           "the simple bound."), threads))
  invisible(res)
}

check_limit <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0)
    stop_no_call(sprintf("`%s` must be a positive number or Inf, not %s.", name, describe(x)))
  as.double(x)
}

# Run the engine over n samples, in chunks (progress, interrupts); returns the
# C result with the states as an n x p 0/1 matrix.
mip_run <- function(p, n, control, encoding = "compact", progress = FALSE, selftest = FALSE,
                    order = mip_order(p)) {
  force(order)
  if (is.list(control$proposal)) {    # the tree proposal (mip_proposal.R)
    p <- mip_apply_tree(p, control$proposal)
    control$tree <- control$proposal[c("order", "parent", "th", "psi", "logz")]
  } else if (!is.null(control$proposal)) {   # A* sampling's base measure q (mip_proposal.R)
    pq <- mip_apply_proposal(p, control$proposal)
    p <- pq$p
    control$logq <- as.vector(pq$logq)
  }
  control$proposal <- NULL
  c0 <- p$c0                # searched without the constant, added back at the end
  p$c0 <- 0
  cm <- mip_c_model(p)
  # the LP bound: min cut (attractive), else roof duality (pairwise), else GLPK
  if (is.null(control$cut)) control$cut <- control$bound_lp == 1L && mip_attractive(p)
  control$cut <- as.integer(control$cut)
  control$cycle <- as.integer(isTRUE(control$cycle) && control$bound_lp == 1L)
  if (is.null(control$roof))
    control$roof <- control$bound_lp == 1L && !control$cut && !control$cycle &&
      p$kind == MIP_KIND[["pairwise"]]
  control$roof <- as.integer(control$roof)
  glpk <- control$bound_lp && !control$cut && !control$roof
  if (glpk) need_glpk(glpk_what(p, control$perturb))
  lp <- if (glpk) mip_lp(p, if (control$cycle) "mccormick" else encoding) else NULL
  control$order <- as.integer(order)
  control$selftest <- as.integer(selftest)
  control$trace_cap <- 64L
  if (is.null(control$threads)) control$threads <- 1L
  control$dive <- as.integer(if (is.null(control$dive)) TRUE else control$dive)
  control$threads <- as.integer(control$threads)
  streams <- rng_streams(n)
  # Without a progress bar, one call for all samples, so threads take the next
  # sample as soon as they finish one; with a bar, chunks of at least 8
  # samples per thread (about 20 updates), each thread waiting for the
  # slowest search of its chunk.
  chunk <- if (progress) control$threads * max(8L, ceiling(n / (20 * control$threads))) else n
  starts <- seq(1L, n, by = chunk)
  pb <- progress_bar(progress && length(starts) > 1L, n)
  on.exit(pb$close())
  parts <- vector("list", length(starts))
  for (k in seq_along(starts)) {
    idx <- starts[k]:min(n, starts[k] + chunk - 1L)
    r <- mip_sample_chunk(cm, lp, streams[, idx, drop = FALSE], control)
    tr <- r$trace[, seq_len(r$ntrace), drop = FALSE]
    tr[1, ] <- tr[1, ] + starts[k] - 1
    r$trace <- tr
    parts[[k]] <- r
    pb$update(max(idx))
  }
  cat_field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  tr <- do.call(cbind, lapply(parts, `[[`, "trace"))
  tr[4:5, ] <- tr[4:5, ] + c0
  list(states = t(do.call(cbind, lapply(parts, `[[`, "states"))), value = cat_field("value") + c0,
       upper = cat_field("upper") + c0, exact = cat_field("exact"),
       rank_bound = cat_field("rank_bound"), nodes = cat_field("nodes"),
       lp_solves = cat_field("lp_solves"), lp_failures = cat_field("lp_failures"),
       time = cat_field("time"), helped = cat_field("helped"), trace = tr,
       threads = max(cat_field("threads")), lp_serial = any(cat_field("lp_serial")))
}

# One call of the engine (src/mip.c, mip_sample_call; its only .Call site):
# the samples of the 6 x J stream matrix `streams` on the value model `cm`
# (mip_c_model()), with the LP `lp` (mip_lp(), NULL unless GLPK bounds) and
# the control list built by mip_run(). Returns the engine's list (states
# n x J, value, upper, exact, rank_bound, nodes, lp_solves, lp_failures,
# time, trace 5 x ntrace, ntrace, helped).
mip_sample_chunk <- function(cm, lp, streams, control) {
  mip_check_c_model(cm)
  mip_check_streams(streams)
  types <- c(bound_lp = "integer", best_first = "integer", branching = "integer",
             perturb = "integer", dive = "integer", cut = "integer", roof = "integer", cycle = "integer",
             order = "integer",
             selftest = "integer", trace_cap = "integer", threads = "integer",
             node_limit = "double", time_limit = "double")
  bad <- names(types)[vapply(names(types), function(f) !identical(typeof(control[[f]]), types[[f]]),
                             logical(1))]
  if (length(bad))
    mip_internal_error(paste("bad control element(s):", paste(bad, collapse = ", ")))
  if (length(control$order) != cm$n) mip_internal_error("the order must have one entry per variable")
  mip_check_code(control$branching, MIP_BRANCHING, "control$branching")
  if (!is.null(control$share)) mip_check_code(control$share, MIP_SHARE, "control$share")
  if (control$cut + control$roof + control$cycle > 1L)
    mip_internal_error("more than one of the cut, roof-dual and triangle-cut bounds")
  if (control$bound_lp && !control$cut && !control$roof && !is.list(lp))
    mip_internal_error("the GLPK bound needs the LP list")
  .Call(C_mip_sample, cm, lp, streams, control)
}

# What needs GLPK, for need_glpk()'s message.
glpk_what <- function(p, perturb = 1L) {
  sprintf("The LP bound (`bound = \"lp\"`) of %s on %s", if (perturb) "mip_sample()" else
    "a MAP search", if (p$kind == MIP_KIND[["linear"]]) "a mip_model()" else
    "a pairwise model with `lp_solver = \"glpk\"`")
}

# Stack the engine results of pieces run in sequence (see scale_out): the
# samples in piece order, the trace's sample indices shifted.
mip_merge_runs <- function(parts) {
  offset <- cumsum(c(0, vapply(parts, function(r) length(r$value), numeric(1))))
  for (i in seq_along(parts)) parts[[i]]$trace[1, ] <- parts[[i]]$trace[1, ] + offset[i]
  per_sample <- setdiff(names(parts[[1]]), c("states", "trace", "threads", "lp_serial"))
  out <- lapply(per_sample, function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE))
  names(out) <- per_sample
  out$threads <- max(vapply(parts, function(r) as.double(r$threads), numeric(1)))
  out$lp_serial <- any(vapply(parts, function(r) isTRUE(r$lp_serial), logical(1)))
  c(out, list(states = do.call(rbind, lapply(parts, `[[`, "states")),
              trace = do.call(cbind, lapply(parts, `[[`, "trace"))))
}

mip_states <- function(p, S) {
  X <- p$values[1] + S * (p$values[2] - p$values[1])
  storage.mode(X) <- if (all(p$values == round(p$values))) "integer" else "double"
  colnames(X) <- if (!is.null(p$labels)) p$labels else paste0("x", seq_len(p$n))
  X
}

new_mip_samples <- function(p, res, model, method, time, seed, call, subclass = "logz_mip") {
  n <- length(res$value)
  exact <- as.logical(res$exact)
  all_exact <- all(exact)
  tr <- res$trace
  trace <- data.frame(sample = as.integer(tr[1, ]), nodes = tr[2, ], time = tr[3, ],
                      value = tr[4, ], upper = tr[5, ])
  diag <- data.frame(sample = seq_len(n), value = res$value, upper = res$upper, exact = exact,
                     rank_bound = res$rank_bound, nodes = res$nodes, lp_solves = res$lp_solves,
                     time = res$time)
  if (!is.null(res$helped)) diag$shared_nodes <- res$helped
  x <- list(states = mip_states(p, res$states), value = res$value, upper = res$upper,
            exact = exact, rank_bound = res$rank_bound, nodes = res$nodes,
            lp_solves = res$lp_solves, sample_time = res$time,
            log_z = if (all_exact) mean(res$value) - euler_gamma else NA_real_,
            se = if (all_exact) pi / sqrt(6 * n) else NA_real_,
            method = method, time = time,
            counts = c(samples = n, exact = sum(exact), nodes = sum(res$nodes),
                       lp_solves = sum(res$lp_solves), lp_failures = sum(res$lp_failures)),
            diagnostics = diag, trace = trace, seed = seed, call = call, model = model,
            threads = if (!is.null(res$threads)) as.integer(res$threads) else 1L,
            se_note = if (!all_exact) "not all samples exact; log Z is only bounded (log_z_bounds())",
            flags = if (!all_exact) sprintf("%d of %d samples not exact within the time/node limit",
                                            n - sum(exact), n))
  warn_unreliable(new_logz_estimate(x, c(subclass, "logz_samples")))
}
