// The probe's host side built by the host compiler alone (no nvcc): every
// fragment layout covers each element once, agrees with the PTX ISA's
// per-shape formulas, and C packs and unpacks to itself.
#include "probe_host.h"

int main() { return probe::selftest() ? 0 : 1; }
