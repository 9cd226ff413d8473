/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which new names are malformed, one definition for both backends: the BPF LSM program
 * (guard.bpf.c) and the fanotify decider (fanotify-decide.c). Two copies drifted apart once (the
 * BPF one knew 5 script extensions, the other 17); a name refused on one backend must be refused on
 * the other.
 *
 * Malformed: a control byte; invalid UTF-8 (a stray or missing continuation byte, an overlong form,
 * a surrogate, past U+10FFFF); a trailing dot or space (Windows tools and some servers drop them,
 * so `a.php.` can end up as `a.php`); a script extension before another extension (`a.php.jpg`,
 * `a.php;.jpg`: servers that take the first extension, or stop at `;`, still run them as scripts).
 *
 * Plain C over a buffer of GUARD_NAME_BYTES (a name is at most 255 bytes): every index is masked and
 * every loop has a constant bound, so the 6.1 verifier accepts it. The caller runs the byte scan
 * (bpf_loop in BPF, a for loop in user space).
 */
#ifndef RAMPART_GUARD_MALFORMED_NAME_H
#define RAMPART_GUARD_MALFORMED_NAME_H

/* Inlined in BPF too: the verifier then sees each use with its caller's bounds. */
#define GUARD_NAME_INLINE static inline __attribute__((always_inline))

#define GUARD_NAME_BYTES 256
#define GUARD_NAME_MASK (GUARD_NAME_BYTES - 1)

/* Extensions a web server may run, lower case. */
#define GUARD_SCRIPT_EXT_MAX 5
static const char guard_script_exts[][GUARD_SCRIPT_EXT_MAX + 1] = {
  "php", "php3", "php4", "php5", "php7", "phtml", "pht", "asp", "aspx",
  "asa", "cer", "cdx", "ashx", "asmx", "jsp", "jspx", "cgi",
};
#define GUARD_SCRIPT_EXTS (sizeof(guard_script_exts) / sizeof(guard_script_exts[0]))

/*
 * Whether the extension starting at p (just after a dot) is a script extension followed by '.' or
 * ';' inside the name. The last extension is the file's own; a script one before it is a disguise.
 */
GUARD_NAME_INLINE int guard_script_ext_at(const unsigned char *name, unsigned int len, unsigned int p)
{
  unsigned char ext[GUARD_SCRIPT_EXT_MAX + 1] = { 0 };
  unsigned int n = GUARD_SCRIPT_EXT_MAX + 1; /* longer than any until its end is found */
  for (unsigned int k = 0; k <= GUARD_SCRIPT_EXT_MAX; k++) {
    if (p + k >= len)
      return 0;
    unsigned char ch = name[(p + k) & GUARD_NAME_MASK];
    if (ch == '.' || ch == ';') {
      n = k;
      break;
    }
    if (k < GUARD_SCRIPT_EXT_MAX)
      ext[k] = ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
  }
  if (n == 0 || n > GUARD_SCRIPT_EXT_MAX)
    return 0;
  /* Both sides are NUL-padded to the same width: equal bytes mean the same extension. Branch-free
   * inside, so the verifier walks one path per extension. */
  for (unsigned int e = 0; e < GUARD_SCRIPT_EXTS; e++) {
    unsigned int diff = 0;
    for (unsigned int k = 0; k <= GUARD_SCRIPT_EXT_MAX; k++)
      diff |= ext[k] ^ (unsigned char)guard_script_exts[e][k];
    if (!diff)
      return 1;
  }
  return 0;
}

/* A trailing dot or space; "." and ".." are a directory's own entries, never new names. */
GUARD_NAME_INLINE int guard_name_ends_badly(const unsigned char *name, unsigned int len)
{
  if (len == 0 || len > GUARD_NAME_MASK)
    return 0;
  unsigned char last = name[(len - 1) & GUARD_NAME_MASK];
  if (last == ' ')
    return 1;
  if (last != '.')
    return 0;
  return !(len == 1 || (len == 2 && name[0] == '.'));
}

struct guard_name_scan {
  unsigned int bad;
  unsigned int cont;      /* continuation bytes still due */
  unsigned char lo, hi;   /* the range the next continuation byte must be in */
};

/* Byte i of the scan (control bytes, UTF-8, script extensions); 1: malformed, the scan can stop. */
GUARD_NAME_INLINE int guard_name_scan_byte(struct guard_name_scan *s, const unsigned char *name, unsigned int len,
                                           unsigned int i)
{
  unsigned char ch = name[i & GUARD_NAME_MASK];
  if (s->cont) {
    if (ch < s->lo || ch > s->hi)
      goto bad;
    s->cont--;
    s->lo = 0x80;
    s->hi = 0xbf;
    return 0;
  }
  if (ch < 0x20 || ch == 0x7f)
    goto bad;
  if (ch >= 0x80) {
    /* Lead bytes and their second byte's range, as Unicode's table of well-formed UTF-8 has them. */
    s->lo = 0x80;
    s->hi = 0xbf;
    if (ch >= 0xc2 && ch <= 0xdf) {
      s->cont = 1;
    } else if (ch >= 0xe0 && ch <= 0xef) {
      s->cont = 2;
      if (ch == 0xe0)
        s->lo = 0xa0; /* overlong below */
      else if (ch == 0xed)
        s->hi = 0x9f; /* surrogates above */
    } else if (ch >= 0xf0 && ch <= 0xf4) {
      s->cont = 3;
      if (ch == 0xf0)
        s->lo = 0x90; /* overlong below */
      else if (ch == 0xf4)
        s->hi = 0x8f; /* past U+10FFFF above */
    } else {
      goto bad;
    }
    return 0;
  }
  if (ch == '.' && guard_script_ext_at(name, len, i + 1))
    goto bad;
  return 0;
bad:
  s->bad = 1;
  return 1;
}

/* After the last byte: malformed if a byte was, or the name ends inside a multi-byte character. */
GUARD_NAME_INLINE int guard_name_scan_result(const struct guard_name_scan *s)
{
  return s->bad || s->cont;
}

#endif
