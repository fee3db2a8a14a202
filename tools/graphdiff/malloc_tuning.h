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
// Where the host takes free memory back, only when a probe says they pay. A
// virtual machine whose balloon device reports free pages (Firecracker,
// QEMU's free-page-reporting) hands every free 2 MiB block back to the host
// a few seconds after it is freed, so a huge page is nearly always one the
// host must find and back again. Whether that costs more than 4 KiB pages
// depends on the host: on one such VM a gigabyte of fresh huge pages took 1.3
// to 2.0 s to touch and of 4 KiB pages 0.4 s (a diff 20 to 40% slower with
// huge pages); on another, 4 KiB pages took 2.5 to 3.6 s a gigabyte, huge
// pages 1.4 to 2.3 s (a diff 30 to 44% quicker with them). So on such a VM the
// tool touches fresh memory of each kind before it decides (README, "The
// tool's malloc").
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
// `huge_pages_pay` whether huge pages are worth asking for here
// (HugePagesPay). Only the kernel's "madvise" mode needs asking:
// "always" gives huge pages anyway and "never" refuses them. A GLIBC_TUNABLES
// that already names glibc.malloc.hugetlb is left alone: the user's setting
// wins (glibc.malloc.hugetlb=1 asks for huge pages on any machine), and the
// re-executed process sees its own and does not go round again.
std::optional<std::string> HugePageTunables(const char* tunables, const char* opt_out,
                                            std::string_view thp_enabled, bool huge_pages_pay);

// Whether this machine is a virtual machine whose memory balloon reports
// free pages to the host (virtio feature VIRTIO_BALLOON_F_REPORTING, bit 5).
// `devices` is the virtio bus's device folder; false where it cannot be read.
bool HostReclaimsFreeMemory(const std::string& devices = "/sys/bus/virtio/devices");

// What fresh memory costs on this machine now: the time to touch a MiB of
// memory no one has touched, in 4 KiB pages and in 2 MiB huge pages (a huge
// page's first touch zeroes all of it, and the host backs all of it).
struct FreshMemoryCost {
  double small_pages_ms_per_mib = 0;
  double huge_page_ms_per_mib = 0;
};

// Touches one MiB of fresh 4 KiB pages, then 2 MiB blocks marked for huge
// pages until one is much dearer than the cheapest (the host no longer
// backs it; at most 16), and times each: about 10 ms where faults are slowest.
// Where the kernel gives no huge page, the blocks are 4 KiB pages too and
// cost the same. nullopt where memory cannot be mapped (not Linux).
std::optional<FreshMemoryCost> MeasureFreshMemoryCost();

// Whether the heap should ask for huge pages: always where the host keeps
// freed memory (`host_reclaims` false: bare metal, most VMs); where it takes
// it back, only when `cost` finds a huge page cheaper per byte than 4 KiB
// pages (no measurement: no).
bool HugePagesPay(bool host_reclaims, const std::optional<FreshMemoryCost>& cost);

// Unless GRAPHDIFF_TUNE_MALLOC is "0" (glibc's defaults, for comparison or
// to save memory): re-executes the running program (same argv, same
// environment but for GLIBC_TUNABLES) when HugePageTunables says so; when it
// does not, or the exec fails (environment restored), sets malloc to keep its
// heap: blocks under 32 MiB from the heap, grown 32 MiB at a time, and up to
// 512 MiB of free top kept. GRAPHDIFF_TUNE_MALLOC=report also says on
// stderr what it chose and why (the probe's figures where it ran). Linux with
// glibc only; elsewhere it does nothing.
// Call first thing in main, before any thread starts.
void TuneMallocForBigGraphs(char** argv);

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_MALLOC_TUNING_H_
