#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H

/* libyaml's event parser (Debian package libyaml-dev), for config files in YAML or JSON. */
#include <yaml.h>

#endif
