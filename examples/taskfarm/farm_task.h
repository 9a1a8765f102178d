/*
 * farm_task.h — the work of the task farm shared by taskfarm-seq and taskfarm: task i is a
 * deterministic integer computation whose cost varies from task to task (between S and 2S
 * rounds for size S), so a farm of workers pulling tasks on demand balances a load that a
 * static split would not (the processor farm of seeds/004).
 */
#ifndef FARM_TASK_H
#define FARM_TASK_H

#include <stdint.h>

/* Rounds of work task `i` does for size `size` (size <= cost < 2*size). */
uint64_t farm_task_cost(uint64_t i, uint64_t size);

/* Runs task `i` and returns its result (pure: the same for the same i and size). */
uint64_t farm_task_run(uint64_t i, uint64_t size);

/* Combines the results of tasks 0..n-1, in task order, into the checksum. */
uint64_t farm_checksum(const uint64_t *results, uint64_t n);

#endif /* FARM_TASK_H */
