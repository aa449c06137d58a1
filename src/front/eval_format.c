// Python's format-spec mini-language for f-strings and str.format, as kernel
// files use it in assert messages: [[fill]align][sign][#][0][width][,][.prec][type]
// with types d x X o b c e E f F g G % s (and none).
#include "front/eval.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char fill, align, sign, type;
    bool alt, zero;
    int width, prec; // -1: not given
} spec_t;

static bool parse_spec(const char *s, spec_t *sp)
{
    *sp = (spec_t){' ', 0, '-', 0, false, false, -1, -1};
    if (s[0] && strchr("<>^=", s[1]) && s[1]) {
        sp->fill = s[0], sp->align = s[1];
        s += 2;
    } else if (s[0] && strchr("<>^=", s[0])) {
        sp->align = *s++;
    }
    if (*s == '+' || *s == '-' || *s == ' ') sp->sign = *s++;
    if (*s == '#') sp->alt = true, s++;
    if (*s == '0') {
        sp->zero = true;
        s++;
    }
    if (isdigit((unsigned char)*s)) {
        sp->width = 0;
        while (isdigit((unsigned char)*s) && sp->width < 1000)
            sp->width = sp->width * 10 + (*s++ - '0');
    }
    if (*s == ',' || *s == '_') s++; // grouping is accepted and not applied
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s)) return false;
        sp->prec = 0;
        while (isdigit((unsigned char)*s) && sp->prec < 100)
            sp->prec = sp->prec * 10 + (*s++ - '0');
    }
    if (*s && strchr("bcdeEfFgGnosxX%", *s)) sp->type = *s++;
    return *s == 0 && sp->width < 1000 && sp->prec < 100;
}

static void put_signed(tl_buf_t *b, bool neg, char sign)
{
    if (neg)
        tl_buf_putc(b, '-');
    else if (sign == '+' || sign == ' ')
        tl_buf_putc(b, sign);
}

// The digits of a number (with its sign) into `body`; false if v does not fit the type.
static bool number_body(tl_buf_t *body, const tl_value_t *v, const spec_t *sp)
{
    bool is_int = v->kind == TL_V_INT || v->kind == TL_V_BOOL;
    char type = sp->type ? sp->type : is_int ? 'd' : 0;
    if (strchr("dxXobc", type)) {
        if (!is_int) return false;
        int64_t i = v->kind == TL_V_BOOL ? v->b : v->i;
        if (type == 'c') {
            tl_buf_putc(body, (char)i);
            return true;
        }
        uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
        put_signed(body, i < 0, sp->sign);
        if (sp->alt && type != 'd') tl_buf_printf(body, "0%c", type == 'X' ? 'X' : type);
        if (type == 'b') {
            char bits[65];
            int n = 0;
            do bits[n++] = (char)('0' + (u & 1));
            while ((u >>= 1) && n < 64);
            while (n) tl_buf_putc(body, bits[--n]);
        } else {
            tl_buf_printf(body,
                          type == 'd'   ? "%llu"
                          : type == 'x' ? "%llx"
                          : type == 'X' ? "%llX"
                                        : "%llo",
                          (unsigned long long)u);
        }
        return true;
    }
    double d = tl_value_as_double(v);
    if (!type) { // no type: repr, or general format when a precision is given
        if (sp->prec < 0) {
            if (d >= 0 && (sp->sign == '+' || sp->sign == ' ')) tl_buf_putc(body, sp->sign);
            tl_value_str_of(body, v);
            return true;
        }
        type = 'g';
    }
    put_signed(body, signbit(d) && !isnan(d), sp->sign);
    d = fabs(d);
    int prec = sp->prec < 0 ? 6 : sp->prec;
    if (isinf(d) || isnan(d)) {
        tl_buf_puts(body, isnan(d) ? "nan" : "inf");
    } else if (type == '%') {
        tl_buf_printf(body, "%.*f%%", prec, d * 100);
    } else {
        char f[8] = {'%', '.', '*', type == 'n' ? 'g' : type, 0};
        tl_buf_printf(body, f, prec, d);
    }
    return true;
}

