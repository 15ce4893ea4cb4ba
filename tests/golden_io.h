/* golden_io.h - reader for the golden case files made by tests/golden/make_goldens.py.

   Header only, every function static: include it where you need it (C99 or C++; nvcc too). The
   format is documented in tests/golden/README.md; this reader checks every length and count
   against the bytes actually there, so a truncated or corrupt file gives an error message, never
   a crash or a silent misread.

       golden_case gc;
       char err[GOLDEN_ERROR_LEN];
       if (golden_load("tests/golden/data/op_relu.fc3d", &gc, err, sizeof err) != 0) puts(err);
       const golden_tensor* y = golden_find(&gc, "y");         // NULL if absent
       const golden_tensor* g = golden_find_op(&gc, 0, "weight"); // "op0.weight"
       ... gc.desc is a ready fc3d_plan_desc (layout, dtype, math left 0 = default) ...
       golden_free(&gc);

   golden_load also checks that x, weight, y (and bias exactly when the conv has one) are present
   with the shapes the desc implies; op tensors are left to the caller, which knows the ops. */
#ifndef GOLDEN_IO_H
#define GOLDEN_IO_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedconv3d.cuh"

#define GOLDEN_MAGIC "FC3DGLD1"
#define GOLDEN_NAME_BYTES 32
#define GOLDEN_MAX_DIMS 8
#define GOLDEN_MAX_TENSORS 256
#define GOLDEN_ERROR_LEN 512
#define GOLDEN_MAX_FILE_BYTES ((size_t)1 << 30)
#define GOLDEN_MAX_CASE_NAME 200

/* static inline: unused functions draw no warning in any file that includes this header. */
#define GOLDEN_FN static inline

typedef struct golden_tensor {
    char name[GOLDEN_NAME_BYTES]; /* NUL-terminated */
    int ndim;
    int64_t dims[GOLDEN_MAX_DIMS];
    int64_t count; /* product of dims */
    double* data;  /* count values, logical row-major order */
} golden_tensor;

typedef struct golden_case {
    fc3d_plan_desc desc;
    /* The op parameters exactly as stored (float64); desc.ops[] holds the same values as float,
       and golden_load refuses a file where the two differ. */
    double op_value[FC3D_MAX_OPS];
    double op_eps[FC3D_MAX_OPS];
    double op_momentum[FC3D_MAX_OPS];
    int num_tensors;
    golden_tensor* tensors;
} golden_case;

/* ---- little-endian cursor -------------------------------------------------------------------- */

typedef struct golden_cursor_ {
    const unsigned char* p;
    size_t len;
    size_t pos;
    char* err;
    size_t err_size;
    const char* path;
} golden_cursor_;

