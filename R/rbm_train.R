#' Train an RBM by contrastive divergence
#'
#' Minibatch CD-k (Hinton 2002) or persistent CD (PCD, Tieleman 2008) with
#' momentum and L2 weight decay, in C with BLAS `dgemm` over each batch.
#' Weights start at `N(0, 0.01^2)`, visible biases at the base-rate logits and
#' hidden biases at zero; examples are shuffled every epoch.
#'
#' @section The default recipe: mini-batches of 100 examples, learning rate
#'   0.05 decaying linearly to 0 over the run (`lr_schedule = "linear"`: the
#'   rate of update \eqn{t = 0, \dots, T-1} of \eqn{T} is
#'   \eqn{\epsilon (1 - t/T)}, the linear decay to zero of Tieleman 2008), momentum 0.5,
#'   weight decay \eqn{2 \times 10^{-4}}, and for PCD as many persistent
#'   fantasy chains as the batch (`n_chains = batch_size`, as in Tieleman
#'   2008's description of PCD). The chain count matters: with few persistent
#'   chains and a fixed rate a PCD model over-sharpens (log Z and the
#'   held-out log-likelihood drift apart). CD-k (the CD1 / CD3 / CD25 models
#'   whose log Z Salakhutdinov & Murray 2008 estimate by AIS) uses the same
#'   mini-batches and rate schedule; the numbers are this package's choice,
#'   not copied from either paper. A
#'   decaying rate also makes the end of training stable: the model does not
#'   jump with the last few mini-batches. The default length, about 2,400
#'   updates, was chosen by the held-out log-likelihood of 20-hidden PCD
#'   models on the bundled digits against the number of epochs; longer runs
#'   still gain, at proportional cost.
#'
#'   Pass `validation` (held-out rows) to see over-sharpening: every
#'   `eval_every` epochs and at the last one, `history` gets log Z (exact, by
#'   enumerating the hidden layer, for `n_hidden <= 20`; else an [ais()]
#'   estimate with a linear schedule of 1,000 steps and 100 chains, which errs
#'   low on large models, so the log-likelihoods err high) and the mean
#'   train and validation log-likelihood (at most 2,000 rows each). If the
#'   last validation log-likelihood is more than \eqn{\max(1, 3\,se)} nats
#'   below its best while the train log-likelihood rose over the same epochs,
#'   a warning says so. Each check costs an enumeration of \eqn{2^{n_h}} states
#'   or an AIS run of 100,000 chain-steps.
#'
#' @param data 0/1 matrix or data frame, one example per row (e.g. `mnist$x`).
#' @param n_hidden number of hidden units (>= 1).
#' @section Training on tempered chains: `method = "tempered"` (Carlson et al.
#'   2016, Section 4.4) takes the gradient's negative phase from `n_chains`
#'   persistent simulated-tempering chains on \eqn{(v, k)}, \eqn{q(v, k)
#'   \propto f_k(v) r_k / \hat Z_k} with \eqn{f_k = f^{\beta_k}
#'   p_1^{1 - \beta_k}} (`track$K` evenly spaced \eqn{\beta_k}, \eqn{p_1} the
#'   base-rate model of `data`), run in C by [rts()]'s sweeps and temperature
#'   moves for `k` sweeps between updates and kept across updates. The
#'   \eqn{\beta = 1} expectations of \eqn{v h'}, \eqn{v} and \eqn{h} are
#'   Rao-Blackwellized over the temperature: each chain's state \eqn{v_c}
#'   after the sweeps enters with weight \eqn{q(\beta_K | v_c)}, the hidden
#'   units summed out, since \eqn{E_{p}[g] = E_q[q(\beta_K | v) g(v)] /
#'   E_q[q(\beta_K | v)]}. The same sweeps give the Rao-Blackwellized
#'   \eqn{\hat c_k} (Eq. 9), and after every update the ladder moves by the
#'   partial update of Eq. 12, \eqn{\hat Z^{(t+1)}_k = \hat Z^{(t)}_k ((r_1 /
#'   r_k)(\hat c_k / \hat c_1))^{\alpha}}, which keeps the sampler balanced
#'   and, with `track_log_z = TRUE`, is the tracked log Z of the parameters the
#'   chains ran under (before the update), with the se of [rts()]'s tracker
#'   (its Eq. 16 noise and lag terms, see `track_log_z`). The chains start
#'   from the base and the initial iterations of Section 2.4
#'   (`track$init_iter` of `track$init_sweeps` sweeps). The paper's run: CD-1
#'   pretraining (pass it as `init`), then `k = 25`, `n_chains = 2000`,
#'   `track = list(K = 100, prior = "exp2", alpha = 0.2)`, `optimizer =
#'   "rmsspectral"`, `learning_rate = 1e-5`, `rms_lambda = 0.99`,
#'   `lr_schedule = "constant"`. Tempered training and `optimizer =
#'   "rmsspectral"` run their mini-batch loop in R (the positive phase, the
#'   optimizer and, for CD / PCD, the Gibbs steps with R's RNG); the default
#'   CD / PCD with `"sgd"` stays in C.
#'
#'   **RMSspectral** (Carlson, Collins, Hsieh, Carin & Cevher 2015, Algorithm
#'   2): per parameter block with gradient \eqn{g}, \eqn{v \leftarrow
#'   \lambda v + (1 - \lambda) g^2} (from 0), \eqn{d = \sqrt v + 10^{-6}},
#'   and the block moves by `learning_rate` \eqn{d^{-1/2} (d^{-1/2} g)^\#}:
#'   for `W`, \eqn{X^\# = \|s\|_1 U V'} from the SVD \eqn{X = U
#'   \mathrm{diag}(s) V'} (the steepest ascent of the spectral norm); for the
#'   biases \eqn{x^\# = \|x\|_1 \mathrm{sign}(x)} (of the max norm).
#'   `momentum` does not apply to it.
#' @param method `"cd"` (contrastive divergence, negative chains start at the
#'   batch), `"pcd"` (persistent chains, `batch_size` of them) or
#'   `"tempered"` (persistent simulated-tempering chains, see "Training on
#'   tempered chains"; `k` sweeps between updates, `n_chains` chains).
#' @param k Gibbs steps per update (CD-k / PCD-k).
#' @param epochs passes over the data; `NULL` (default): enough for about
#'   2,400 updates, `ceiling(2400 / updates per epoch)` kept between 10 and
#'   100 (30 epochs of 100-example batches on 8,000 rows), said in a message
#'   (see "The default recipe").
#' @param learning_rate step size (> 0) of the first update.
#' @param lr_schedule `"linear"` (default): the rate decays linearly from
#'   `learning_rate` to 0 over the `epochs` (Tieleman 2008); `"constant"`: a
#'   fixed rate (Kiwaki 2015's "fixed learning rate").
#'   A call with `init` starts its own schedule.
#' @param batch_size examples per update (1 to `nrow(data)`; the default 100
#'   becomes `nrow(data)` on smaller data, full-batch updates); the remainder of
#'   an epoch that does not fill a batch is skipped (it is reshuffled into later
#'   epochs).
#' @param n_chains number of persistent fantasy chains for `method = "pcd"`
#'   (default: `batch_size`); they start at random training examples and the
#'   negative statistics average over them. With `method = "cd"` the chains
#'   start at the batch, so `n_chains` must equal `batch_size`.
#' @param momentum momentum coefficient in `[0, 1)`.
#' @param weight_decay L2 penalty coefficient (>= 0) on `W`.
#' @param init optional `rbm` to continue training from (its sizes must match).
#' @param seed optional integer: train with this seed and leave the global RNG
#'   untouched. With `seed = NULL` the global RNG is used (so `set.seed()`
#'   before the call reproduces the model).
#' @param progress show a progress bar (default: in interactive sessions).
#' @param track_log_z track log Z and the train / validation log-likelihood
#'   with Rao-Blackwellized tempered sampling ([rts()]; Carlson et al. 2016,
#'   Section 4.4): tempered chains persist through training and, by default,
#'   after every parameter update (mini-batch) run `track$sweeps` sweeps under
#'   the new parameters; the ladder \eqn{\log \hat Z_k} then moves a fraction
#'   \eqn{\alpha_t} of the way to its RTS update (Eq. 12),
#'   \eqn{\hat Z^{(t+1)} = \hat Z^{(t)} ((r_1 / r_k)(\hat c_k / \hat c_1))^{\alpha_t}},
#'   applied to the whole ladder so the sampler stays balanced. With
#'   `track$gain = "fixed"`, \eqn{\alpha_t = \alpha} (`track$alpha`, the
#'   paper's 0.2). With `"adaptive"` (the default),
#'   \eqn{\alpha_t = \max(\alpha, 1 - (3 s_t / d_t)^2)}, where \eqn{d_t} is the
#'   step's innovation (its own estimate of log Z minus the tracked value) and
#'   \eqn{s_t} that estimate's Eq. 16 se: a change of log Z beyond 3 se of
#'   the step's noise is taken nearly whole, so the tracked value does not trail
#'   a log Z that moves fast, while innovations within about 3.35 se (log Z
#'   settled) get the constant \eqn{\alpha} and the paper's smoothing, at no
#'   extra cost. `track$every = "epoch"` makes one step per epoch
#'   instead (then 200 sweeps and \eqn{\alpha = 1} by default: a per-epoch
#'   step with a small \eqn{\alpha} lags behind a log Z that moves by nats per
#'   epoch). The chains are the tracker's own, not the training's
#'   negative chains (the paper samples its gradient from the tempered chains,
#'   so its tracking costs only the \eqn{\hat c_k}); the time they take is in
#'   `history$track_time`. While the parameters move fast (early training at a
#'   high rate) a few sweeps per step leave the chains behind them and the
#'   tracked value can be off by several nats. By default a step whose
#'   innovation exceeds 3 of its se is followed by up to `track$extra_steps`
#'   (3) further steps under the same parameters, until the innovation is
#'   within 3 se, so the extra sweeps go to the updates that move log Z
#'   (mostly early in training); `track$predict` also moves the ladder before
#'   each step by the importance-weighted change of log Z on the chains'
#'   states. Both lower the error (not in the paper); neither removes it while
#'   log Z swings by nats per update, and
#'   `track$check_every` compares the tracked value with exact or AIS log Z
#'   (`vignette("rbm", package = "logz")`).
#'
#'   **se and flags of the tracked value.** Each tracking step's own RTS
#'   estimate (Eq. 12 from its \eqn{\hat c_k}) has the Eq. 16 se of its chains,
#'   \eqn{s_t}, and lies \eqn{d_t} from the last tracked value; the new
#'   tracked value, moved \eqn{\alpha_t} of the way, lies
#'   \eqn{g_t = (1 - \alpha_t) d_t} from it. The tracked value's se is
#'   \eqn{\sqrt{s_t^2 + ((1 - \alpha) d_t)^2 + 4 \overline{(d^2 - s^2)_+}}},
#'   the bar a mean over the last 20 steps (fewer at the start): with the
#'   constant gain the second term is the lag of the smoothing; the third is
#'   the lag of the chains, which with a few sweeps per step trail a log Z that
#'   moves, so that each step's own estimate is off by more than its Eq. 16 se.
#'   Its size, twice the RMS excess of the recent innovations over their noise,
#'   is an empirical scale calibrated against exact log Z on MNIST RBMs, not
#'   a bound; the innovations flag below
#'   marks the steps where it carries the se.
#'   While log Z is settled and the chains keep up, the innovation z of a
#'   step, \eqn{z_t = d_t / s_t}, is noise with \eqn{z_t^2} about 1 on
#'   average, and the third term is small.
#'   The lag z of a step is \eqn{g_t / s_t}: noise of mean 0 while the ladder
#'   keeps up with the parameters, one sign while it trails a moving log Z;
#'   the adaptive gain keeps it within 3 in size.
#'   Three flags (warned once, class `logz_unreliable`, and kept in
#'   `track_flags`; see [logz_reliability]) mark epochs whose tracked value is
#'   unreliable: a **tracking visit deficit**, some temperature visited less
#'   than 0.1 times as often as the prior asks over the epoch's steps
#'   (`history$visit_ratio < 0.1`, [rts()]'s threshold); a **tracking lag**,
#'   the epoch's mean lag z beyond 3 in size (`abs(history$lag_z) > 3`); and
#'   **tracking innovations**, the mean of \eqn{z_t^2} over the last 20 steps
#'   above 9 at some step of the epoch (`history$innov_z2 > 9`, the epoch's
#'   largest such mean; per step in `log_z_track$innov_z2`): log Z moves by
#'   more than 3 se of the steps' noise per step, the chains may trail it, and
#'   the se rests on the lag term above. With `track$gain = "fixed"` the lag
#'   flag is expected early in training, while log Z moves by nats per update;
#'   with the adaptive gain it does not fire. The innovations flag is expected
#'   with the default settings while training moves log Z fast (the first
#'   epochs of the default recipe) and goes quiet once log Z settles; it reads
#'   only how fast log Z moves, so it also fires when the chains do keep up.
#'   `track$check_every` compares the tracked value with exact or AIS log Z.
#' @param validation optional 0/1 matrix of held-out examples (same columns as
#'   `data`): turns on the held-out log-likelihood check (see "The default
#'   recipe"), or with `track_log_z` the RTS-tracked validation
#'   log-likelihood.
#' @param eval_every epochs between held-out checks (default
#'   `ceiling(epochs / 10)`); the last epoch is always checked.
#' @param optimizer `"sgd"` (default: momentum and the learning-rate
#'   schedule) or `"rmsspectral"` (see "Training on tempered chains"; the
#'   rate schedule applies to its step).
#' @param rms_lambda RMSspectral's decay of the running mean of the squared
#'   gradient, in `[0, 1)` (the paper's 0.99).
#' @param threads threads for the tempered chains (`method = "tempered"`; the
#'   result does not depend on it).
#' @param track list of tracking settings: `every` (`"update"`, default, or
#'   `"epoch"`), `K` (100 temperatures), `n_chains` (100), `sweeps` per
#'   tracking step (5 per update, 200 per epoch), `alpha` (0.2 per update, 1
#'   per epoch; in `(0, 1]`), `init_iter` (10) and `init_sweeps` (50): the
#'   initial iterations (Section 2.4) on the initial parameters, `prior`
#'   (`"exp2"`: \eqn{r_k \propto e^{2\beta_k}} as in the paper, or
#'   `"uniform"`), `max_examples` (2000: rows used for the mean
#'   log-likelihoods), `check_every` (0: none; else every `check_every` epochs
#'   and at the last, log Z of the current parameters by enumeration for
#'   `n_hidden <= 20`, else by AIS as in the held-out check, to compare with
#'   the tracked value; the checks leave R's random numbers, and so the
#'   trained model, as they were), `predict` (`FALSE`; `TRUE`: before each step, move
#'   the ladder by the importance-weighted change of log Z from the last
#'   parameters to the new ones, \eqn{\log E_k[f'_k(x) / f_k(x)]} on the
#'   chains' states, Rao-Blackwellized over the rungs, estimated at 11 rungs
#'   evenly spaced in \eqn{\beta} and interpolated linearly between them;
#'   not in the paper), `gain`
#'   (`"adaptive"`, default, or `"fixed"`: how far each step moves the ladder,
#'   see `track_log_z`), `extra_steps` (3 per update, 0 per epoch; a whole
#'   number from 0 to 100: after a
#'   tracking step whose innovation \eqn{|d_t / s_t|} exceeds 3, run further
#'   steps of `sweeps` sweeps under the same parameters, each moving the
#'   ladder as above, until the innovation is within 3 or `extra_steps` of
#'   them have run; they count as tracking steps in the se's lag term and the
#'   innovations flag, and their time is in `history$track_time`; not in the
#'   paper).
#'   With `method = "tempered"` the settings are those of the chains and
#'   apply with or without `track_log_z`: `K` (100), `prior` (`"exp2"`, or
#'   `"uniform"`), `alpha` (0.2), `gain` (`"fixed"`, the paper's, or
#'   `"adaptive"`), `init_iter` (10), `init_sweeps` (50), `max_examples`
#'   (2000), `ll_every` (1: the log-likelihoods every this many updates, and
#'   at each epoch's last; log Z is tracked at every update) and `keep_every`
#'   (0; else the parameters of every `keep_every`-th update with their
#'   tracked log Z and se are kept in `kept`, to check the tracker).
#' @return An [rbm()] with extra elements `method` (e.g. `"CD-1"`),
#'   `base_rate` (visible biases of the base-rate model of `data`, the default
#'   AIS base), `history` (data frame: `epoch`, `reconstruction_error` (mean
#'   squared error of the mean-field reconstruction per example), `time`
#'   (seconds, tracking included); with `track_log_z` also `log_z` (the
#'   tracked log Z after the epoch's last update), `train_ll`, `valid_ll`
#'   (nats per example; NA without `validation`), `track_time` (seconds spent
#'   in tracking steps), `visit_ratio` (\eqn{\min_k \hat c_k / r_k} over the
#'   epoch's tracking steps: well below 1, e.g. under [rts()]'s 0.1, the ladder
#'   lags the parameters and the tracked value is unreliable), `log_z_se` (the
#'   se of `log_z`), `innov_z2` (the largest mean squared innovation z over
#'   20 steps at the epoch's steps) and `lag_z` (the mean lag z of the epoch's steps; see
#'   `track_log_z`) and with
#'   `track$check_every` `check_log_z`, `check_log_z_se`, `check_method`
#'   (`"exact"` or `"ais"`, NA at epochs not checked); with `validation` and no
#'   `track_log_z`, the held-out check's `log_z`, `log_z_se` (0 when exact),
#'   `log_z_method` (`"exact"`, `"ais"`, or `"ais (flagged)"` when the AIS
#'   estimate crossed a reliability threshold, see [logz_reliability]), `train_ll`, `valid_ll`, NA at
#'   epochs not checked; `learning_rate` is the rate of each epoch's first
#'   update), `seed` (RNG state at entry), and for PCD `chains` (the
#'   `n_chains` x `n_visible` persistent chains at the end, from which a call
#'   with `init` continues), and with `track_log_z` `log_z_track` (data frame
#'   `update`, `epoch`, `log_z`, `se`, `lag_z`, `innov_z2`: the tracked log Z
#'   after every tracking step, its se, the step's lag z and the mean of
#'   \eqn{z_t^2} over the last 20 steps) and `track_flags` (character:
#'   the tracking flags, empty when none). With `method = "tempered"`:
#'   `chains` (the tempered chains' visible states, `n_chains` x
#'   `n_visible`), `history` with `visit_ratio` and, with `track_log_z`,
#'   `log_z`, `log_z_se`, `train_ll`, `valid_ll`, `track_time`; `log_z_track`
#'   (`update`, `epoch`, `log_z`, `se`, `train_ll`, `valid_ll`: one row per
#'   update, the log Z of the parameters the update started from) and `kept`
#'   (see `track$keep_every`).
#' @section Errors: non-binary, NA or empty `data`; `n_hidden`, `k`, `epochs`,
#'   `batch_size`, `n_chains`, `eval_every` not positive whole numbers; `n_chains`
#'   different from `batch_size` with `method = "cd"`; an unknown
#'   `lr_schedule`; `validation` with the wrong number of columns; `learning_rate <= 0`; `momentum`
#'   outside `[0, 1)`; an `init` model of the wrong size; an `n_hidden` whose
#'   parameters need more than 16 GB (with the figure); a `track` that is not a
#'   named list of the settings above, or a setting out of range (the error
#'   names it, e.g. `track$every`, `track$alpha`, `track$gain`); an unknown
#'   `optimizer`; `rms_lambda` outside `[0, 1)`; `threads` not a positive
#'   whole number; `track_log_z` with `optimizer = "rmsspectral"` and a
#'   method other than `"tempered"`.
#' @references
#' * Hinton, G. E. (2002). Training products of experts by minimizing contrastive
#'   divergence. Neural Computation 14, 1771-1800.
#' * Carlson, D., Stinson, P., Pakman, A. and Paninski, L. (2016). Partition functions
#'   from Rao-Blackwellized tempered sampling. ICML.
#' * Tieleman, T. (2008). Training restricted Boltzmann machines using approximations
#'   to the likelihood gradient. ICML.
#' * Carlson, D., Collins, E., Hsieh, Y.-P., Carin, L. and Cevher, V. (2015).
#'   Preconditioned spectral descent for deep learning. NIPS.
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
#' @examples
#' set.seed(1)
#' # a small, quick model: 12 hidden units (the exact log Z behind each
#' # check's log-likelihoods enumerates 2^12 hidden states)
#' m <- rbm_train(mnist$x[1:1000, ], n_hidden = 12, method = "pcd", epochs = 20,
#'                validation = mnist$x[9001:9500, ], progress = FALSE)
#' m
#' m$history[!is.na(m$history$valid_ll), c("epoch", "log_z", "train_ll", "valid_ll")]
#' \donttest{
#' # the default length (30 epochs on 8,000 digits) on the README's split
#' m20 <- rbm_train(mnist$x[1:8000, ], n_hidden = 20, method = "pcd", progress = FALSE)
#' mean(log_likelihood(m20, mnist$x[8001:10000, ], exact_log_z(m20)))
#' }
#' # training on tempered chains with log Z tracked from them (a small model)
#' mt <- rbm_train(dna$x[1:500, 1:20], n_hidden = 10, method = "tempered", k = 5,
#'                 n_chains = 100, epochs = 2, track_log_z = TRUE,
#'                 track = list(K = 20), progress = FALSE)
#' tail(mt$log_z_track, 3)
#' @export
rbm_train <- function(data, n_hidden, method = c("cd", "pcd", "tempered"), k = 1L, epochs = NULL,
                      learning_rate = 0.05, lr_schedule = c("linear", "constant"),
                      batch_size = 100L, n_chains = batch_size, momentum = 0.5,
                      weight_decay = 2e-4, init = NULL, seed = NULL,
                      progress = interactive(), validation = NULL, eval_every = NULL,
                      track_log_z = FALSE, track = list(),
                      optimizer = c("sgd", "rmsspectral"), rms_lambda = 0.99, threads = 1L) {
  call <- match.call()
  data <- as_binary_matrix(data, "data")
  method <- match_arg(method, "method")
  if (is.numeric(n_hidden) && length(n_hidden) == 1L && !is.na(n_hidden) && n_hidden >= 1)
    check_memory(5 * 8 * ncol(data) * (n_hidden + 1),
                 sprintf("An RBM with n_hidden = %s hidden units (%d visible)",
                         format(n_hidden), ncol(data)))
  n_hidden <- check_count(n_hidden, "n_hidden")
  k <- check_count(k, "k")
  if (!is.null(epochs)) epochs <- check_count(epochs, "epochs", min = 0L)
  learning_rate <- check_number(learning_rate, "learning_rate", lower = 0, lower_open = TRUE)
  # the default batch (100) shrinks to the data (full-batch updates) on fewer
  # rows; a batch_size given explicitly must fit the data
  batch_size <- if (missing(batch_size)) min(check_count(batch_size, "batch_size"), nrow(data))
                else check_count(batch_size, "batch_size", max = nrow(data))
  epochs_chosen <- is.null(epochs)
  if (epochs_chosen) epochs <- default_epochs(nrow(data), batch_size)
  lr_schedule <- match_arg(lr_schedule, "lr_schedule")
  n_chains <- if (missing(n_chains)) batch_size else check_count(n_chains, "n_chains")
  if (method == "cd" && n_chains != batch_size)
    stop_no_call(sprintf(paste0("`n_chains` (%d) must equal `batch_size` (%d) for method = \"cd\" ",
                                "(CD chains start at the batch); use method = \"pcd\" for ",
                                "persistent chains."), n_chains, batch_size))
  momentum <- check_number(momentum, "momentum", lower = 0, upper = 1, upper_open = TRUE)
  optimizer <- match_arg(optimizer, "optimizer")
  rms_lambda <- check_number(rms_lambda, "rms_lambda", lower = 0, upper = 1, upper_open = TRUE)
  threads <- check_count(threads, "threads")
  driven <- method == "tempered" || optimizer == "rmsspectral"   # R/rbm_tempered.R
  weight_decay <- check_number(weight_decay, "weight_decay", lower = 0)
  check_flag(progress, "progress")
  nv <- ncol(data)
  # rts: tracking log Z during training
  check_flag(track_log_z, "track_log_z")
  if (!is.null(validation)) validation <- as_binary_matrix(validation, "validation", n_col = nv)
  if (method == "tempered") track <- rbm_tempered_control(track)
  else if (track_log_z) track <- rts_track_control(track)
  else if (!identical(track, list()))
    stop_no_call(sprintf("`track` (%s) applies only with `track_log_z = TRUE`.", describe(track)))
  # held-out check (R/rbm_train_eval.R): every `eval_every` epochs and at the last
  if (driven && track_log_z && method != "tempered")
    stop_no_call(paste0("`track_log_z` with optimizer = \"rmsspectral\" needs method = ",
                        "\"tempered\" (the tracker's chains are the training's)."))
  check_eval <- !track_log_z && !is.null(validation) && epochs > 0L
  eval_every <- if (is.null(eval_every)) max(1L, as.integer(ceiling(epochs / 10)))
                else check_count(eval_every, "eval_every")
  n_batches <- nrow(data) %/% batch_size
  lr_step <- if (lr_schedule == "linear") learning_rate / (epochs * n_batches) else 0
  if (epochs_chosen)
    message(sprintf("rbm_train(): %d epochs (%s updates of %d rows); set `epochs` to choose.",
                    epochs, format(epochs * n_batches, big.mark = ","), batch_size))
  with_seed(seed, {
    seed_state <- rng_state()
    if (is.null(init)) {
      params <- list(W = matrix(rnorm_chunked(nv * n_hidden, sd = 0.01), nv, n_hidden),
                     a = base_rate_bias(data), b = numeric(n_hidden))
    } else {
      check_rbm(init, "init")
      if (init$n_visible != nv || init$n_hidden != n_hidden)
        stop_no_call(sprintf("`init` has %d x %d units but `data` and `n_hidden` ask for %d x %d.",
                             init$n_visible, init$n_hidden, nv, n_hidden))
      params <- list(W = init$W, a = init$a, b = init$b)
    }
    # persistent chains continue from `init` when it carries as many
    P0 <- if (method == "pcd" && !is.null(init$chains) && nrow(init$chains) == n_chains)
            t(init$chains)
    if (driven) {   # R/rbm_tempered.R
      out <- rbm_train_driven(data, params, P0, list(
        method = method, k = k, epochs = epochs, learning_rate = learning_rate,
        lr_step = lr_step, batch_size = batch_size, n_chains = n_chains, momentum = momentum,
        weight_decay = weight_decay, optimizer = optimizer, rms_lambda = rms_lambda,
        rms_epsilon = rbm_rms_epsilon, threads = threads, track_log_z = track_log_z,
        validation = validation, tctl = track, progress = progress, check_eval = check_eval,
        eval_every = eval_every))
    } else {
      state <- list(dW = matrix(0, nv, n_hidden), da = numeric(nv), db = numeric(n_hidden),
                    P = P0)
      data_t <- t(data)
      history <- data.frame(epoch = integer(0), reconstruction_error = numeric(0),
                            time = numeric(0), learning_rate = numeric(0))
      # rts: tracking log Z during training
      tracker <- if (track_log_z) rts_tracker_start(params, base_rate_bias(data), track)
      track_lz <- vector("list", epochs)
      pb <- progress_bar(progress, epochs)
      for (ep in seq_len(epochs)) {
        t0 <- proc.time()[["elapsed"]]
        control <- list(perm = sample.int(nrow(data)) - 1L, pcd = as.integer(method == "pcd"),
                        k = k, batch_size = batch_size, n_chains = n_chains,
                        learning_rate = learning_rate - (ep - 1) * n_batches * lr_step,
                        lr_step = lr_step, momentum = momentum, weight_decay = weight_decay)
        per_update <- track_log_z && track$every == "update"   # rts: a tracking step per update
        res <- if (per_update) rts_track_epoch(data_t, params, state, control, tracker)
               else rbm_train_epoch(data_t, params, state, control)
        params <- res[c("W", "a", "b")]
        state <- res[c("dW", "da", "db", "P")]
        history[ep, c("epoch", "reconstruction_error", "time", "learning_rate")] <-
          list(ep, res$recon_error, proc.time()[["elapsed"]] - t0, control$learning_rate)
        if (track_log_z) {  # rts
          track_t0 <- tracker$time
          if (per_update) {
            tracker <- res$tracker
            track_lz[[ep]] <- res$log_z
          } else {
            tracker <- rts_tracker_update(tracker, params)
            track_lz[[ep]] <- rts_tracker_point(tracker)
          }
          vis <- rts_tracker_visits(tracker)
          tracker <- vis$tracker
          lz <- rts_tracker_log_z(tracker)
          history$time[ep] <- proc.time()[["elapsed"]] - t0
          history$track_time[ep] <- tracker$time - track_t0
          history$visit_ratio[ep] <- vis$ratio
          history$log_z[ep] <- lz
          history$log_z_se[ep] <- tracker$se
          history$lag_z[ep] <- mean(track_lz[[ep]][, "lag_z"])
          iz <- track_lz[[ep]][, "innov_z2"]
          history$innov_z2[ep] <- if (any(!is.na(iz))) max(iz, na.rm = TRUE) else NA_real_
          history$train_ll[ep] <- rts_track_ll(params, data, lz, track$max_examples)
          history$valid_ll[ep] <- rts_track_ll(params, validation, lz, track$max_examples)
          if (track$check_every > 0L)
            history <- rts_track_check(history, ep, params, base_rate_bias(data),
                                       due = ep %% track$check_every == 0L || ep == epochs)
        } else if (check_eval) {
          history <- rbm_eval_epoch(history, ep, params, data, validation,
                                    due = ep %% eval_every == 0L || ep == epochs)
        }
        pb$update(ep)
      }
      pb$close()
    }
  })
  if (driven) {
    params <- out$params
    if (any(!is.finite(params$W)))
      stop_no_call("Training diverged (non-finite weights); lower `learning_rate`.")
    if (check_eval) rbm_eval_warn(out$history)
    label <- if (method == "tempered") sprintf("tempered-%d", k) else sprintf("%s-%d", toupper(method), k)
    return(new_rbm(params$W, params$a, params$b,
                   method = if (optimizer == "rmsspectral") paste(label, "RMSspectral") else label,
                   base_rate = base_rate_bias(data), history = out$history, seed = seed_state,
                   call = call, chains = if (!is.null(out$chains)) t(out$chains),
                   log_z_track = out$log_z_track,
                   kept = if (length(out$kept)) out$kept))
  }
  if (any(!is.finite(params$W)))
    stop_no_call("Training diverged (non-finite weights); lower `learning_rate`.")
  if (check_eval) rbm_eval_warn(history)
  track_flags <- if (track_log_z) rts_track_flags(history)   # rts
  chains <- if (method == "pcd" && !is.null(state$P)) t(state$P)
  new_rbm(params$W, params$a, params$b,
          method = sprintf("%s-%d", toupper(method), k), base_rate = base_rate_bias(data),
          history = history, seed = seed_state, call = call, chains = chains,
          log_z_track = if (track_log_z) rts_track_table(track_lz, track$every, n_batches),
          track_flags = track_flags)
}

# The default number of epochs: about 2,400 updates of `batch_size` rows
# (30 epochs of 100 on 8,000 rows), at least 10 and at most 100 epochs.
default_epochs <- function(n_rows, batch_size) {
  per_epoch <- max(1, n_rows %/% max(1, batch_size))
  as.integer(min(100, max(10, ceiling(2400 / per_epoch))))
}
