/* SPDX-License-Identifier: GPL-2.0 */
/* What main.c needs of the BPF LSM backend beyond backend.h: where its pins live. */
#ifndef RAMPART_GUARD_LSM_H
#define RAMPART_GUARD_LSM_H

#include <stdbool.h>
#include <stdint.h>

/* Set before start(): the bpffs folder for maps and links (default /sys/fs/bpf/rampart). */
void guard_lsm_set_pin_dir(const char *dir);
/* The generation the pinned tables held when start() reused them (0: none). */
uint64_t guard_lsm_generation(void);
/* Removes every pin under dir: enforcement ends once no helper holds the links. */
int guard_lsm_unpin_all(const char *dir);
/* The kernel's device number encoding ((major << 20) | minor) of a userspace st_dev. */
uint64_t guard_kernel_dev(uint64_t st_dev);

#endif
