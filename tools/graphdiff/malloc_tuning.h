// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The command-line tool's malloc, set for graphs of millions of nodes.
//
// A diff of two 10^6-node graphs touches a gigabyte or two of fresh heap. On
// the common kernel setting (THP "madvise"), each 4 KiB page of it is one
// page fault and one TLB entry; on a virtual machine the faults alone were a
// third of the run (546k faults diffing two one-graph FX files). The library
// marks its big hash tables itself (HugePageAllocator), but node arrays,
// strings and the aligner's vectors come from malloc. glibc's malloc asks for
// huge pages when the tunable glibc.malloc.hugetlb=1 is set, and tunables
// are read only when a process starts, so the tool sets it and executes
// itself again, once, before it does anything else.
//
// Not where the host takes free memory back. A virtual machine whose balloon
// device reports free pages (Firecracker, QEMU's free-page-reporting) hands
// every free 2 MiB block back to the host a few seconds after it is freed,
// so a huge page is nearly always one the host must find and back again: on
// such a VM a gigabyte of fresh huge pages took 1.3 to 2.0 s to touch, of 4
// KiB pages 0.4 s, and a diff run a few seconds after the last was 20 to 40%
// slower with huge pages (README, "The tool's malloc"). Only pages freed
// within the last seconds are cheap, which is a benchmark's loop, not a
// user's run.
//
// Fresh memory is the cost, so the heap also keeps what it has: freed blocks
// stay for reuse instead of going back to the kernel and being faulted in
// again for the next stage (parse, align, report) or the next graph pair. On
// the HLO pair of 121,216 modules, huge pages alone left 133k faults, mostly
// that churn; with the heap kept, 5k. The README section "The tool's malloc"
// has the measured effect on time and peak memory.
#ifndef GRAPHDIFF_TOOLS_MALLOC_TUNING_H_
#define GRAPHDIFF_TOOLS_MALLOC_TUNING_H_

#include <optional>
#include <string>
#include <string_view>

namespace graphdiff::cli {

// The GLIBC_TUNABLES value to re-execute with, or nullopt to run as we are.
// `tunables` is the current GLIBC_TUNABLES (null when unset), `opt_out` is
// GRAPHDIFF_TUNE_MALLOC (null when unset; "0" opts out), `thp_enabled` is the
// text of /sys/kernel/mm/transparent_hugepage/enabled ("" when unreadable),
// `host_reclaims` whether free memory goes back to a hypervisor
// (HostReclaimsFreeMemory). Only the kernel's "madvise" mode needs asking:
// "always" gives huge pages anyway and "never" refuses them. A GLIBC_TUNABLES
// that already names glibc.malloc.hugetlb is left alone: the user's setting
// wins (glibc.malloc.hugetlb=1 asks for huge pages on any machine), and the
// re-executed process sees its own and does not go round again.
std::optional<std::string> HugePageTunables(const char* tunables, const char* opt_out,
                                            std::string_view thp_enabled, bool host_reclaims);

// Whether this machine is a virtual machine whose memory balloon reports
// free pages to the host (virtio feature VIRTIO_BALLOON_F_REPORTING, bit 5).
// `devices` is the virtio bus's device folder; false where it cannot be read.
bool HostReclaimsFreeMemory(const std::string& devices = "/sys/bus/virtio/devices");

// Unless GRAPHDIFF_TUNE_MALLOC is "0" (glibc's defaults, for comparison or
// to save memory): re-executes the running program (same argv, same
// environment but for GLIBC_TUNABLES) when HugePageTunables says so; when it
// does not, or the exec fails (environment restored), sets malloc to keep its
// heap: blocks under 32 MiB from the heap, grown 32 MiB at a time, and up to
// 512 MiB of free top kept. Linux with glibc only; elsewhere it does nothing.
// Call first thing in main, before any thread starts.
void TuneMallocForBigGraphs(char** argv);

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_MALLOC_TUNING_H_
