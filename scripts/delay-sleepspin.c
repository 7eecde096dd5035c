/*
 * delay-sleepspin: the C anchor of scripts/delay-sleep.sh. It waits the way
 * delay.Sleep does, without the Go runtime: clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME) to (deadline - margin), then a spin on CLOCK_MONOTONIC to
 * the deadline. The margin follows delay.Sleep's rule: the p99 of the
 * recent wake-up lateness (a histogram with four buckets per power of two,
 * counts halved every 512 wake-ups) plus 2 us, 200 us before any wake-up,
 * capped at 500 us; a wait shorter than the margin is a spin. The thread's
 * timer slack is set to 1 ns, since delay.Sleep's timerfd has none.
 *
 * It samples each duration as chrono sleep does (one untimed warm-up wait
 * when d <= 100 ms, then waits back to back until the time budget is used
 * or MAXN waits) and prints, per duration, the overshoot (achieved - d, ns):
 *   d_ns n median p99 max        (p99: linear interpolation, H&F type 7)
 *
 * Usage: delay-sleepspin BUDGET_NS MAXN D_NS...
 * Build: gcc -O2 -o delay-sleepspin delay-sleepspin.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define MAX_SPIN 500000LL
#define INITIAL_MARGIN 200000LL
#define GUARD 2000LL
#define HALF_LIFE 512u
#define NBUCKETS (4 * 64)

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The lateness estimator, as delay's estimator.go. */
static uint32_t counts[NBUCKETS], total, seen;

static int bucket_of(int64_t v)
{
	if (v < 8)
		return v < 0 ? 0 : (int)v;
	int n = 64 - __builtin_clzll((uint64_t)v);
	int sub = (int)(((uint64_t)v >> (n - 3)) & 3);
	return 4 * (n - 2) + sub;
}

static int64_t bucket_high(int b)
{
	if (b < 8)
		return b;
	int n = b / 4 + 2;
	int64_t sub = b % 4;
	int64_t lo = (4 + sub) << (n - 3);
	return lo + (1LL << (n - 3)) - 1;
}

static void late_add(int64_t v)
{
	int b = bucket_of(v);
	if (b >= NBUCKETS)
		b = NBUCKETS - 1;
	counts[b]++;
	total++;
	seen++;
	if (seen % HALF_LIFE == 0) {
		total = 0;
		for (int i = 0; i < NBUCKETS; i++) {
			counts[i] /= 2;
			total += counts[i];
		}
	}
}

static int64_t margin(void)
{
	int64_t m = INITIAL_MARGIN;
	if (total > 0) {
		uint32_t rank = (uint32_t)(0.99 * total + 0.5), cum = 0;
		if (rank < 1)
			rank = 1;
		int b;
		for (b = 0; b < NBUCKETS - 1; b++) {
			cum += counts[b];
			if (cum >= rank)
				break;
		}
		m = bucket_high(b) + GUARD;
	}
	return m > MAX_SPIN ? MAX_SPIN : m;
}

static int64_t spin_until(int64_t abs)
{
	for (;;) {
		int64_t t = now_ns();
		if (t >= abs)
			return t;
	}
}

/* wait_until returns the last clock read (>= abs), or -1 when the kernel
 * wait fails. */
static int64_t wait_until(int64_t abs, int64_t now)
{
	if (now >= abs)
		return now;
	int64_t m = margin();
	if (abs - now <= m)
		return spin_until(abs);
	int64_t wake = abs - m;
	struct timespec ts = {.tv_sec = wake / 1000000000LL, .tv_nsec = wake % 1000000000LL};
	int err;
	while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		;
	if (err != 0) {
		fprintf(stderr, "delay-sleepspin: clock_nanosleep: %s\n", strerror(err));
		return -1;
	}
	int64_t woke = now_ns();
	late_add(woke - wake);
	return woke >= abs ? woke : spin_until(abs);
}

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static double linear(const int64_t *sorted, long n, double q)
{
	double v = (n - 1) * q;
	long i = (long)v;
	if (i >= n - 1)
		return (double)sorted[n - 1];
	return sorted[i] + (v - i) * (double)(sorted[i + 1] - sorted[i]);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: delay-sleepspin BUDGET_NS MAXN D_NS...\n");
		return 2;
	}
	int64_t budget = atoll(argv[1]);
	long maxn = atol(argv[2]);
	if (budget <= 0 || maxn <= 0) {
		fprintf(stderr, "delay-sleepspin: BUDGET_NS and MAXN must be positive\n");
		return 2;
	}
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) != 0)
		perror("delay-sleepspin: prctl(PR_SET_TIMERSLACK)");
	int64_t *over = malloc(sizeof(int64_t) * maxn);
	if (over == NULL)
		return 1;
	for (int a = 3; a < argc; a++) {
		int64_t d = atoll(argv[a]);
		if (d <= 0) {
			fprintf(stderr, "delay-sleepspin: bad duration %s (ns)\n", argv[a]);
			return 2;
		}
		if (d <= 100000000LL) {
			int64_t s = now_ns();
			if (wait_until(s + d, s) < 0)
				return 1;
		}
		long n = 0;
		int64_t began = now_ns(), last = 0;
		while (n < maxn) {
			if (n > 0 && now_ns() - began + last > budget)
				break;
			int64_t s = now_ns();
			int64_t e = wait_until(s + d, s);
			if (e < 0)
				return 1;
			last = e - s;
			over[n++] = e - s - d;
		}
		qsort(over, n, sizeof(int64_t), cmp);
		printf("%lld %ld %.0f %.0f %lld\n", (long long)d, n, linear(over, n, 0.5), linear(over, n, 0.99), (long long)over[n - 1]);
		fflush(stdout);
	}
	free(over);
	return 0;
}
