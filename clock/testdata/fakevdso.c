/* A stand-in for the kernel's vDSO, for the symbol lookup tests
 * (vdso_linux_test.go). Rebuild with ./fakevdso.sh; the functions are never
 * called. */
int __vdso_clock_gettime(int id, void *ts) { return id; }
int __vdso_getcpu(unsigned *cpu, unsigned *node, void *c) { return 1; }
int __kernel_clock_gettime(int id, void *ts) { return id + 1; }
int __vdso_wrong_version(void) { return 2; }
int __vdso_data_object = 3;
