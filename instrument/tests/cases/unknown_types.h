/* Types the instrumenter never sees (it does not read headers). */
typedef struct { double v[3]; } vec3;
typedef vec3 *vec3_ptr;
#define EXPORT
#define CONST const
