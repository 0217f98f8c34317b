#ifndef CGSL_SHIM_H
#define CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rstat.h>
#include <gsl/gsl_multimin.h>

/* Swift 6 rejects reading GSL's mutable generator-type globals directly; these accessors return them. */
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_rng_type *cgsl_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }
static inline const gsl_rng_type *cgsl_rng_ranlxs0(void) { return gsl_rng_ranlxs0; }
static inline const gsl_multimin_fminimizer_type *cgsl_multimin_nmsimplex2(void) { return gsl_multimin_fminimizer_nmsimplex2; }

#endif
