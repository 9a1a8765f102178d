/*
 * export_map.c — the integer hash map of export_int.h: linear probing over a power-of-two table
 * kept at most half full, so that a lookup on the per-event path is one or two probes. The
 * exporters key it by (id space, id): function and region ids to output names or references,
 * lock ids to acquisition counts.
 */
#include <errno.h>
#include <stdlib.h>

#include "export_int.h"

#define EMPTY UINT64_MAX

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= UINT64_C(0xff51afd7ed558ccd);
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

uint32_t *export_map_find(const struct export_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key)
			return &m->vals[i];
		if (m->keys[i] == EMPTY)
			return NULL;
	}
}

static int grow(struct export_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = malloc(cap * sizeof *keys);
	uint32_t *vals = malloc(cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		keys[i] = EMPTY;
	for (size_t j = 0; j < m->cap; j++) {
		if (m->keys[j] == EMPTY)
			continue;
		size_t i = slot_of(m->keys[j], cap);
		while (keys[i] != EMPTY)
			i = (i + 1) & (cap - 1);
		keys[i] = m->keys[j];
		vals[i] = m->vals[j];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

uint32_t *export_map_slot(struct export_map *m, uint64_t key, uint32_t init, int *created)
{
	uint32_t *v = export_map_find(m, key);
	*created = 0;
	if (v)
		return v;
	if (2 * (m->n + 1) > m->cap && grow(m) < 0)
		return NULL;
	size_t i = slot_of(key, m->cap);
	while (m->keys[i] != EMPTY)
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = init;
	m->n++;
	*created = 1;
	return &m->vals[i];
}

void export_map_free(struct export_map *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct export_map){ 0 };
}