GOLDEN_FN int golden_fail_(char* err, size_t err_size, const char* path, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

GOLDEN_FN int golden_fail_(char* err, size_t err_size, const char* path, const char* fmt, ...) {
    if (err && err_size > 0) {
        int n = snprintf(err, err_size, "%s: ", path ? path : "(null)");
        if (n < 0) n = 0;
        if ((size_t)n < err_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

GOLDEN_FN int golden_take_(golden_cursor_* c, size_t n, const char* what, const unsigned char** out) {
    *out = c->p; /* defined on failure too */
    if (c->len - c->pos < n)
        return golden_fail_(c->err, c->err_size, c->path,
                            "truncated: %s needs %lu bytes at offset %lu, file has %lu", what,
                            (unsigned long)n, (unsigned long)c->pos, (unsigned long)c->len);
    *out = c->p + c->pos;
    c->pos += n;
    return 0;
}

GOLDEN_FN uint64_t golden_le64_(const unsigned char* b) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; --i) v = (v << 8) | b[i];
    return v;
}

GOLDEN_FN int golden_i32_(golden_cursor_* c, const char* what, int32_t* out) {
    const unsigned char* b;
    uint32_t u;
    *out = 0;
    if (golden_take_(c, 4, what, &b)) return -1;
    u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    /* two's complement without implementation-defined conversion */
    *out = u <= 0x7fffffffu ? (int32_t)u : -(int32_t)(0xffffffffu - u) - 1;
    return 0;
}

GOLDEN_FN int golden_i64_(golden_cursor_* c, const char* what, int64_t* out) {
    const unsigned char* b;
    uint64_t u;
    *out = 0;
    if (golden_take_(c, 8, what, &b)) return -1;
    u = golden_le64_(b);
    *out = u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
    return 0;
}

GOLDEN_FN double golden_f64_bits_(const unsigned char* b) {
    uint64_t u = golden_le64_(b);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

GOLDEN_FN int golden_f64_(golden_cursor_* c, const char* what, double* out) {
    const unsigned char* b;
    *out = 0.0;
    if (golden_take_(c, 8, what, &b)) return -1;
    *out = golden_f64_bits_(b);
    return 0;
}

/* ---- files ----------------------------------------------------------------------------------- */

/* Reads a whole file into malloc'd memory (*data, *len). Returns 0 or -1 with err set. */
GOLDEN_FN int golden_read_file(const char* path, unsigned char** data, size_t* len, char* err,
                               size_t err_size) {
    FILE* f;
    unsigned char* buf = NULL;
    size_t cap = 0, n = 0;
    *data = NULL;
    *len = 0;
    f = fopen(path, "rb");
    if (!f) return golden_fail_(err, err_size, path, "cannot open: %s", strerror(errno));
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char* nb;
            if (cap >= GOLDEN_MAX_FILE_BYTES) {
                free(buf);
                fclose(f);
                return golden_fail_(err, err_size, path, "larger than %lu bytes",
                                    (unsigned long)GOLDEN_MAX_FILE_BYTES);
            }
            cap = cap ? cap * 2 : 65536;
            nb = (unsigned char*)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return golden_fail_(err, err_size, path, "out of memory");
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return golden_fail_(err, err_size, path, "read error");
    }
    fclose(f);
    *data = buf;
    *len = n;
    return 0;
}

GOLDEN_FN void golden_free(golden_case* gc) {
    int i;
    if (!gc) return;
    if (gc->tensors)
        for (i = 0; i < gc->num_tensors; ++i) free(gc->tensors[i].data);
    free(gc->tensors);
    memset(gc, 0, sizeof *gc);
}

GOLDEN_FN const golden_tensor* golden_find(const golden_case* gc, const char* name) {
    int i;
    for (i = 0; i < gc->num_tensors; ++i)
        if (strcmp(gc->tensors[i].name, name) == 0) return &gc->tensors[i];
    return NULL;
}

/* The tensor "op<index>.<field>", e.g. golden_find_op(gc, 2, "running_mean"); NULL if absent. */
GOLDEN_FN const golden_tensor* golden_find_op(const golden_case* gc, int index, const char* field) {
    char name[GOLDEN_NAME_BYTES + 16];
    snprintf(name, sizeof name, "op%d.%s", index, field);
    return golden_find(gc, name);
}

/* 1 if t has exactly the ndim dims given. */
GOLDEN_FN int golden_has_shape(const golden_tensor* t, int ndim, const int64_t* dims) {
    int i;
    if (!t || t->ndim != ndim) return 0;
    for (i = 0; i < ndim; ++i)
        if (t->dims[i] != dims[i]) return 0;
    return 1;
}

/* "[2, 3, 4]" into buf (truncated to size). */
GOLDEN_FN const char* golden_shape_str(int ndim, const int64_t* dims, char* buf, size_t size) {
    size_t used = 0;
    int i;
    if (size == 0) return buf;
    buf[0] = '\0';
    for (i = 0; i < ndim; ++i) {
        int n = snprintf(buf + used, size - used, "%s%lld", i ? ", " : "[", (long long)dims[i]);
        if (n < 0 || (size_t)n >= size - used) return buf;
        used += (size_t)n;
    }
    snprintf(buf + used, size - used, "%s", ndim ? "]" : "[]");
    return buf;
}

GOLDEN_FN int golden_int_field_(golden_cursor_* c, const char* what, int lo, int hi, int* out) {
    int32_t v;
    *out = 0;
    if (golden_i32_(c, what, &v)) return -1;
    if (v < lo || v > hi)
        return golden_fail_(c->err, c->err_size, c->path, "corrupt: %s = %ld, expected %d..%d",
                            what, (long)v, lo, hi);
    *out = (int)v;
    return 0;
}

/* A float64 op parameter that the float desc field must hold exactly. */
GOLDEN_FN int golden_float_field_(golden_cursor_* c, const char* what, double* stored,
                                  float* out) {
    double v;
    *stored = 0.0;
    *out = 0.0f;
    if (golden_f64_(c, what, &v)) return -1;
    if (!(v == v) || v > 3.4e38 || v < -3.4e38)
        return golden_fail_(c->err, c->err_size, c->path, "corrupt: %s = %g is not a finite float",
                            what, v);
    if ((double)(float)v != v)
        return golden_fail_(c->err, c->err_size, c->path,
                            "%s = %.17g is not a float32 value, so fc3d_op cannot hold what PyTorch "
                            "ran with", what, v);
    *stored = v;
    *out = (float)v;
    return 0;
}

GOLDEN_FN int golden_check_tensor_(const golden_case* gc, const char* path, const char* name,
                                   int ndim, const int64_t* dims, char* err, size_t err_size) {
    const golden_tensor* t = golden_find(gc, name);
    char want[160], got[160];
    if (!t) return golden_fail_(err, err_size, path, "corrupt: tensor \"%s\" is missing", name);
    if (!golden_has_shape(t, ndim, dims))
        return golden_fail_(err, err_size, path, "corrupt: tensor \"%s\" has shape %s, the desc says %s",
                            name, golden_shape_str(t->ndim, t->dims, got, sizeof got),
                            golden_shape_str(ndim, dims, want, sizeof want));
    return 0;
}

/* Parses one case from memory. path only names the source in messages. On failure gc is left
   empty (golden_free is still safe). */
GOLDEN_FN int golden_parse(const unsigned char* data, size_t len, const char* path, golden_case* gc,
                           char* err, size_t err_size) {
    static const char* const conv_names[] = {
        "conv.batch",          "conv.in_channels",     "conv.out_channels",
        "conv.in_size[0]",     "conv.in_size[1]",      "conv.in_size[2]",
        "conv.kernel[0]",      "conv.kernel[1]",       "conv.kernel[2]",
        "conv.stride[0]",      "conv.stride[1]",       "conv.stride[2]",
        "conv.padding[0]",     "conv.padding[1]",      "conv.padding[2]",
        "conv.output_padding[0]", "conv.output_padding[1]", "conv.output_padding[2]",
        "conv.dilation[0]",    "conv.dilation[1]",     "conv.dilation[2]",
        "conv.groups",         "conv.bias"};
    /* Lower bounds: sizes, kernel, stride, dilation and groups are stored as their real values
       (never the 0 = default of the desc); upper bounds only reject garbage. */
    static const int conv_lo[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                  0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0};
    static const int conv_hi[] = {1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20,
                                  1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20,
                                  1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20,
                                  1 << 20, 1 << 20, 1 << 20, 1 << 20, 1};
    golden_cursor_ c;
    const unsigned char* magic;
    int conv[23];
    int i, num_ops, num_tensors;
    fc3d_conv_desc* cd;

    memset(gc, 0, sizeof *gc);
    c.p = data;
    c.len = len;
    c.pos = 0;
    c.err = err;
    c.err_size = err_size;
    c.path = path;

    if (golden_take_(&c, 8, "magic", &magic)) return -1;
    if (memcmp(magic, GOLDEN_MAGIC, 8) != 0)
        return golden_fail_(err, err_size, path, "not a golden case file (magic is not \"%s\")",
                            GOLDEN_MAGIC);
    for (i = 0; i < 23; ++i)
        if (golden_int_field_(&c, conv_names[i], conv_lo[i], conv_hi[i], &conv[i])) return -1;
    cd = &gc->desc.conv;
    cd->batch = conv[0];
    cd->in_channels = conv[1];
    cd->out_channels = conv[2];
    for (i = 0; i < 3; ++i) {
        cd->in_size[i] = conv[3 + i];
        cd->kernel[i] = conv[6 + i];
        cd->stride[i] = conv[9 + i];
        cd->padding[i] = conv[12 + i];
        cd->output_padding[i] = conv[15 + i];
        cd->dilation[i] = conv[18 + i];
    }
    cd->groups = conv[21];
    cd->bias = conv[22];

    if (golden_int_field_(&c, "num_ops", 0, FC3D_MAX_OPS, &num_ops)) goto fail;
    gc->desc.num_ops = num_ops;
    for (i = 0; i < num_ops; ++i) {
        fc3d_op* op = &gc->desc.ops[i];
        char what[64];
        int kind, groups, norm_dims, flags;
        snprintf(what, sizeof what, "ops[%d].kind", i);
        if (golden_int_field_(&c, what, 1, (int)FC3D_OP_KIND_COUNT_ - 1, &kind)) goto fail;
        snprintf(what, sizeof what, "ops[%d].groups", i);
        if (golden_int_field_(&c, what, 0, 1 << 20, &groups)) goto fail;
        snprintf(what, sizeof what, "ops[%d].norm_dims", i);
        if (golden_int_field_(&c, what, 0, 4, &norm_dims)) goto fail;
        snprintf(what, sizeof what, "ops[%d].flags", i);
        if (golden_int_field_(&c, what, 0,
                              FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS | FC3D_OP_SAVE_BATCH_STATS,
                              &flags))
            goto fail;
        op->kind = (fc3d_op_kind)kind;
        op->groups = groups;
        op->norm_dims = norm_dims;
        op->flags = (unsigned)flags;
        snprintf(what, sizeof what, "ops[%d].value", i);
        if (golden_float_field_(&c, what, &gc->op_value[i], &op->value)) goto fail;
        snprintf(what, sizeof what, "ops[%d].eps", i);
        if (golden_float_field_(&c, what, &gc->op_eps[i], &op->eps)) goto fail;
        snprintf(what, sizeof what, "ops[%d].momentum", i);
        if (golden_float_field_(&c, what, &gc->op_momentum[i], &op->momentum)) goto fail;
    }

    if (golden_int_field_(&c, "tensor count", 0, GOLDEN_MAX_TENSORS, &num_tensors)) goto fail;
    if (num_tensors > 0) {
        gc->tensors = (golden_tensor*)calloc((size_t)num_tensors, sizeof(golden_tensor));
        if (!gc->tensors) {
            golden_fail_(err, err_size, path, "out of memory");
            goto fail;
        }
    }
    for (i = 0; i < num_tensors; ++i) {
        golden_tensor* t = &gc->tensors[i];
        const unsigned char* raw;
        char what[96];
        int j, nul = -1;
        size_t k;
        snprintf(what, sizeof what, "tensor %d name", i);
        if (golden_take_(&c, GOLDEN_NAME_BYTES, what, &raw)) goto fail;
        for (j = 0; j < GOLDEN_NAME_BYTES; ++j) {
            if (raw[j] == 0) {
                nul = j;
                break;
            }
            if (raw[j] < 0x21 || raw[j] > 0x7e) {
                golden_fail_(err, err_size, path, "corrupt: tensor %d name has byte 0x%02x", i,
                             raw[j]);
                goto fail;
            }
        }
        if (nul <= 0) {
            golden_fail_(err, err_size, path, "corrupt: tensor %d name is %s", i,
                         nul == 0 ? "empty" : "not NUL-terminated within 32 bytes");
            goto fail;
        }
        for (j = nul; j < GOLDEN_NAME_BYTES; ++j)
            if (raw[j] != 0) {
                golden_fail_(err, err_size, path, "corrupt: tensor %d name has bytes after its NUL",
                             i);
                goto fail;
            }
        memcpy(t->name, raw, (size_t)nul);
        t->name[nul] = '\0';
        for (j = 0; j < i; ++j)
            if (strcmp(gc->tensors[j].name, t->name) == 0) {
                golden_fail_(err, err_size, path, "corrupt: tensor \"%s\" appears twice", t->name);
                goto fail;
            }
        snprintf(what, sizeof what, "tensor \"%s\" ndim", t->name);
        if (golden_int_field_(&c, what, 1, GOLDEN_MAX_DIMS, &t->ndim)) goto fail;
        t->count = 1;
        for (j = 0; j < t->ndim; ++j) {
            snprintf(what, sizeof what, "tensor \"%s\" dims[%d]", t->name, j);
            if (golden_i64_(&c, what, &t->dims[j])) goto fail;
            /* bound every dim and the running product by the bytes left, so no product overflows */
            if (t->dims[j] < 1 || (uint64_t)t->dims[j] > (uint64_t)(c.len - c.pos) / 8 ||
                (uint64_t)t->count > (uint64_t)(c.len - c.pos) / 8 / (uint64_t)t->dims[j]) {
                golden_fail_(err, err_size, path,
                             "corrupt or truncated: %s = %lld (with %lu bytes left)", what,
                             (long long)t->dims[j], (unsigned long)(c.len - c.pos));
                goto fail;
            }
            t->count *= t->dims[j];
        }
        snprintf(what, sizeof what, "tensor \"%s\" data", t->name);
        if (golden_take_(&c, (size_t)t->count * 8, what, &raw)) goto fail;
        t->data = (double*)malloc((size_t)t->count * sizeof(double));
        if (!t->data) {
            golden_fail_(err, err_size, path, "out of memory");
            goto fail;
        }
        for (k = 0; k < (size_t)t->count; ++k) t->data[k] = golden_f64_bits_(raw + 8 * k);
        gc->num_tensors = i + 1;
    }
    if (c.pos != c.len) {
        golden_fail_(err, err_size, path, "corrupt: %lu bytes after the last tensor",
                     (unsigned long)(c.len - c.pos));
        goto fail;
    }

    {
        /* x, weight, bias and y must agree with the desc; op tensors are the caller's to check. */
        int64_t xd[5], wd[5], bd[1];
        xd[0] = cd->batch;
        xd[1] = cd->in_channels;
        wd[0] = cd->in_channels;
        wd[1] = cd->out_channels / cd->groups;
        for (i = 0; i < 3; ++i) {
            xd[2 + i] = cd->in_size[i];
            wd[2 + i] = cd->kernel[i];
        }
        bd[0] = cd->out_channels;
        if (golden_check_tensor_(gc, path, "x", 5, xd, err, err_size)) goto fail;
        if (golden_check_tensor_(gc, path, "weight", 5, wd, err, err_size)) goto fail;
        if (cd->bias) {
            if (golden_check_tensor_(gc, path, "bias", 1, bd, err, err_size)) goto fail;
        } else if (golden_find(gc, "bias")) {
            golden_fail_(err, err_size, path, "corrupt: tensor \"bias\" present but conv.bias = 0");
            goto fail;
        }
        if (!golden_find(gc, "y")) {
            golden_fail_(err, err_size, path, "corrupt: tensor \"y\" is missing");
            goto fail;
        }
    }
    return 0;

fail:
    golden_free(gc);
    return -1;
}

/* Loads one case file. Returns 0, or -1 with a message in err ("PATH: what is wrong"). */
GOLDEN_FN int golden_load(const char* path, golden_case* gc, char* err, size_t err_size) {
    unsigned char* data;
    size_t len;
    int r;
    memset(gc, 0, sizeof *gc);
    if (golden_read_file(path, &data, &len, err, err_size)) return -1;
    r = golden_parse(data, len, path, gc, err, err_size);
    free(data);
    return r;
}

/* ---- MANIFEST -------------------------------------------------------------------------------- */

typedef struct golden_manifest {
    int count;
    char** names; /* count case names, each a malloc'd string */
} golden_manifest;

GOLDEN_FN void golden_manifest_free(golden_manifest* m) {
    int i;
    if (!m) return;
    if (m->names)
        for (i = 0; i < m->count; ++i) free(m->names[i]);
    free(m->names);
    m->names = NULL;
    m->count = 0;
}

/* Reads DIR/MANIFEST: one case name per line; blank lines and lines starting with '#' are
   skipped, a trailing '\r' is ignored. Names are [A-Za-z0-9_.-], at most GOLDEN_MAX_CASE_NAME
   characters, and unique. Returns 0 (count may be 0: the caller decides whether that fails),
   or -1 with err set (missing file, bad name). */
GOLDEN_FN int golden_read_manifest(const char* dir, golden_manifest* m, char* err, size_t err_size) {
    char path[4096];
    unsigned char* data;
    size_t len, pos = 0;
    int line = 0, cap = 0;
    m->count = 0;
    m->names = NULL;
    if ((size_t)snprintf(path, sizeof path, "%s/MANIFEST", dir) >= sizeof path)
        return golden_fail_(err, err_size, dir, "directory name too long");
    if (golden_read_file(path, &data, &len, err, err_size)) return -1;
    while (pos < len) {
        size_t start = pos, end, k;
        int i;
        char* name;
        ++line;
        while (pos < len && data[pos] != '\n') ++pos;
        end = pos;
        if (pos < len) ++pos;
        if (end > start && data[end - 1] == '\r') --end;
        if (end == start || data[start] == '#') continue;
        if (end - start > GOLDEN_MAX_CASE_NAME) {
            golden_fail_(err, err_size, path, "line %d: name longer than %d characters", line,
                         GOLDEN_MAX_CASE_NAME);
            goto fail;
        }
        for (k = start; k < end; ++k) {
            unsigned char ch = data[k];
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '_' || ch == '.' || ch == '-')) {
                golden_fail_(err, err_size, path, "line %d: byte 0x%02x is not allowed in a case name",
                             line, ch);
                goto fail;
            }
        }
        name = (char*)malloc(end - start + 1);
        if (!name) {
            golden_fail_(err, err_size, path, "out of memory");
            goto fail;
        }
        memcpy(name, data + start, end - start);
        name[end - start] = '\0';
        for (i = 0; i < m->count; ++i)
            if (strcmp(m->names[i], name) == 0) {
                golden_fail_(err, err_size, path, "line %d: case \"%s\" listed twice", line, name);
                free(name);
                goto fail;
            }
        if (m->count == cap) {
            char** nn;
            cap = cap ? cap * 2 : 64;
            nn = (char**)realloc(m->names, (size_t)cap * sizeof(char*));
            if (!nn) {
                free(name);
                golden_fail_(err, err_size, path, "out of memory");
                goto fail;
            }
            m->names = nn;
        }
        m->names[m->count++] = name;
    }
    free(data);
    return 0;

fail:
    free(data);
    golden_manifest_free(m);
    return -1;
}

/* DIR/NAME.fc3d into buf; returns 0, or -1 if it does not fit. */
GOLDEN_FN int golden_case_path(const char* dir, const char* name, char* buf, size_t size) {
    int n = snprintf(buf, size, "%s/%s.fc3d", dir, name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

#endif /* GOLDEN_IO_H */
