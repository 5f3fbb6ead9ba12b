"""This process's peak resident memory, as the benchmarks' children report it."""

from __future__ import annotations

import resource


def peak_mb() -> float:
    """This process's peak resident memory in MB. Linux keeps ``ru_maxrss`` across ``exec``, so a child started by a
    parent holding a generated log would report the parent's: the kernel's own high-water mark of this program
    (``VmHWM``) is read where there is one."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
