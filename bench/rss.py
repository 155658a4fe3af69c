"""Child of the memory benchmark: play every scripted session in one process
and print the peak resident set size as JSON."""
import json
import resource
import sys


def main() -> None:
    quick = "--quick" in sys.argv
    from bench.walks import ui_events
    for app, key in ui_events(quick):
        if key is not None:
            app.handle(key)
        app.frame()
    print(json.dumps({"peak_rss_mb": round(peak_kb() / 1024, 1)}))


def peak_kb() -> int:
    """This process's own high-water RSS. (ru_maxrss is not used: Linux carries
    the parent's size at fork over the exec, so a child of a big benchmark
    process would report the parent's figure.)"""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    main()
