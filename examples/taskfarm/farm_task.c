/*
 * farm_task.c — the tasks of the task farm (see farm_task.h). Integer arithmetic only, so
 * every program and every thread computes the same bits.
 */
#include "farm_task.h"

#include "ex_cli.h"

static uint64_t mix(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t farm_task_cost(uint64_t i, uint64_t size)
{
	return size + mix(i) % size;
}

uint64_t farm_task_run(uint64_t i, uint64_t size)
{
	uint64_t x = mix(i ^ UINT64_C(0xfa51)), acc = 0;
	uint64_t rounds = farm_task_cost(i, size);

	/* a chain of dependent multiply-xorshift rounds: compute bound, no memory traffic */
	for (uint64_t r = 0; r < rounds; r++) {
		x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
		acc += x ^ (x >> 29);
	}
	return acc;
}

uint64_t farm_checksum(const uint64_t *results, uint64_t n)
{
	return ex_hash_bytes(EX_HASH_INIT, results, n * sizeof *results);
}
