# GumbelMIP (Kim, Sabharwal & Ermon 2016): the sampler mip_sample(), the
# constructor mip_model() and log_z_bounds(). The models it takes become "mip
# problems" in R/mip_problem.R; its engine is R/mip_engine.R; the search itself
# is in src/mip*.c (layers in src/mip.h).

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
#' polytope's, and each bound costs several GLPK solves. `lp_solver =
#' "triangle"` takes the smaller of the roof dual and a bound over the same
#' triangles without an LP solver, by dual decomposition (Sontag et al.
#' 2008): in spins \eqn{s = 2x - 1}, with a constant spin \eqn{s_0 = 1}
#' for the fields, \eqn{v = k_0 + \sum_e J_e s_u s_v}{v = k0 + sum_e J_e s_u s_v}
#' over the field and coupling edges; each \eqn{J_e} is split among the
#' triangles holding the edge (\eqn{(0, i, j)} for every coupling, whose
#' triangles alone give the local polytope, and those of the model's graph
#' frustrated at the root) and a remainder, and
#' \eqn{k_0 + \sum_T \max f_T + \sum_e |r_e|}{k0 + sum_T max f_T + sum_e |r_e|}
#' bounds every sub-problem for every split. The split is improved by block
#' coordinate descent (the best split of one edge given the others is
#' closed-form), from the root's split at every node, for at most a few
#' sweeps, stopping once the node is pruned; the bound is valid at every
#' sweep, so stopping early is safe. It only prunes: the samples are those of
#' `"roof"` on the same seed. It prunes more on graphs with many triangles
#' (dense frustrated models), at a higher cost per node; on graphs without
#' triangles (RBMs, grids) it is the roof dual at a higher cost. `"auto"`
#' does not choose it. `"auto"` (default)
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
#' **Ranked draws without replacement** (`k > 1`; Theorem 1). Each of the
#' `n` searches keeps the \eqn{k} largest perturbed values
#' \eqn{v(\sigma) + \gamma_\sigma} among the configurations tied to a
#' Gumbel value so far (the root's \eqn{\sigma} and each split's
#' \eqn{\tilde\sigma}, all distinct) and prunes a sub-problem when its bound +
#' \eqn{\gamma_P} cannot beat the \eqn{k}-th of them (\eqn{-\infty} while
#' fewer than \eqn{k} are known). When no sub-problem is left these are the
#' \eqn{k} largest of all \eqn{2^p} perturbed values, and by Theorem 1 of
#' Kim, Sabharwal & Ermon (2016) their states, in decreasing order, are
#' \eqn{k} draws without replacement from \eqn{p}:
#' \deqn{P(\sigma_{(1)}, \dots, \sigma_{(k)}) = \prod_{j=1}^{k}
#'   \frac{w(\sigma_{(j)})}{Z - \sum_{i<j} w(\sigma_{(i)})}}{P(s1, ..., sk) = prod_j w(sj) / (Z - sum_{i<j} w(si))}
#' (the Plackett-Luce law; the Gumbel-top-k trick). The first is the
#' sample that `k = 1` returns under the same seed, with the same value (with
#' `lp_solver = "cycle"`, whose cuts depend on what the search has found,
#' the same in law only), so `states`, `value`, `log_z` and
#' [log_z_bounds()] keep their meaning. An early
#' stop returns the \eqn{k} best found (positions never reached are `NA`);
#' the \eqn{j}-th's rank among all perturbed configurations has expectation at
#' most \eqn{j - 1} plus Proposition 1's bound at its value (every
#' configuration found that beats it is above it in the list), which is
#' \eqn{j} when exact. Threads, interrupts and limits work as for
#' `k = 1`.
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
#' `vignette("exact-sampling", package = "logz")` shows a run end to end.
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
#'   models only), `"triangle"` (roof duality and a triangle bound by dual
#'   decomposition; pairwise models only) or `"cycle"` (GLPK with triangle
#'   cuts; pairwise models only).
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
#' @param k number of distinct states each search returns, ranked by
#'   perturbed value: a whole number from 1 to \eqn{2^p} (see Ranked draws
#'   without replacement).
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
#'   \item{`k`, `ranked_states`, `ranked_value`, `ranked_rank_bound`}{with
#'     `k > 1` only: `k`; an `n x k x p` array of each search's states in
#'     decreasing perturbed value (`ranked_states[i, 1, ]` is
#'     `states[i, ]`); their perturbed values and the bounds on the expected
#'     rank of each, `n x k` (`NA` where an early stop found fewer than `k`).}
#'   \item{`method`, `time`, `counts`, `diagnostics`, `seed`, `call`,
#'     `model`}{as for every [logz_estimate].}
#' }
#' @section Errors: `model` not a supported model; `n`, `threads` not whole
#'   numbers (`threads` outside 1 to 1024); `k` not a whole number from 1 to
#'   the number of states \eqn{2^p}, or (exact searches of a [mip_model()])
#'   more than its feasible points; `proposal` not one of the names nor
#'   \eqn{p} probabilities strictly inside (0, 1), or `"marginals"` for a
#'   model that is not an ising model; `time_limit`, `node_limit` not
#'   positive; unknown `bound`, `node_selection`, `branching`, `encoding`; a
#'   mip_model with no feasible binary point; log-weights too large (see
#'   Scale); `lp_solver = "cut"` on a model that is not attractive, `"roof"`,
#'   `"triangle"` or `"cycle"` on a [mip_model()]; the LP bound by GLPK when logz was
#'   built without GLPK; GLPK failures (raised as R errors with GLPK's
#'   message; R does not abort); an interrupt or time limit.
#' @references
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI (Algorithm 1, Theorem 1, Proposition 1,
#'   Theorem 2).
#' * Wainwright, M. J. and Jordan, M. I. (2008). Graphical models, exponential
#'   families, and variational inference (the local polytope).
#' * Kolmogorov, V. and Zabih, R. (2004). What energy functions can be minimized via
#'   graph cuts? IEEE TPAMI 26.
#' * Boros, E. and Hammer, P. L. (2002). Pseudo-Boolean optimization. Discrete
#'   Applied Mathematics 123 (roof duality).
#' * Kolmogorov, V. and Rother, C. (2007). Minimizing nonsubmodular functions with
#'   graph cuts -- a review. IEEE TPAMI 29 (QPBO).
#' * Barahona, F. and Mahjoub, A. R. (1986). On the cut polytope. Mathematical
#'   Programming 36.
#' * Sontag, D. and Jaakkola, T. (2007). New outer bounds on the marginal polytope.
#'   NIPS.
#' * Sontag, D., Meltzer, T., Globerson, A., Jaakkola, T. and Weiss, Y. (2008).
#'   Tightening LP relaxations for MAP using message passing. UAI (the triangle
#'   bound by dual decomposition).
#' * Makhorin, A. GNU Linear Programming Kit.
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS (Sec. 3-4:
#'   Gumbel processes with a base measure; the proposal).
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
#' # five distinct states per draw, without replacement (Theorem 1)
#' r <- mip_sample(m, 3, k = 5, progress = FALSE)
#' r$ranked_value
#' r$ranked_states[1, , ]
#' @export
mip_sample <- function(model, n = 1L, time_limit = Inf, node_limit = Inf,
                       bound = c("lp", "simple"), node_selection = c("best_first", "depth_first"),
                       branching = c("auto", "most_fractional", "first"),
                       encoding = c("compact", "local"), lp_solver = c("auto", "glpk", "cut", "roof", "triangle", "cycle"),
                       heuristic = c("dive", "none"),
                       proposal = c("uniform", "mean_field", "marginals", "tree"), threads = 1L,
                       progress = interactive(), workers = NULL, k = 1L) {
  call <- match.call()
  p <- mip_problem(model)
  n <- check_count(n, "n")
  k <- mip_check_k(k, p, n)
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
  if (lp_solver %in% c("roof", "triangle", "cycle") && !pairwise)
    stop_no_call(sprintf(paste0("`lp_solver = \"%s\"` needs a pairwise model (an ising model or an rbm), ",
                                "not a mip_model() (its LP bound is GLPK's: `lp_solver = \"glpk\"` or ",
                                "\"auto\")."), lp_solver))
  use_cut <- bound == "lp" && (lp_solver == "cut" || (lp_solver == "auto" && attractive))
  use_roof <- bound == "lp" && !use_cut &&
    (lp_solver %in% c("roof", "triangle") || (lp_solver == "auto" && pairwise))
  triangle <- if (use_roof && lp_solver == "triangle") "on" else "off"
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  control <- list(bound_lp = as.integer(bound == "lp"),
                  best_first = as.integer(node_selection == "best_first"),
                  branching = MIP_BRANCHING[[branching]],
                  perturb = 1L, node_limit = node_limit, time_limit = time_limit, cut = use_cut,
                  roof = use_roof, triangle = MIP_TRIANGLE[[triangle]],
                  cycle = bound == "lp" && lp_solver == "cycle",
                  threads = threads, dive = heuristic == "dive", proposal = q,
                  share = MIP_SHARE[["idle"]], k = k)
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
    (if (lp_solver == "triangle") "LP bound by roof duality and triangles" else
    "LP bound by roof duality") else if (lp_solver == "cycle") "LP bound by GLPK with triangle cuts"
    else "LP bound by GLPK"),
    time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
  if (pieces > 1L) out$pieces <- pieces
  if (k > 1L) out <- mip_add_ranked(out, p, res, k)
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

#' Anytime bounds on log Z from early-stopped GumbelMIP runs (Theorem 2)
#'
#' For \eqn{T} independent runs of [mip_sample()] (each sample is one run),
#' stopped early or not, Theorem 2 of Kim, Sabharwal & Ermon (2016) gives
#' \eqn{E[v^*] \le \log Z + C_E \le E[U]}, and with
#' \eqn{\epsilon = \pi \sqrt{(1/\delta - 1) / (6 T)}} (from
#' \eqn{T \ge (1/\delta - 1)\pi^2/(6\epsilon^2)}, Chebyshev-Cantelli with the
#' Gumbel variance \eqn{\pi^2/6})
#' \deqn{P(\log Z \ge \bar v^* - C_E - \epsilon) \ge 1 - \delta, \quad
#'       P(\log Z \le \bar U - C_E + \epsilon) \ge 1 - \delta.}{P(log Z >= mean(v*) - C_E - eps) >= 1 - delta, P(log Z <= mean(U) - C_E + eps) >= 1 - delta.}
#' Each statement holds separately; both hold together with probability at
#' least \eqn{1 - 2\delta}. The upper bound is finite only when every run
#' ended with a finite \eqn{U}.
#'
#' @param x a `logz_mip` result of [mip_sample()].
#' @param delta failure probability of each one-sided bound, in (0, 1).
#' @return An object of class `logz_mip_bounds`: a list with `lower`,
#'   `upper`, `eps`, `delta`, `T`, `mean_value`, `mean_upper` and `statement`
#'   (a sentence stating the guarantee).
#' @section Errors: `x` not a `logz_mip` result; `delta` outside (0, 1).
#' @references
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI, Theorem 2.
#' @examples
#' set.seed(2)
#' m <- ising_grid(4, 4, coupling = 0.5)
#' s <- mip_sample(m, 30, node_limit = 4, progress = FALSE)
#' log_z_bounds(s, delta = 0.1)
#' exact_log_z(m)
#' @export
log_z_bounds <- function(x, delta = 0.05) {
  check_estimate(x, "x")
  if (!inherits(x, "logz_mip"))
    stop_no_call(sprintf("`x` must be a mip_sample() result, not %s.", describe(x)))
  validate_mip(x)
  delta <- check_number(delta, "delta", 0, 1, TRUE, TRUE)
  T <- length(x$value)
  eps <- pi * sqrt((1 / delta - 1) / (6 * T))
  mv <- mean(x$value)
  mu <- mean(x$upper)
  structure(list(lower = mv - euler_gamma - eps, upper = mu - euler_gamma + eps, eps = eps,
                 delta = delta, T = T, mean_value = mv, mean_upper = mu,
                 statement = sprintf(paste0("log Z >= %.4f and log Z <= %.4f, each with ",
                                            "probability >= %g (both >= %g); %d runs, %d exact."),
                                     mv - euler_gamma - eps, mu - euler_gamma + eps, 1 - delta,
                                     max(0, 1 - 2 * delta), T, sum(x$exact))),
            class = "logz_mip_bounds")
}

#' Binary programs as models: sample from exp(c'x) on a feasible set
#'
#' `mip_model()` defines the distribution \eqn{p(x) \propto \exp(c'x + c_0)}
#' over binary vectors \eqn{x \in \{0,1\}^n} restricted to the feasible set
#' \eqn{\{x : A x \;\mathrm{dir}\; b\}}, for [mip_sample()] and the other
#' GumbelMIP samplers (the paper's general ILP setting, Algorithm 1 with "an
#' ILP Q"). The LP relaxation is \eqn{\max c'x} over \eqn{x \in [0,1]^n} with
#' the same constraints.
#'
#' @param objective numeric vector \eqn{c} of length \eqn{n \ge 1} (finite):
#'   the log-weight of each variable being 1.
#' @param A constraint matrix, `m x n` numeric (finite), or `NULL` for no
#'   constraints.
#' @param b right-hand sides, numeric of length `m` (finite).
#' @param dir constraint directions, `"<="`, `">="` or `"=="`, recycled to
#'   length `m`.
#' @param offset a constant \eqn{c_0} added to the log-weight.
#' @return An object of class `"logz_mip_model"`: a list with `objective`,
#'   `A`, `rlo`, `rhi` (row bounds equivalent to `dir` and `b`), `offset`, `n`.
#' @section Errors: `objective` not a finite numeric vector; `A` not a
#'   numeric matrix with `length(objective)` columns or with non-finite
#'   entries; `b` not finite or of length other than `nrow(A)`; `dir` not
#'   among the three directions; a constraint set that is infeasible already
#'   for \eqn{x \in [0,1]^n} (its LP relaxation has no solution). A set that
#'   is LP-feasible but has no binary point is reported by [mip_sample()].
#' @references
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI.
#' @seealso [mip_sample()]
#' @examples
#' # choose at most 2 of 5 items, log-weights c
#' m <- mip_model(c(1, 0.5, -0.2, 0.8, 0), A = matrix(1, 1, 5), b = 2)
#' m
#' set.seed(1)
#' s <- mip_sample(m, 20, progress = FALSE)
#' table(rowSums(s$states))
#' @export
mip_model <- function(objective, A = NULL, b = NULL, dir = "<=", offset = 0) {
  check_finite_numeric(objective, "objective")
  n <- length(objective)
  if (n < 1L) stop_no_call("`objective` must have length >= 1 (one entry per binary variable).")
  offset <- check_number(offset, "offset")
  if (is.null(A)) {
    if (!is.null(b)) stop_no_call("`b` is given but `A` is NULL; give both or neither.")
    A <- matrix(0, 0L, n)
    b <- numeric(0)
  }
  if (is.data.frame(A)) A <- as.matrix(A)
  if (is.null(dim(A)) && is.numeric(A) && length(A) == n) A <- matrix(A, 1L)
  if (!is.matrix(A) || !is.numeric(A))
    stop_no_call(sprintf("`A` must be a numeric matrix with %d columns, not %s.", n, describe(A)))
  if (ncol(A) != n)
    stop_no_call(sprintf("`A` must have %d columns (length(objective)), not %d.", n, ncol(A)))
  if (anyNA(A) || any(!is.finite(A)))
    stop_no_call("`A` must not contain NA, NaN or infinite values.")
  if (is.null(b)) stop_no_call("`b` is missing: give one right-hand side per row of `A`.")
  check_finite_numeric(b, "b", len = nrow(A))
  if (!is.character(dir) || length(dir) < 1L || anyNA(dir) || !all(dir %in% c("<=", ">=", "==")))
    stop_no_call(sprintf("`dir` must hold \"<=\", \">=\" or \"==\", not %s.", describe(dir)))
  dir <- rep_len(dir, nrow(A))
  rlo <- ifelse(dir == "<=", -Inf, b)
  rhi <- ifelse(dir == ">=", Inf, b)
  storage.mode(A) <- "double"
  obj <- as.double(objective)
  names(obj) <- names(objective)
  m <- structure(list(objective = obj, A = A, rlo = as.double(rlo), rhi = as.double(rhi),
                      offset = offset, n = n), class = "logz_mip_model")
  validate_mip_model(m)
  if (nrow(A) && logz_has_glpk()) {   # without GLPK: mip_sample() reports it
    root <- mip_lp_bounds(mip_problem(m), matrix(NA_integer_, 1L, n))
    if (root == -Inf)
      stop_no_call(sprintf(paste0("The constraints `A` x `dir` `b` are infeasible: no x in [0, 1]^%d ",
                                  "satisfies all %d rows (the LP relaxation has no solution)."),
                           n, nrow(A)))
  }
  m
}
