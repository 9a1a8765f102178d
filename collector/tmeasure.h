/*
 * tmeasure.h — T_para of a finished run: the measured region when the program marks one, else
 * the span of its traced threads, else the wall time the runner measured. Private to collector/.
 */
#ifndef TMEASURE_H
#define TMEASURE_H

#include <stddef.h>

/* Fills *t_para_s and `source` ("region", "threads" or "wall") from the trace directory
 * `trace_dir` (which may not exist) and the run's wall time. Always succeeds: the wall time is
 * the last resort. */
void tmeasure_para(const char *trace_dir, double wall_s, double *t_para_s, char *source,
		   size_t source_len);

#endif /* TMEASURE_H */