bool tl_eval_format(tl_eval_t *ev, tl_buf_t *out, tl_value_t *v, const char *spec, tl_loc_t loc)
{
    if (!spec || !*spec) {
        tl_value_str_of(out, v);
        return true;
    }
    spec_t sp;
    if (!parse_spec(spec, &sp)) {
        tl_eval_fail(ev, loc, "invalid format specifier '%s'", spec);
        return false;
    }
    tl_buf_t body;
    tl_buf_init(&body);
    bool numeric = tl_value_is_number(v) && sp.type != 's';
    if (numeric) {
        if (!number_body(&body, v, &sp)) {
            tl_buf_free(&body);
            tl_eval_fail(ev, loc, "format code '%c' is not valid for %s", sp.type,
                         tl_value_type_name(v));
            return false;
        }
    } else {
        if (sp.type && sp.type != 's') {
            tl_buf_free(&body);
            tl_eval_fail(ev, loc, "format code '%c' is not valid for %s", sp.type,
                         tl_value_type_name(v));
            return false;
        }
        tl_value_str_of(&body, v);
        if (sp.prec >= 0 && body.len > (size_t)sp.prec) { // truncates
            body.len = (size_t)sp.prec;
            body.data[body.len] = 0;
        }
    }
    const char *text = tl_buf_cstr(&body);
    size_t len = strlen(text);
    char align = sp.align ? sp.align : sp.zero && numeric ? '=' : numeric ? '>' : '<';
    char fill = sp.zero && !sp.align ? '0' : sp.fill;
    size_t pad = sp.width > 0 && (size_t)sp.width > len ? (size_t)sp.width - len : 0;
    size_t left = align == '>' ? pad : align == '^' ? pad / 2 : 0, right = pad - left;
    if (align == '=') { // padding after the sign
        size_t signs = len && strchr("+- ", text[0]) ? 1 : 0;
        tl_buf_putn(out, text, signs);
        for (size_t i = 0; i < pad; i++) tl_buf_putc(out, fill);
        tl_buf_puts(out, text + signs);
    } else {
        for (size_t i = 0; i < left; i++) tl_buf_putc(out, fill);
        tl_buf_puts(out, text);
        for (size_t i = 0; i < right; i++) tl_buf_putc(out, fill);
    }
    tl_buf_free(&body);
    return true;
}

// Python's printf-style `fmt % args` (host code that builds kernel source
// text with it): %[(key)][flags][width][.prec]type, each conversion handed to
// the format-spec code above; `args` a tuple, a dict (with keys) or one value.
tl_value_t *tl_eval_percent(tl_eval_t *ev, const tl_value_t *fmt, tl_value_t *args, tl_loc_t loc)
{
    tl_buf_t out;
    tl_buf_init(&out);
    int next = 0;
    bool tuple = args->kind == TL_V_TUPLE;
    const char *p = fmt->str.s, *end = p + fmt->str.len;
    while (p < end) {
        if (*p != '%') {
            tl_buf_putc(&out, *p++);
            continue;
        }
        p++;
        if (p < end && *p == '%') {
            tl_buf_putc(&out, *p++);
            continue;
        }
        tl_value_t *v = NULL;
        if (p < end && *p == '(') {
            const char *k = ++p;
            while (p < end && *p != ')') p++;
            if (p == end || args->kind != TL_V_DICT) goto bad;
            tl_value_t *key = tl_value_strn(ev->arena, k, (size_t)(p++ - k));
            v = tl_value_dict_get(args, key);
            if (!v) {
                tl_buf_free(&out);
                return tl_eval_fail(ev, loc, "KeyError: '%s' in the %% format", key->str.s);
            }
        }
        char spec[64];
        size_t n = 0;
        char flags[8] = {0};
        size_t nf = 0;
        while (p < end && strchr("-+ #0", *p) && nf + 1 < sizeof flags) flags[nf++] = *p++;
        if (strchr(flags, '-')) spec[n++] = '<';
        else if (strchr(flags, '0')) spec[n++] = '0';
        if (strchr(flags, '+')) spec[n++] = '+';
        else if (strchr(flags, ' ')) spec[n++] = ' ';
        if (strchr(flags, '#')) spec[n++] = '#';
        while (p < end && (isdigit((unsigned char)*p) || *p == '.') && n + 2 < sizeof spec)
            spec[n++] = *p++;
        if (p == end) goto bad;
        char type = *p++;
        if (type == 'i' || type == 'u') type = 'd';
        if (!strchr("dxXofFeEgGcsr", type)) goto bad;
        if (!v) {
            if (tuple ? next >= args->seq.n : next > 0) {
                tl_buf_free(&out);
                return tl_eval_fail(ev, loc, "not enough arguments for format string");
            }
            v = tuple ? args->seq.items[next] : args;
            next++;
        }
        if (type != 'r' && type != 's') spec[n++] = type;
        else if (!tl_value_is_number(v)) spec[n++] = 's';
        spec[n] = 0;
        if (!tl_eval_format(ev, &out, v, spec, loc)) {
            tl_buf_free(&out);
            return NULL;
        }
    }
    if (tuple && next < args->seq.n) {
        tl_buf_free(&out);
        return tl_eval_fail(ev, loc, "not all arguments converted during string formatting");
    }
    tl_value_t *r = tl_value_strn(ev->arena, out.data ? out.data : "", out.len);
    tl_buf_free(&out);
    return r;
bad:
    tl_buf_free(&out);
    return tl_eval_fail(ev, loc, "unsupported format character in '%s'", fmt->str.s);
}
