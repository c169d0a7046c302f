/* Registration of every .Call routine (and nothing else). */
#include <R_ext/Rdynload.h>
#include "logz.h"

static const R_CallMethodDef callMethods[] = {
    {"rng_streams", (DL_FUNC) &rng_streams_call, 1},
    {"check_interrupt", (DL_FUNC) &check_interrupt_call, 0},
    {"rng_stream_unif", (DL_FUNC) &rng_stream_unif_call, 2},
    {"rbm_exact_log_z", (DL_FUNC) &rbm_exact_log_z_call, 5},
    {"rbm_train_epoch", (DL_FUNC) &rbm_train_epoch_call, 4},
    {"ais_rbm", (DL_FUNC) &ais_rbm_call, 4},
    {"ais_rbm_prepare", (DL_FUNC) &ais_rbm_prepare_call, 1},
    {"kernel_isa", (DL_FUNC) &kernel_isa_call, 0},
    {"binary_product", (DL_FUNC) &binary_product_call, 3},
    {"ais_function", (DL_FUNC) &ais_function_call, 4},
    {"cont_sweep", (DL_FUNC) &cont_sweep_call, 4},
    {"raise_rbm", (DL_FUNC) &raise_rbm_call, 4},
    {"ising_enumerate", (DL_FUNC) &ising_enumerate_call, 3},
    {"ising_gibbs", (DL_FUNC) &ising_gibbs_call, 3},
    {"ising_ais", (DL_FUNC) &ising_ais_call, 4},
    {"jt_order", (DL_FUNC) &jt_order_call, 5},
    {"jt_calibrate", (DL_FUNC) &jt_calibrate_call, 2},
    {"gumbel_rand", (DL_FUNC) &gumbel_rand_call, 3},
    {"proposal_log_mass", (DL_FUNC) &proposal_log_mass_call, 3},
    {"proposal_draw", (DL_FUNC) &proposal_draw_call, 4},
    {"proposal_log_density", (DL_FUNC) &proposal_log_density_call, 2},
    {"astar_sample", (DL_FUNC) &astar_sample_call, 3},
    {"astar_baseline", (DL_FUNC) &astar_baseline_call, 3},
    {"astar_log_lik", (DL_FUNC) &astar_log_lik_call, 2},
    {"astar_bound", (DL_FUNC) &astar_bound_call, 3},
    {"interval_eval", (DL_FUNC) &interval_eval_call, 3},
    {"mip_sample", (DL_FUNC) &mip_sample_call, 4},
    {"mip_lp_bounds", (DL_FUNC) &mip_lp_bounds_call, 3},
    {"mip_cut_bounds", (DL_FUNC) &mip_cut_bounds_call, 2},
    {"mip_roof_bounds", (DL_FUNC) &mip_roof_bounds_call, 2},
    {"mip_tree", (DL_FUNC) &mip_tree_call, 3},
    {"mip_glpk_version", (DL_FUNC) &mip_glpk_version_call, 0},
    {"mip_has_glpk", (DL_FUNC) &mip_has_glpk_call, 0},
    {"rts_rbm", (DL_FUNC) &rts_rbm_call, 4},
    {"rbm_tempered", (DL_FUNC) &rbm_tempered_call, 4},
    {"rts_ising", (DL_FUNC) &rts_ising_call, 4},
    {"gpc_ais", (DL_FUNC) &gpc_ais_call, 4},
    {"arm_new", (DL_FUNC) &arm_new_call, 3},
    {"arm_reserve", (DL_FUNC) &arm_reserve_call, 2},
    {"arm_move", (DL_FUNC) &arm_move_call, 5},
    {"arm_smooth", (DL_FUNC) &arm_smooth_call, 3},
    {"arm_copy", (DL_FUNC) &arm_copy_call, 3},
    {"arm_augment", (DL_FUNC) &arm_augment_call, 2},
    {"arm_particles", (DL_FUNC) &arm_particles_call, 3},
    {"arm_set", (DL_FUNC) &arm_set_call, 3},
    {"logz_codes", (DL_FUNC) &logz_codes_call, 0},
    {NULL, NULL, 0}
};

void R_init_logz(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, callMethods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
