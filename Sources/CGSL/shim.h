#ifndef CGSL_SHIM_H
#define CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rstat.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_version.h>

/* Swift 6 rejects reading GSL's mutable generator-type globals directly; these accessors return them. */
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_rng_type *cgsl_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }
static inline const gsl_rng_type *cgsl_rng_ranlxs0(void) { return gsl_rng_ranlxs0; }
static inline const gsl_multimin_fminimizer_type *cgsl_multimin_nmsimplex2(void) { return gsl_multimin_fminimizer_nmsimplex2; }
static inline const gsl_odeiv2_step_type *cgsl_odeiv2_rkf45(void) { return gsl_odeiv2_step_rkf45; }
/* The version of the GSL library linked at run time (the header's GSL_VERSION is the build's). */
static inline const char *cgsl_version(void) { return gsl_version; }

/*
 * A generator whose outputs are scripted: gsl_rng_get returns the next of `words`, and
 * gsl_rng_uniform the next of `doubles` (0 and 0.5 once either runs out), each call counted.
 * Stochastics reads GSL's ziggurat tables through it: what GSL's code returns for an output
 * chosen by us, and how many outputs it asked for.
 */
typedef struct {
  const unsigned long *words;
  unsigned long word_count, next_word;
  const double *doubles;
  unsigned long double_count, next_double;
  unsigned long calls;
} cgsl_script_state;

static unsigned long cgsl_script_get(void *vstate) {
  cgsl_script_state *state = (cgsl_script_state *)vstate;
  state->calls++;
  return state->next_word < state->word_count ? state->words[state->next_word++] : 0;
}

static double cgsl_script_get_double(void *vstate) {
  cgsl_script_state *state = (cgsl_script_state *)vstate;
  state->calls++;
  return state->next_double < state->double_count ? state->doubles[state->next_double++] : 0.5;
}

static void cgsl_script_set(void *vstate, unsigned long seed) { (void)vstate; (void)seed; }

static const gsl_rng_type cgsl_script_type = {
  "cgsl-script", 0xFFFFFFFFUL, 0, sizeof(cgsl_script_state), cgsl_script_set, cgsl_script_get,
  cgsl_script_get_double
};

static inline const gsl_rng_type *cgsl_rng_script(void) { return &cgsl_script_type; }

#endif
