/* SPDX-License-Identifier: MIT */
/* A library that calls printf: check_symbols.py must refuse it (the test that
 * shows the symbol check can fail). Not part of sgrt. */
#include <stdio.h>

int ports_bad_symbols(int x);

int ports_bad_symbols(int x)
{
    return printf("%d\n", x);
}
