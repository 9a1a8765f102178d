/*
 * sgt_export.h — marks the definitions libsgtrace.so exports. The library is compiled with
 * -fvisibility=hidden, so only functions and variables defined with SG_EXPORT (all of them
 * named sg_*) are visible to the programs it is linked into.
 */
#ifndef SGT_EXPORT_H
#define SGT_EXPORT_H

#define SG_EXPORT __attribute__((visibility("default")))

#endif /* SGT_EXPORT_H */
