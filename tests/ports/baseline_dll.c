/* SPDX-License-Identifier: MIT */
/* A DLL with nothing of sgrt's in it, linked like libsgrt: the symbols test
 * allows what it imports (MinGW-w64's DLL startup code) in sgrt's DLL. */
__declspec(dllexport) int ports_baseline(void);
int ports_baseline(void) { return 0; }
